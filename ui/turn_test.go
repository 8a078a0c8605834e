package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// beepScreen counts the bells the interface rings.
type beepScreen struct {
	tcell.SimulationScreen
	beeps int
}

func (b *beepScreen) Beep() error { b.beeps++; return nil }

// TestYourTurnBell: the bell rings once when it becomes this player's
// turn to roll or (with a roll made for them) to choose, not for the
// choice after their own roll nor for an extra roll, not while others
// play, and never once b turned it off; the turn line is highlighted.
func TestYourTurnBell(t *testing.T) {
	u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -", engine.DefaultRules())
	scr := &beepScreen{SimulationScreen: newSim(t, 80, 24)}
	moves := []engine.Move{{Colour: engine.Red, Plane: 0}, {Colour: engine.Red, Plane: 1}}
	steps := []struct {
		what string
		e    Event
		key  *tcell.EventKey
		want int // bells so far
	}{
		{"Blue rolls", DiceWaiting{ToMove: engine.Blue, Waiting: []string{"random"}}, nil, 0},
		{"Red's turn to roll", DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}, nil, 1},
		{"drawn again", nil, nil, 1},
		{"Red chooses after rolling", Rolled{Colour: engine.Red, Roll: 6, Moves: moves, YouChoose: true}, nil, 1},
		{"Red's extra roll", DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}, nil, 1},
		{"Yellow rolls", DiceWaiting{ToMove: engine.Yellow, Waiting: []string{"bob"}}, nil, 1},
		{"Red's die rolled for Red", Rolled{Colour: engine.Red, Roll: 6, Moves: moves, YouChoose: true}, nil, 2},
		{"Blue rolls", DiceWaiting{ToMove: engine.Blue, Waiting: []string{"random"}}, nil, 2},
		{"bell off", nil, ch('b'), 2},
		{"Red's turn, bell off", DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}, nil, 2},
		{"Blue rolls", DiceWaiting{ToMove: engine.Blue, Waiting: []string{"random"}}, nil, 2},
		{"bell on", nil, ch('b'), 2},
		{"Red's turn, bell on", DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}, nil, 3},
	}
	for _, s := range steps {
		if s.e != nil {
			u.Apply(s.e)
		}
		if s.key != nil {
			u.HandleKey(s.key)
		}
		u.Draw(scr, 80, 24)
		if scr.beeps != s.want {
			t.Fatalf("%s: %d bells, want %d", s.what, scr.beeps, s.want)
		}
	}
	if !strings.Contains(u.notice, "Bell on") {
		t.Errorf("bell key notice %q", u.notice)
	}
	// The line that asks this player to act is highlighted, also when it
	// wraps; another player's turn is not.
	highlighted := func() string {
		s := newSim(t, 80, 24)
		u.Draw(s, 80, 24)
		s.Show()
		cells, w, h := s.GetContents()
		var b strings.Builder
		for i := 0; i < w*h; i++ {
			if _, bg, _ := cells[i].Style.Decompose(); bg == tcell.ColorYellow && i%w > 52 {
				b.WriteString(string(cells[i].Runes))
			}
		}
		return b.String()
	}
	if got := highlighted(); !strings.Contains(got, "Your turn: roll the die") {
		t.Errorf("roll: highlighted %q", got)
	}
	u.Apply(Rolled{Colour: engine.Red, Roll: 6, Moves: moves, YouChoose: true})
	if got := highlighted(); !strings.Contains(got, "Your turn: you rolled") || !strings.Contains(got, "choose a move") {
		t.Errorf("choose: highlighted %q", got)
	}
	u.Apply(DiceWaiting{ToMove: engine.Blue, Waiting: []string{"random"}})
	if got := highlighted(); got != "" {
		t.Errorf("Blue's turn: highlighted %q", got)
	}
}
