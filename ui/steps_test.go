package ui

import (
	"testing"
	"time"

	"aeroplane/engine"
)

// TestMoveShownStepByStep: with a step delay the board shows the landing,
// then the flight with its capture, then the position after the move,
// its way drawn all along.
func TestMoveShownStepByStep(t *testing.T) {
	u, _ := gameUI(t, "15,H,H,H/H,H,H,H/H,H,H,52/H,H,H,H R 0 -", engine.DefaultRules())
	u.opts.StepDelay = time.Second
	var pending []func()
	u.after = func(d time.Duration, f func()) {
		if d != time.Second {
			t.Errorf("step delay %v", d)
		}
		pending = append(pending, f)
	}
	before := u.pos
	after, res, err := before.Play(u.playing, 2, engine.Move{Colour: engine.Red, Plane: 0})
	if err != nil {
		t.Fatal(err)
	}
	u.Apply(Moved{Before: before, After: after, Result: res})
	type view struct {
		red0, yellow3 engine.Place
		target        engine.Place
	}
	look := func() view {
		m := u.shown()
		if end, _ := board.placeSpot(engine.Red, 29); m.path[end] != pathEnd || m.path[board.track[16]] != pathStep {
			t.Errorf("the move's way is not drawn along with its steps: %v", m.path)
		}
		v := view{m.planes[engine.Red][0], m.planes[engine.Yellow][3], -9}
		if m.target != nil {
			v.target = m.target.place
		}
		return v
	}
	want := []view{{17, 52, 17}, {29, engine.Hangar, 29}, {29, engine.Hangar, -9}}
	for i, w := range want {
		if got := look(); got != w {
			t.Fatalf("step %d: %+v, want %+v", i+1, got, w)
		}
		if i < len(want)-1 {
			if len(pending) != 1 {
				t.Fatalf("step %d: %d timers pending", i+1, len(pending))
			}
			f := pending[0]
			pending = nil
			f()
		}
	}
	if len(pending) != 0 {
		t.Fatalf("%d timers left after the last step", len(pending))
	}
}
