package cli

import (
	"fmt"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
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
