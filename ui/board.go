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

// planeLabel names the planes on a spot in w columns: "R0", a stack as
// "R0x3" (lead plane and count) or, when narrow, "3R".
func planeLabel(o *occupants, w int) string {
	l := o.colour.Letter()
	n := len(o.planes) + o.mixed
	switch {
	case n == 1:
		return fmt.Sprintf("%c%d", l, o.planes[0])
	case w >= 4:
		return fmt.Sprintf("%c%dx%d", l, o.planes[0], n)
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

func lower(c engine.Colour) string { return strings.ToLower(string(c.Letter())) }

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
	var target trackSpot
	hasTarget := false
	if m.target != nil {
		target, hasTarget = board.placeSpot(m.target.colour, m.target.place)
	}
	paint := func(s trackSpot, st tcell.Style, caption string) {
		label := ""
		if o := occ[s]; o != nil {
			label = planeLabel(o, l.spotWidth(s))
		}
		hl := hasTarget && s == target
		drawSpot(scr, l, s, st, caption, label, hl)
	}
	for a, s := range board.track {
		paint(s, squareStyle(engine.SquareColour(a)), lower(engine.SquareColour(a)))
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for j := 1; j <= engine.HomeLast-engine.TrackEnd; j++ {
			paint(trackSpot{cell: board.home[c][j]}, squareStyle(c), fmt.Sprintf("%s%d", lower(c), j))
		}
		st := inkStyle(c)
		if !m.inPlay[c] {
			st = tcell.StyleDefault.Dim(true)
		}
		for _, d := range board.dashes[c] {
			dash := []string{strings.Repeat("-", l.cw)}
			if board.upDown[c] {
				dash = []string{":", ":"}
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
			fillText(scr, l, trackSpot{cell: slot}, s, []string{text})
		}
	}
	centreText := "**"
	if o := occ[trackSpot{cell: board.centre}]; o != nil {
		centreText = fmt.Sprintf("%d✓", len(o.planes)+o.mixed)
	}
	delete(occ, trackSpot{cell: board.centre})
	paint(trackSpot{cell: board.centre}, tcell.StyleDefault.Reverse(true), centreText)
}

func (l boardLayout) spotWidth(s trackSpot) int {
	_, _, w, _ := l.spotRect(s)
	return w
}

// drawSpot fills a spot: with one line per cell the planes' label (or the
// caption when empty); with two, the caption above the label. The
// highlighted spot is reversed and, where there is room, bracketed.
func drawSpot(scr tcell.Screen, l boardLayout, s trackSpot, st tcell.Style, caption, label string, hl bool) {
	var lines []string
	if l.ch == 1 {
		if label != "" {
			caption = label
		}
		lines = []string{caption}
	} else {
		lines = []string{caption, label}
	}
	if hl {
		st = st.Reverse(true).Bold(true)
		_, _, w, _ := l.spotRect(s)
		for i, t := range lines {
			if len([]rune(t))+2 <= w {
				lines[i] = "[" + centre(t, w-2) + "]"
			}
		}
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
		for dx, r := range []rune(centre(t, w)) {
			scr.SetContent(x+dx, y+dy, r, nil, st)
		}
	}
}

// centre pads t to w runes, centred (leaning left), or cuts it.
func centre(t string, w int) string {
	r := []rune(t)
	if len(r) >= w {
		return string(r[:w])
	}
	left := (w - len(r)) / 2
	return strings.Repeat(" ", left) + t + strings.Repeat(" ", w-len(r)-left)
}
