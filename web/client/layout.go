package client

import "aeroplane/engine"

// The printed board, as the page draws it: the terminal's 13×13 grid (ui's
// geometry, which a test of package ui holds this to): a cross with arms 7
// cells wide and 4 long around a 5×5 middle, the hangars in the four 3×3
// corners. Red's arm is on the left and the colours follow clockwise
// (Blue top, Yellow right, Green bottom); each colour's quarter is Red's
// turned, so rules.md section 2 is written once, for Red, and rotated.
const GridSize = 13

// Cell is one cell of the grid, x to the right and y down.
type Cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// rot turns a cell a quarter clockwise about the middle of the grid.
func rot(p Cell, quarters int) Cell {
	for ; quarters > 0; quarters-- {
		p = Cell{GridSize - 1 - p.Y, p.X}
	}
	return p
}

// TrackSquare is one absolute square of the ring.
type TrackSquare struct {
	Cell
	// Half is "" for a whole cell; an inner corner's cell holds two
	// squares, triangles split on a diagonal: Side names the neighbour's
	// side ("l", "r", "t", "b") the triangle borders, Other the other
	// triangle's.
	Side   string `json:"side,omitempty"`
	Other  string `json:"other,omitempty"`
	Colour string `json:"colour"`
	// Jump: landing here on the painted colour's route jumps +4; Shortcut:
	// the painted colour flies from here along its dashed line; Turn: the
	// painted colour turns into its home column here.
	Jump     bool `json:"jump,omitempty"`
	Shortcut bool `json:"shortcut,omitempty"`
	Turn     bool `json:"turn,omitempty"`
}

// Layout is where everything of the printed board is, in grid cells.
type Layout struct {
	Size   int               `json:"size"`
	Track  []TrackSquare     `json:"track"`  // absolute squares 0..51
	Home   map[string][]Cell `json:"home"`   // colour → H1..H5 (route 50..54)
	Hangar map[string][]Cell `json:"hangar"` // colour → plane 0..3's slot
	Launch map[string]Cell   `json:"launch"`
	Corner map[string]Cell   `json:"corner"` // colour → the top-left cell of its 3×3 corner
	Flight map[string][2]int `json:"flight"` // colour → its dashed line: the absolute squares ShortcutFrom and ShortcutTo
	Centre Cell              `json:"centre"`
}

// quarterCells is one quarter of the track in Red's frame, absolute squares
// 0..12 (rules.md: route index 0 of Red is the outer corner at the end of
// Red's arm next to Red's launch area; then two squares inward, the two
// inner-corner triangles, two squares outward, the outer corner and the
// five squares across the end of Blue's arm).
var quarterCells = [13]Cell{
	{0, 3}, {1, 3}, {2, 3}, {3, 3}, {3, 3}, {3, 2}, {3, 1}, {3, 0},
	{4, 0}, {5, 0}, {6, 0}, {7, 0}, {8, 0},
}

// BoardLayout lays out the printed board.
func BoardLayout() Layout {
	l := Layout{Size: GridSize, Centre: Cell{6, 6}, Home: map[string][]Cell{}, Hangar: map[string][]Cell{},
		Launch: map[string]Cell{}, Corner: map[string]Cell{}, Flight: map[string][2]int{}}
	l.Track = make([]TrackSquare, engine.TrackSquares)
	for a := range l.Track {
		c := engine.SquareColour(a)
		i := engine.RouteIndex(c, a)
		l.Track[a] = TrackSquare{Cell: rot(quarterCells[a%13], a/13), Colour: string(c.Letter()),
			Jump: engine.IsJumpSquare(i), Shortcut: i == engine.ShortcutFrom, Turn: i == engine.TurnSquare}
	}
	// The two triangles of an inner corner: the first borders the square
	// before it, the second the square after.
	side := func(from, to Cell) string {
		switch {
		case to.X < from.X:
			return "l"
		case to.X > from.X:
			return "r"
		case to.Y < from.Y:
			return "t"
		}
		return "b"
	}
	n := engine.TrackSquares
	for a := range l.Track {
		b := (a + 1) % n
		if l.Track[a].Cell != l.Track[b].Cell {
			continue
		}
		here := l.Track[a].Cell
		l.Track[a].Side = side(here, l.Track[(a+n-1)%n].Cell)
		l.Track[b].Side = side(here, l.Track[(b+1)%n].Cell)
		l.Track[a].Other, l.Track[b].Other = l.Track[b].Side, l.Track[a].Side
	}
	redSlots := [engine.PlanesPerColour]Cell{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	for ci := range engine.NumColours {
		c := engine.Colour(ci)
		k := string(c.Letter())
		for j := 1; j <= engine.HomeLast-engine.TrackEnd; j++ {
			l.Home[k] = append(l.Home[k], rot(Cell{j, 6}, ci))
		}
		for _, s := range redSlots {
			l.Hangar[k] = append(l.Hangar[k], rot(s, ci))
		}
		l.Launch[k] = rot(Cell{0, 2}, ci)
		// The corner's top-left cell once turned: the turned 3×3 block's
		// smallest x and y.
		a, z := rot(Cell{0, 0}, ci), rot(Cell{2, 2}, ci)
		l.Corner[k] = Cell{min(a.X, z.X), min(a.Y, z.Y)}
		l.Flight[k] = [2]int{engine.Absolute(c, engine.ShortcutFrom), engine.Absolute(c, engine.ShortcutTo)}
	}
	return l
}

// PlaceCell is the track square (≥ 0, else -1) or the cell of colour c's
// place p; plane is the plane's index, for its hangar slot.
func (l Layout) PlaceCell(c engine.Colour, plane int, p engine.Place) (square int, cell Cell) {
	k := string(c.Letter())
	switch {
	case p == engine.Hangar:
		return -1, l.Hangar[k][plane]
	case p == engine.Launch:
		return -1, l.Launch[k]
	case p >= 0 && p <= engine.TrackEnd:
		a := engine.Absolute(c, int(p))
		return a, l.Track[a].Cell
	case p >= engine.HomeFirst && p <= engine.HomeLast:
		return -1, l.Home[k][int(p)-engine.HomeFirst]
	}
	return -1, l.Centre
}
