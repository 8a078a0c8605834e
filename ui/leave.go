package ui

import (
	"github.com/gdamore/tcell/v2"
)

// drawQuestion shows, in a box over whatever is on the screen (also the
// too-small one), the question (or state) of catalog keys title and text
// with the keys that answer it: whether to leave the running game for
// good, or that this player is leaving.
func (u *UI) drawQuestion(scr tcell.Screen, w, h int, title, text string) {
	bw := min(w, 64)
	inner := bw - 4
	if inner <= 0 || h < 3 {
		return
	}
	keys, _ := u.activeKeys()
	body := wrapAll([]string{u.t(text), ""}, inner)
	keyLines, at := packPlaced(keys, nil, inner)
	lines := append(body, keyLines...)
	bh := min(len(lines)+2, h)
	x, y := (w-bw)/2, max((h-bh)/2, 0)
	drawBox(scr, " "+u.t(title)+" ", x, y, bw, bh)
	for i := 0; i < bh-2 && i < len(lines); i++ {
		printLine(scr, x+2, y+1+i, inner, lines[i])
	}
	// Its answers are buttons, where the box shows them.
	first := len(lines) - len(keyLines)
	for _, p := range at {
		if first+p.line < bh-2 {
			u.keyHits(x+2, y+1+first, []placed{p})
		}
	}
}
