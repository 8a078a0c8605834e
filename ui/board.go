package ui

import (
	"fmt"
	"strings"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// boardModel is what the board shows: where every plane is (a position, or
// a step of a move being shown) and the square to highlight.
type boardModel struct {
	planes [engine.NumColours][engine.PlanesPerColour]engine.Place
	inPlay [engine.NumColours]bool
	stacks bool
	target *mark // where the chosen move would end, or a step being shown
	// path is the way of the selected move (before it is played) or of the
	// move just played (until the next roll), spot by spot: see pathKind.
	path map[trackSpot]pathKind
}

type mark struct {
	colour engine.Colour
	place  engine.Place
}

func modelOf(p *engine.Position, rules engine.Rules) boardModel {
	var m boardModel
	m.stacks = !rules.NoStacks
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		m.inPlay[c] = p.InPlay(c)
		for i := 0; i < engine.PlanesPerColour; i++ {
			if m.inPlay[c] {
				m.planes[c][i] = p.Plane(c, i)
			} else {
				m.planes[c][i] = engine.Hangar
			}
		}
	}
	return m
}

// occupants are the planes drawn on one spot: always of one colour, since
// landing captures every opponent (the centre is the one shared spot).
type occupants struct {
	colour engine.Colour
	planes []int
	mixed  int // planes of other colours (only at the centre)
}

func (m *boardModel) occupancy() map[trackSpot]*occupants {
	occ := map[trackSpot]*occupants{}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		if !m.inPlay[c] {
			continue
		}
		for i, p := range m.planes[c] {
			s, ok := board.placeSpot(c, p)
			if !ok {
				continue
			}
			o := occ[s]
			switch {
			case o == nil:
				occ[s] = &occupants{colour: c, planes: []int{i}}
			case o.colour == c:
				o.planes = append(o.planes, i)
			default:
				o.mixed++
			}
		}
	}
	return occ
}

// The board's one notation for planes, the same on every spot and at
// both sizes, at most two cells so that a half of a corner square (two
// cells wide) holds it with the blank that parts it from its neighbours:
//
//	R0   one plane: the colour's letter, then the plane's number (0-3)
//	3R   a stack: how many planes, then the colour (they move together)
//	3L   in a launch area: how many planes wait there (each moves alone)
//	✓5   at the centre: how many planes have reached it
//	R  G a plane or stack on each half of one corner square: letters only
//
// A number first is always a count, a letter first always one plane.

// planeLabel names the planes on a spot; launch says the spot is a launch
// area, crowded that the other half of its corner square is taken too.
func planeLabel(o *occupants, launch, crowded bool) string {
	l := o.colour.Letter()
	n := len(o.planes) + o.mixed
	switch {
	case crowded:
		return string(l)
	case n == 1:
		return fmt.Sprintf("%c%d", l, o.planes[0])
	case launch:
		return fmt.Sprintf("%dL", n)
	}
	return fmt.Sprintf("%d%c", n, l)
}

// Squares are painted in the bright colours (dark text on yellow and
// green); text in a colour uses the darker ones, readable on light and
// dark terminals alike.
var (
	paintValue = [engine.NumColours]tcell.Color{tcell.ColorRed, tcell.ColorBlue, tcell.ColorYellow, tcell.ColorLime}
	inkValue   = [engine.NumColours]tcell.Color{tcell.ColorRed, tcell.ColorBlue, tcell.ColorOlive, tcell.ColorGreen}
)

func squareStyle(c engine.Colour) tcell.Style {
	fg := tcell.ColorWhite
	if c == engine.Yellow || c == engine.Green {
		fg = tcell.ColorBlack
	}
	return tcell.StyleDefault.Background(paintValue[c]).Foreground(fg)
}

func inkStyle(c engine.Colour) tcell.Style {
	return tcell.StyleDefault.Foreground(inkValue[c]).Bold(true)
}

// boardLayout is where the board goes and how big a cell is.
type boardLayout struct {
	x, y   int
	cw, ch int
}

func (l boardLayout) width() int  { return gridSize * l.cw }
func (l boardLayout) height() int { return gridSize * l.ch }

