package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// hit is a clickable stretch of one screen row, found by the last draw,
// and what a click there does. Every action checks that it still makes
// sense (the same test as its key), so a click under an overlay or an
// open question does nothing.
type hit struct {
	x, y, w int
	do      func()
}

func (u *UI) addHit(x, y, w int, do func()) {
	if w > 0 && do != nil {
		u.layout.hits = append(u.layout.hits, hit{x, y, w, do})
	}
}

// keyHits makes each key of packed key lines drawn from (x, y) a button:
// a click does what the key does.
func (u *UI) keyHits(x, y int, at []placed) {
	for _, p := range at {
		text := p.text
		u.addHit(x+p.x, y+p.line, p.width, func() { u.clickKey(text) })
	}
}

// A key whose label is a range (1-9) names no one thing to do: the
// entries it picks from (moves, games, rule lines) are the buttons.
var rangeKeys = map[string]bool{"key.choose": true, "key.join": true, "key.tablerule": true}

// clickKey runs the active binding written as text, as if its key was
// pressed.
func (u *UI) clickKey(text string) {
	for i := range keyTable {
		b := &keyTable[i]
		if b.label == "" || rangeKeys[b.help] || !b.active(u) || u.keyText(b) != text {
			continue
		}
		ev := tcell.NewEventKey(tcell.KeyRune, 0, tcell.ModNone)
		if len(b.keys) > 0 {
			ev = tcell.NewEventKey(b.keys[0], 0, tcell.ModNone)
		} else if b.runes != "" {
			ev = tcell.NewEventKey(tcell.KeyRune, []rune(b.runes)[0], tcell.ModNone)
		}
		b.do(u, ev)
		return
	}
}

// linesHits makes rows y, y+1, … of wrapped lines clickable where their
// action is not nil, across w cells from x.
func (u *UI) linesHits(x, y, w int, acts []func()) {
	for i, a := range acts {
		u.addHit(x, y+i, w, a)
	}
}

// wrapActs word-wraps lines to w cells like wrapAll, each wrapped line
// keeping the action of the line it came from.
func wrapActs(lines []string, acts []func(), w int) ([]string, []func()) {
	var out []string
	var outActs []func()
	for i, l := range lines {
		ws := wrapAll([]string{l}, w)
		out = append(out, ws...)
		for range ws {
			var a func()
			if i < len(acts) {
				a = acts[i]
			}
			outActs = append(outActs, a)
		}
	}
	return out, outActs
}

// HandleMouse runs what a left click on the screen does: a key on the key
// lines or in a question's box, a move in the list, the roll line, a game
// in the lobby, a seat at the table, or a plane on the board (its move).
// A double click is two clicks (tview reports the second one so, wherever
// it lands).
func (u *UI) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if action != tview.MouseLeftClick && action != tview.MouseLeftDoubleClick {
		return false
	}
	defer u.syncWeb()
	x, y := ev.Position()
	// The last drawn is on top: a question's box over the board.
	for i := len(u.layout.hits) - 1; i >= 0; i-- {
		if h := u.layout.hits[i]; y == h.y && x >= h.x && x < h.x+h.w {
			h.do()
			return true
		}
	}
	if !u.layout.hasBoard || !u.free() {
		return false
	}
	s, ok := u.layout.board.spotAt(x, y)
	if !ok {
		return false
	}
	u.chooseAt(s, s.cell)
	return true
}
