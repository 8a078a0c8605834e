package ui

import "aeroplane/engine"

// The board is a 13×13 grid of cells: a cross with arms 7 cells wide and 4
// long around a 5×5 middle, and the four 3×3 corners between the arms for
// hangars and launch areas. Red's arm is on the left and the colours follow
// clockwise (Blue top, Yellow right, Green bottom), so each colour's
// geometry is Red's turned by a quarter: rules.md section 2 is written once
// for one quarter and rotated.
const gridSize = 13

type cell struct{ x, y int }

// rot turns a cell a quarter clockwise about the middle of the grid.
func rot(p cell, quarters int) cell {
	for ; quarters > 0; quarters-- {
		p = cell{gridSize - 1 - p.y, p.x}
	}
	return p
}

// half says which half of an inner-corner cell a triangle takes.
type half uint8

const (
	whole half = iota
	leftHalf
	rightHalf
)

type trackSpot struct {
	cell cell
	half half
}

// quarterCells is one quarter of the track in Red's frame, absolute squares
// 0..12 (rules.md: route index 0 of Red is the outer corner at the end of
// Red's arm next to Red's launch area; then two squares inward, the two
// inner-corner triangles, two squares outward, the outer corner and the
// five squares across the end of Blue's arm).
var quarterCells = [13]cell{
	{0, 3}, {1, 3}, {2, 3}, {3, 3}, {3, 3}, {3, 2}, {3, 1}, {3, 0},
	{4, 0}, {5, 0}, {6, 0}, {7, 0}, {8, 0},
}

// geometry maps every place of the game to grid cells.
type geometry struct {
	track  [engine.TrackSquares]trackSpot
	home   [engine.NumColours][engine.HomeLast - engine.TrackEnd + 1]cell // [c][1..5]
	centre cell
	hangar [engine.NumColours][engine.PlanesPerColour]cell
	launch [engine.NumColours]cell
	// dashes of each colour's shortcut line, and whether they run up and down
	dashes [engine.NumColours][]cell
	upDown [engine.NumColours]bool
}

var board = newGeometry()

func newGeometry() *geometry {
	g := &geometry{centre: cell{6, 6}}
	for a := 0; a < engine.TrackSquares; a++ {
		g.track[a].cell = rot(quarterCells[a%13], a/13)
	}
	// An inner-corner cell holds two triangles: the one that borders a cell
	// to its left or right takes that half, the other the other half.
	for a := 0; a < engine.TrackSquares; a++ {
		b := (a + 1) % engine.TrackSquares
		if g.track[a].cell != g.track[b].cell {
			continue
		}
		prev := g.track[(a+engine.TrackSquares-1)%engine.TrackSquares].cell
		next := g.track[(b+1)%engine.TrackSquares].cell
		here := g.track[a].cell
		side := func(n cell) half {
			if n.x < here.x {
				return leftHalf
			}
			return rightHalf
		}
		other := func(h half) half { return 3 - h }
		if prev.y == here.y {
			g.track[a].half = side(prev)
			g.track[b].half = other(g.track[a].half)
		} else {
			g.track[b].half = side(next)
			g.track[a].half = other(g.track[b].half)
		}
	}
	redSlots := [engine.PlanesPerColour]cell{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	for c := 0; c < engine.NumColours; c++ {
		for j := 1; j <= engine.HomeLast-engine.TrackEnd; j++ {
			g.home[c][j] = rot(cell{j, 6}, c)
		}
		for i, s := range redSlots {
			g.hangar[c][i] = rot(s, c)
		}
		g.launch[c] = rot(cell{0, 2}, c)
	}
	for c := 0; c < engine.NumColours; c++ {
		from := g.track[engine.Absolute(engine.Colour(c), engine.ShortcutFrom)].cell
		to := g.track[engine.Absolute(engine.Colour(c), engine.ShortcutTo)].cell
		cross := g.home[engine.Colour(c).Opposite()][engine.CrossingHome-engine.TrackEnd]
		g.upDown[c] = from.x == to.x
		step := cell{sign(to.x - from.x), sign(to.y - from.y)}
		for p := (cell{from.x + step.x, from.y + step.y}); p != to; p = (cell{p.x + step.x, p.y + step.y}) {
			if p != cross {
				g.dashes[c] = append(g.dashes[c], p)
			}
		}
	}
	return g
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// placeSpot is where a plane of colour c at place p is drawn; ok is false
// for the hangar (drawn per plane) and for a place that does not exist.
func (g *geometry) placeSpot(c engine.Colour, p engine.Place) (trackSpot, bool) {
	switch {
	case p == engine.Launch:
		return trackSpot{cell: g.launch[c]}, true
	case p == engine.Finished:
		return trackSpot{cell: g.centre}, true
	case p >= 0 && p <= engine.TrackEnd:
		return g.track[engine.Absolute(c, int(p))], true
	case p >= engine.HomeFirst && p <= engine.HomeLast:
		return trackSpot{cell: g.home[c][int(p)-engine.TrackEnd]}, true
	}
	return trackSpot{}, false
}
