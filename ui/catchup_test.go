package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
)

// TestOthersCatchingUp: another player back on the network is shown
// catching up in the player list, said once in the events, until that
// colour's own next move (another colour's move, or a move a bot made
// for it while absent, changes nothing); Presence settles it too.
func TestOthersCatchingUp(t *testing.T) {
	u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H Y 0 -", engine.DefaultRules())
	bobLine := func() string {
		for _, l := range strings.Split(render(t, u, 100, 30), "\n") {
			if strings.Contains(l, "Y bob") {
				return l
			}
		}
		return ""
	}
	u.Apply(CatchingUp{Colour: engine.Yellow, Name: "bob"})
	if l := bobLine(); !strings.Contains(l, "resuming: catching up") {
		t.Fatalf("bob's line: %q", l)
	}
	// The connection's return and the program's own word come both: said once.
	u.Apply(CatchingUp{Colour: engine.Yellow, Name: "bob"})
	if got := render(t, u, 100, 30); strings.Count(got, "bob is back on the network and catching up") != 1 {
		t.Errorf("the event is not said exactly once:\n%s", got)
	}
	move := func(c engine.Colour) Moved {
		return Moved{Before: u.pos, After: u.pos, Result: engine.Result{Move: engine.Move{Kind: engine.Pass, Colour: c}}}
	}
	u.Apply(move(engine.Red))
	if l := bobLine(); !strings.Contains(l, "catching up") {
		t.Errorf("another colour's move cleared it: %q", l)
	}
	u.Apply(move(engine.Yellow))
	if l := bobLine(); strings.Contains(l, "catching up") {
		t.Errorf("bob's own move did not clear it: %q", l)
	}
	u.Apply(CatchingUp{Colour: engine.Yellow, Name: "bob"})
	u.Apply(Presence{Colour: engine.Yellow, Name: "bob", Present: true})
	if l := bobLine(); strings.Contains(l, "catching up") || !strings.Contains(l, "back") {
		t.Errorf("after Presence: %q", l)
	}
}
