package client

import (
	"testing"

	"aeroplane/engine"
)

// TestBoardLayoutIsARing: the 52 squares run round the board one cell
// at a time (an inner corner's two triangles share a cell), each colour's
// home column leads from its turn square to the centre, and every place
// of a plane has its own spot.
func TestBoardLayoutIsARing(t *testing.T) {
	l := BoardLayout()
	n := engine.TrackSquares
	next := func(a, b Cell) bool { d := abs(a.X-b.X) + abs(a.Y-b.Y); return d == 1 }
	for a := range n {
		here, there := l.Track[a], l.Track[(a+1)%n]
		if here.Cell == there.Cell {
			if here.Side == "" || there.Side == "" || here.Side == there.Side {
				t.Errorf("squares %d and %d share cell %v with sides %q and %q", a, (a+1)%n, here.Cell, here.Side, there.Side)
			}
			continue
		}
		if !next(here.Cell, there.Cell) {
			t.Errorf("square %d at %v, square %d at %v: not neighbours", a, here.Cell, (a+1)%n, there.Cell)
		}
		if here.Colour != string(engine.SquareColour(a).Letter()) {
			t.Errorf("square %d painted %s", a, here.Colour)
		}
	}
	seen := map[Cell]string{}
	claim := func(c Cell, what string) {
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s both at %v", what, other, c)
		}
		seen[c] = what
	}
	for ci := range engine.NumColours {
		c := engine.Colour(ci)
		k := string(c.Letter())
		turn := l.Track[engine.Absolute(c, engine.TurnSquare)]
		if !turn.Turn || turn.Colour != k || !next(turn.Cell, l.Home[k][0]) {
			t.Errorf("%s's turn square %+v does not lead into its home column at %v", k, turn, l.Home[k][0])
		}
		if !next(l.Home[k][4], l.Centre) {
			t.Errorf("%s's H5 %v is not beside the centre", k, l.Home[k][4])
		}
		if sc := l.Track[engine.Absolute(c, engine.ShortcutFrom)]; !sc.Shortcut || sc.Jump || sc.Colour != k {
			t.Errorf("%s's shortcut square %+v", k, sc)
		}
		f := [2]Cell{l.Track[l.Flight[k][0]].Cell, l.Track[l.Flight[k][1]].Cell}
		if f[0].X != f[1].X && f[0].Y != f[1].Y || !l.Track[l.Flight[k][0]].Shortcut {
			t.Errorf("%s's flight line %v is not straight", k, f)
		}
		for i, h := range l.Hangar[k] {
			claim(h, k+" hangar slot "+string(rune('0'+i)))
		}
		claim(l.Launch[k], k+" launch")
		for j, h := range l.Home[k] {
			claim(h, k+" H"+string(rune('1'+j)))
		}
	}
	for a, sq := range l.Track {
		if sq.Side == "" || sq.Other == "" {
			claim(sq.Cell, "track square")
		} else if a == 0 || l.Track[a-1].Cell != sq.Cell {
			claim(sq.Cell, "inner corner")
		}
	}
	claim(l.Centre, "centre")
}

func abs(v int) int { return max(v, -v) }

// TestMovePath: the way a move took, as the page draws it, spot by spot.
func TestMovePath(t *testing.T) {
	red := func(ps ...engine.Place) []Spot {
		var s []Spot
		for _, p := range ps {
			sq, cell := layout.PlaceCell(engine.Red, 0, p)
			s = append(s, Spot{Square: sq, Cell: cell})
		}
		return s
	}
	H, L := engine.Hangar, engine.Launch
	for _, tc := range []struct {
		name, pos string
		roll      int
		want      []Spot
	}{
		{"taxi out of the hangar", "H,H,H,H/H,H,H,H/-/- R 0 -", 6, red(H, L)},
		{"from the launch area", "L,H,H,H/H,H,H,H/-/- R 0 -", 3, red(L, 0, 1, 2)},
		{"a jump on its own colour", "L,H,H,H/H,H,H,H/-/- R 0 -", 2, red(L, 0, 1, 5)},
		{"the shortcut", "14,H,H,H/H,H,H,H/-/- R 0 -", 3, red(14, 15, 16, 17, 29)},
		{"a jump onto the shortcut, then the flight", "12,H,H,H/H,H,H,H/-/- R 0 -", 1, red(12, 13, 17, 29)},
		{"into the home column", "48,H,H,H/H,H,H,H/-/- R 0 -", 4, red(48, 49, 50, 51, 52)},
		{"a bounce at the centre", "53,H,H,H/H,H,H,H/-/- R 0 -", 5, red(53, 54, engine.Finished, 54, 53, 52)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := engine.ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			_, res, err := p.Play(engine.DefaultRules(), tc.roll, engine.Move{Kind: engine.PlaneMove, Colour: engine.Red, Plane: 0})
			if err != nil {
				t.Fatal(err)
			}
			got := MovePath(res)
			if len(got) != len(tc.want) {
				t.Fatalf("path %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("step %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
	if MovePath(engine.Result{Move: engine.Move{Kind: engine.Pass}}) != nil {
		t.Error("a pass has a path")
	}
}
