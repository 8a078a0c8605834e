package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