// spotRect is the screen rectangle of a spot.
func (l boardLayout) spotRect(s trackSpot) (x, y, w, h int) {
	x, y, w, h = l.x+s.cell.x*l.cw, l.y+s.cell.y*l.ch, l.cw, l.ch
	switch s.half {
	case leftHalf:
		w = l.cw / 2
	case rightHalf:
		x += l.cw / 2
		w = l.cw - l.cw/2
	}
	return
}

// spotAt finds the spot under screen point (x, y).
func (l boardLayout) spotAt(x, y int) (trackSpot, bool) {
	if x < l.x || y < l.y || x >= l.x+l.width() || y >= l.y+l.height() {
		return trackSpot{}, false
	}
	c := cell{(x - l.x) / l.cw, (y - l.y) / l.ch}
	for _, s := range board.track {
		if s.cell == c {
			if s.half == whole {
				return s, true
			}
			if rx, _, rw, _ := l.spotRect(s); x >= rx && x < rx+rw {
				return s, true
			}
		}
	}
	return trackSpot{cell: c}, true
}

// drawBoard paints the cross-shaped board of rules.md section 2.
func drawBoard(scr tcell.Screen, l boardLayout, m *boardModel) {
	occ := m.occupancy()
	kinds := m.path
	if m.target != nil {
		if t, ok := board.placeSpot(m.target.colour, m.target.place); ok {
			kinds = map[trackSpot]pathKind{t: pathEnd}
			for s, k := range m.path {
				kinds[s] = max(kinds[s], k)
			}
		}
	}
	label := func(s trackSpot) string {
		if o := occ[s]; o != nil {
			crowded := s.half != whole && occ[trackSpot{cell: s.cell, half: 3 - s.half}] != nil
			return planeLabel(o, s.cell == board.launch[o.colour] && s.half == whole, crowded)
		}
		return ""
	}
	paint := func(s trackSpot, st tcell.Style, caption string) {
		drawSpot(scr, l, s, st, spotLines(l, caption, label(s), kinds[s]), kinds[s])
	}
	// The halves of a corner square share one cell: a half's frame fits
	// only where it leaves a blank between the two halves' texts.
	captions := map[trackSpot]string{}
	for a, s := range board.track {
		captions[s] = trackCaption(l, a)
	}
	paintHalf := func(s trackSpot, st tcell.Style) {
		k := kinds[s]
		lines := spotLines(l, captions[s], label(s), k)
		if len(lines) > 1 && lines[1] == "" && k != pathNone {
			lines[1] = pathDot // the half's frame may not fit: the dot shows the way
		}
		if k > pathStep {
			o := trackSpot{cell: s.cell, half: 3 - s.half}
			other := spotLines(l, captions[o], label(o), kinds[o])
			framed := kinds[o] > pathStep
			_, _, w, _ := l.spotRect(s)
			for i, t := range lines {
				room := l.cw - 1 - len([]rune(other[i]))
				if framed && s.half == rightHalf {
					room-- // the left half's own frame
				}
				if n := len([]rune(t)); n > 0 && n+1 <= min(room, w) {
					lines[i] = k.frame(t, s.half)
				}
			}
		}
		fillText(scr, l, s, k.style(st), lines)
	}
	for a, s := range board.track {
		if s.half != whole {
			paintHalf(s, squareStyle(engine.SquareColour(a)))
		} else {
			paint(s, squareStyle(engine.SquareColour(a)), captions[s])
		}
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for j := 1; j <= engine.HomeLast-engine.TrackEnd; j++ {
			paint(trackSpot{cell: board.home[c][j]}, squareStyle(c), engine.Place(engine.TrackEnd+j).Name(c))
		}
		st := inkStyle(c)
		if !m.inPlay[c] {
			st = tcell.StyleDefault.Dim(true)
		}
		for _, d := range board.dashes[c] {
			dash := []string{dashRun(board.dashes[c], d, l.cw)}
			if board.upDown[c] {
				dash = []string{":", ":"}
			}
			if k := kinds[trackSpot{cell: d}]; k != pathNone {
				dash = []string{pathDot} // a flight's way along the line
				if board.upDown[c] {
					dash = []string{pathDot, pathDot}
				}
				fillText(scr, l, trackSpot{cell: d}, k.style(st), dash)
				continue
			}
			fillText(scr, l, trackSpot{cell: d}, st, dash)
		}
		if !m.inPlay[c] {
			continue
		}
		paint(trackSpot{cell: board.launch[c]}, st, "L")
		for i, slot := range board.hangar[c] {
			var text string
			s := st
			switch m.planes[c][i] {
			case engine.Hangar:
				text = fmt.Sprintf("%c%d", c.Letter(), i)
			case engine.Finished:
				text = fmt.Sprintf("%c%d✓", c.Letter(), i)
				s = s.Dim(true)
			default:
				text = ".."
				s = tcell.StyleDefault.Dim(true)
			}
			k := kinds[trackSpot{cell: slot}]
			lines := []string{text}
			if k != pathNone {
				s, lines = k.decorate(s, lines, l.cw)
			}
			fillText(scr, l, trackSpot{cell: slot}, s, lines)
		}
	}
	centreText := "**"
	if o := occ[trackSpot{cell: board.centre}]; o != nil {
		centreText = fmt.Sprintf("✓%d", len(o.planes)+o.mixed)
	}
	delete(occ, trackSpot{cell: board.centre})
	paint(trackSpot{cell: board.centre}, tcell.StyleDefault.Reverse(true), centreText)
}

