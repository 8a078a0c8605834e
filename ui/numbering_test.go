package ui

import (
	"fmt"
	"strings"
	"testing"

	"aeroplane/engine"
)

// TestOneNumbering: every square a plane can reach is named the same on
// the board, in the moves list and in the event log, for every colour:
// engine.Place.Name, which replay uses too (internal/cli
// TestReplayNamesSquares). Route indices, which differ per colour, show
// nowhere.
func TestOneNumbering(t *testing.T) {
	rules := engine.DefaultRules()
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for i := engine.Place(0); i <= engine.HomeLast; i++ {
			name := i.Name(c)
			groups := []string{"H,H,H,H", "H,H,H,H", "H,H,H,H", "H,H,H,H"}
			groups[c] = fmt.Sprintf("%s,H,H,H", i-1) // i-1 is L for square 0
			pos := strings.Join(groups, "/") + fmt.Sprintf(" %c 0 -", c.Letter())
			u, _ := gameUI(t, pos, rules)

			// The board: the square's caption, at 120×40 on every
			// square (compact corners show letters, see trackCaption).
			sp, _ := board.placeSpot(c, i)
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				if size[0] == 80 && sp.half != whole {
					continue
				}
				s := newSim(t, size[0], size[1])
				u.Draw(s, size[0], size[1])
				if got := strings.Split(spotText(t, s, u.layout.board, sp), "|")[0]; strings.TrimSpace(got) != name {
					t.Errorf("%s %d at %v: the board shows %q, want %q", c, i, size, got, name)
				}
			}
			// The moves list and the event log, for a roll of 1 onto it.
			mv := engine.Move{Colour: c}
			u.Apply(Rolled{Colour: c, Roll: 1, Moves: []engine.Move{mv}, YouChoose: true})
			if got := u.moveSummary(mv); !strings.Contains(got, "→"+name) {
				t.Errorf("%s %d: the moves list says %q, want →%s", c, i, got, name)
			}
			p := u.pos
			_, res, err := p.Play(rules, 1, mv)
			if err != nil {
				t.Fatal(err)
			}
			if got := stripTags(u.describe(&p, res)); !strings.Contains(got, " "+name) {
				t.Errorf("%s %d: the event says %q, want %s", c, i, got, name)
			}
		}
	}
}
