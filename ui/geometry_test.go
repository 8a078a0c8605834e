package ui

import (
	"testing"

	"aeroplane/engine"
)

// TestGeometryMatchesRules checks the drawn board against rules.md section 2.
func TestGeometryMatchesRules(t *testing.T) {
	g := newGeometry()
	seen := map[trackSpot]int{}
	for a, s := range g.track {
		if prev, dup := seen[s]; dup {
			t.Fatalf("squares %d and %d share spot %+v", prev, a, s)
		}
		seen[s] = a
		if s.cell.x < 0 || s.cell.y < 0 || s.cell.x >= gridSize || s.cell.y >= gridSize {
			t.Fatalf("square %d off the grid: %+v", a, s)
		}
		// consecutive squares touch (same cell for the two triangles of an inner corner)
		n := g.track[(a+1)%engine.TrackSquares].cell
		if d := abs(n.x-s.cell.x) + abs(n.y-s.cell.y); d > 1 {
			t.Errorf("squares %d %+v and %d %+v do not touch", a, s.cell, a+1, n)
		}
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		turn := g.track[engine.Absolute(c, engine.TurnSquare)].cell
		h1 := g.home[c][1]
		if abs(turn.x-h1.x)+abs(turn.y-h1.y) != 1 {
			t.Errorf("%s: H1 %+v does not touch the turn square %+v", c, h1, turn)
		}
		h5 := g.home[c][5]
		if abs(h5.x-g.centre.x)+abs(h5.y-g.centre.y) != 1 {
			t.Errorf("%s: H5 %+v does not touch the centre", c, h5)
		}
		// route 0 is an outer corner next to the launch area, coloured as the previous player
		r0 := g.track[engine.Absolute(c, 0)].cell
		l := g.launch[c]
		if abs(r0.x-l.x)+abs(r0.y-l.y) != 1 {
			t.Errorf("%s: launch %+v not beside route 0 %+v", c, l, r0)
		}
		if got := engine.SquareColour(engine.Absolute(c, 0)); got != (c+3)%4 {
			t.Errorf("%s: route 0 colour %s", c, got)
		}
		// the turn square is the middle of the arm end: the home column runs straight from it to the centre
		if turn.x != g.centre.x && turn.y != g.centre.y {
			t.Errorf("%s: turn square %+v not in line with the centre", c, turn)
		}
		// the shortcut line runs straight from 17 to 29 and crosses the opposite colour's H3
		from := g.track[engine.Absolute(c, engine.ShortcutFrom)].cell
		to := g.track[engine.Absolute(c, engine.ShortcutTo)].cell
		cross := g.home[c.Opposite()][3]
		if len(g.dashes[c]) != 4 {
			t.Errorf("%s: %d dashes, want 4", c, len(g.dashes[c]))
		}
		if !between(from, to, cross) {
			t.Errorf("%s: shortcut %+v→%+v misses %s's H3 %+v", c, from, to, c.Opposite(), cross)
		}
		if engine.SquareColour(engine.Absolute(c, engine.ShortcutFrom)) != c {
			t.Errorf("%s: shortcut square not own colour", c)
		}
	}
}

func between(a, b, p cell) bool {
	if a.x == b.x {
		return p.x == a.x && (p.y-a.y)*(p.y-b.y) < 0
	}
	return a.y == b.y && p.y == a.y && (p.x-a.x)*(p.x-b.x) < 0
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