// trackCaption is what an empty track square shows: its number.
func trackCaption(l boardLayout, a int) string {
	if l.cw < 5 && board.track[a].half != whole {
		// Two numbers do not fit in one compact corner square with a
		// blank between them: its halves show their colours' letters
		// and are numbered by the squares beside them (15 b|r 18).
		return strings.ToLower(string(engine.SquareColour(a).Letter()))
	}
	return engine.SquareName(a)
}

// spotLines is a spot's text: with one line per cell the planes' label
// (or the caption when empty); with two, the caption above the label. A
// square passed over shows a dot where it would show nothing or its
// number.
func spotLines(l boardLayout, caption, label string, k pathKind) []string {
	if l.ch == 1 {
		if label != "" {
			caption = label
		} else if k == pathStep {
			caption = pathDot
		}
		return []string{caption}
	}
	if label == "" && k == pathStep {
		label = pathDot
	}
	return []string{caption, label}
}

// drawSpot fills a whole spot with its lines, marked as its path kind says.
func drawSpot(scr tcell.Screen, l boardLayout, s trackSpot, st tcell.Style, lines []string, k pathKind) {
	if k != pathNone {
		_, _, w, _ := l.spotRect(s)
		st, lines = k.decorate(st, lines, w)
	}
	fillText(scr, l, s, st, lines)
}

func fillText(scr tcell.Screen, l boardLayout, s trackSpot, st tcell.Style, lines []string) {
	x, y, w, h := l.spotRect(s)
	for dy := 0; dy < h; dy++ {
		t := ""
		if dy < len(lines) {
			t = lines[dy]
		}
		for dx, r := range []rune(align(t, w, s.half)) {
			scr.SetContent(x+dx, y+dy, r, nil, st)
		}
	}
}

// align pads t to w runes, or cuts it: on a whole spot centred (leaning
// left), on the left half of a corner square to the left and on the right
// half to the right, so that the two halves' texts never touch unless
// both are full.
func align(t string, w int, h half) string {
	r := []rune(t)
	if len(r) >= w {
		return string(r[:w])
	}
	left := (w - len(r)) / 2
	switch h {
	case leftHalf:
		left = 0
	case rightHalf:
		left = w - len(r)
	}
	return strings.Repeat(" ", left) + t + strings.Repeat(" ", w-len(r)-left)
}

// dashRun is the text of dash cell d of a left-right shortcut line: dashes
// across the cell, but a blank at an end of the line, so that the line
// never touches the text of the square beside it.
func dashRun(line []cell, d cell, w int) string {
	in := func(x int) bool {
		for _, c := range line {
			if c == (cell{x, d.y}) {
				return true
			}
		}
		return false
	}
	r := []rune(strings.Repeat("-", w))
	if !in(d.x - 1) {
		r[0] = ' '
	}
	if !in(d.x + 1) {
		r[w-1] = ' '
	}
	return string(r)
}
