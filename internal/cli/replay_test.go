package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

func TestReplayCommand(t *testing.T) {
	code, out, errs := runCLI(t, "replay", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "the dice chose") || !strings.Contains(out, "roll 1: ") || !strings.Contains(out, "game over: 1. ") {
		t.Fatalf("replay output lacks turns:\n%.600s", out)
	}
	code, short, _ := runCLI(t, "replay", "--boards=false", goldenLog)
	if code != 0 || len(short) >= len(out) {
		t.Fatalf("--boards=false: exit %d, %d bytes vs %d", code, len(short), len(out))
	}
}

// On a terminal replay steps through the game (the interface gets the
// whole game, players named from the names file beside the log, in the
// language asked for); --print, or output that is no terminal, prints it.
func TestReplayInteractiveOnTerminal(t *testing.T) {
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "game-"+v.GameID.String()+".log")
	names := v.Setup.Players()[0].String() + "\tMei\n"
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".log")+".names", []byte(names), 0o600); err != nil {
		t.Fatal(err)
	}
	oldTerm, oldScreen := replayOnTerminal, replayScreen
	t.Cleanup(func() { replayOnTerminal, replayScreen = oldTerm, oldScreen })
	replayOnTerminal = func(io.Writer) bool { return true }
	var got *ui.Replay
	var lang string
	replayScreen = func(r ui.Replay, o ui.Options) error { got, lang = &r, o.Lang; return nil }

	code, out, errs := runCLI(t, "replay", "--lang", "zh", path)
	if code != 0 || got == nil || out != "" {
		t.Fatalf("on a terminal: exit %d, replay %v, printed %q, %s", code, got != nil, out, errs)
	}
	moved, named := 0, false
	for _, e := range got.Events {
		if _, ok := e.(ui.Moved); ok {
			moved++
		}
	}
	for _, s := range got.Table.Seats {
		named = named || s.Name == "Mei"
	}
	if uint64(moved) != v.Rolls || !named || lang != "zh" {
		t.Errorf("replay of %d moves (want %d), Mei named %v, lang %q", moved, v.Rolls, named, lang)
	}
	got = nil
	if code, out, _ := runCLI(t, "replay", "--print", path); code != 0 || got != nil || !strings.Contains(out, "roll 1: ") {
		t.Errorf("--print on a terminal: exit %d, interactive %v, output %.80q", code, got != nil, out)
	}
	if code, _, errs := runCLI(t, "replay", "--lang", "xx", path); code != 2 || !strings.Contains(errs, "--lang") {
		t.Errorf("--lang xx: exit %d, %s", code, errs)
	}
}

// verify and replay --print name the players the names file beside the
// log knows (name and short ID), the others by peer ID.
func TestToolsNamePlayers(t *testing.T) {
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	players := setup.Players()
	dir := t.TempDir()
	whole := filepath.Join(dir, "game-whole.log")
	cut := filepath.Join(dir, "game-cut.log")
	names := players[0].String() + "\tMei\n" + players[1].String() + "\tZoë\n"
	for path, b := range map[string][]byte{whole: data, cut: append(lockstep.LogHeader(), lockstep.EncodeRecords(recs[:len(recs)-20]...)...)} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".log")+".names", []byte(names), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mei, zoe := "Mei (…"+lockstep.ShortID(players[0])+")", "Zoë (…"+lockstep.ShortID(players[1])+")"
	for _, args := range [][]string{{"verify", whole}, {"replay", "--print", "--boards=false", whole}} {
		code, out, errs := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, mei) || !strings.Contains(out, zoe) || strings.Contains(out, players[0].String()) {
			t.Errorf("%q: exit %d, want %q and %q instead of peer IDs:\n%.300s%s", args, code, mei, zoe, out, errs)
		}
	}
	code, out, _ := runCLI(t, "verify", cut)
	if code != 0 || !regexp.MustCompile(`waiting for (Mei|Zoë) \(…`).MatchString(out) {
		t.Errorf("verify of an unfinished game: exit %d, want who it waits for by name:\n%s", code, out)
	}
}

// TestReplayNamesSquares: replay names the squares of every move as the
// game's board, moves list and event log do (engine.Place.Name, see ui
// TestOneNumbering): a Blue plane on its route index 3 is on square 16,
// never "3".
func TestReplayNamesSquares(t *testing.T) {
	v, err := loadVerified(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "replay", "--boards=false", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checked := 0
	for _, ev := range v.Events {
		if ev.Kind != lockstep.EventMoved || ev.Result.Move.Kind != engine.PlaneMove {
			continue
		}
		r, c := ev.Result, ev.Colour
		want := fmt.Sprintf("roll %d: %s rolls %d and plays %s %s→%s", ev.Roll, c, ev.Value, ev.Move, r.From.Name(c), r.Landed.Name(c))
		if !strings.Contains(out, want) {
			t.Errorf("replay lacks %q", want)
		}
		if c != engine.Red && r.Landed >= 0 && r.Landed <= engine.TrackEnd && r.Landed.Name(c) == r.Landed.String() {
			continue // route index and square number agree here by chance
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d moves whose square number differs from the route index: the log does not test the naming", checked)
	}
}
