package ui

import (
	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// pathKind is what a spot is on a move's path. The board marks the way a
// plane takes the same before the move (the selected one) and after it
// (the move just played, until the next roll): in brackets where it ends,
// in parentheses where it starts, dots on the squares it passes over and
// on both sides of a stop where a jump or a flight takes it on. Where a
// spot is on the path twice (a bounce at the centre), the later kind in
// this order wins.
type pathKind uint8

const (
	pathNone pathKind = iota
	pathStep          // passed over by a step of the roll
	pathFrom          // where the moving plane or stack stands (stood)
	pathStop          // where the roll ended, or a jump landed, before it went on
	pathEnd           // where the move ends
)

// pathDot marks a square passed over.
const pathDot = "·"

// decorate marks a whole spot's lines, in a spot w cells wide, as kind
// k: the text is framed where it fits, and the style tells the kinds
// apart where it does not.
func (k pathKind) decorate(st tcell.Style, lines []string, w int) (tcell.Style, []string) {
	out := make([]string, len(lines))
	for i, t := range lines {
		out[i] = t
		if n := len([]rune(t)); n > 0 && n+2 <= w {
			out[i] = k.frame(t, whole)
		}
	}
	return k.style(st), out
}

// frame is t framed as kind k; on half a corner square only the frame's
// outer side is drawn.
func (k pathKind) frame(t string, h half) string {
	open, close := "", ""
	switch k {
	case pathEnd:
		open, close = "[", "]"
	case pathFrom:
		open, close = "(", ")"
	case pathStop:
		open, close = pathDot, pathDot
	}
	switch h {
	case leftHalf:
		return open + t
	case rightHalf:
		return t + close
	}
	return open + t + close
}

func (k pathKind) style(st tcell.Style) tcell.Style {
	switch k {
	case pathEnd:
		return st.Reverse(true).Bold(true)
	case pathFrom:
		return st.Reverse(true)
	case pathStop:
		return st.Underline(true).Bold(true)
	case pathStep:
		return st.Underline(true)
	}
	return st
}

// pathOf is the board's marks for the way of a move of colour c that
// res tells: from where its group stands, every place of res.Path, and
// its end. A pass or a penalty has no path.
func pathOf(c engine.Colour, res engine.Result) map[trackSpot]pathKind {
	steps := res.Path()
	if len(steps) == 0 || c >= engine.NumColours {
		return nil
	}
	out := map[trackSpot]pathKind{}
	mark := func(s trackSpot, k pathKind) { out[s] = max(out[s], k) }
	if res.From == engine.Hangar {
		mark(trackSpot{cell: board.hangar[c][res.Move.Plane&(engine.PlanesPerColour-1)]}, pathFrom)
	} else if s, ok := board.placeSpot(c, res.From); ok {
		mark(s, pathFrom)
	}
	if res.FlyTo >= 0 {
		// The flight follows the dashed line, over the opposite colour's
		// crossing square.
		for _, d := range board.dashes[c] {
			mark(trackSpot{cell: d}, pathStep)
		}
		mark(trackSpot{cell: board.home[c.Opposite()][engine.CrossingHome-engine.TrackEnd]}, pathStep)
	}
	for i, st := range steps {
		s, ok := board.placeSpot(c, st.Place)
		if !ok {
			continue
		}
		k := pathStep
		switch {
		case i == len(steps)-1:
			k = pathEnd
		case st.Leap || steps[i+1].Leap:
			k = pathStop
		}
		mark(s, k)
	}
	return out
}
