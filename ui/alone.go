package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// asking: a question (leave, or the lone player's) is open, or this
// player is leaving: it takes every key.
func (u *UI) asking() bool { return u.confirm || u.askAlone || u.leaving || u.askPause }

// goOner is the session when it can answer the lone player's question.
func (u *UI) goOner() (GoOner, bool) {
	g, ok := u.sess.(GoOner)
	return g, ok
}

// canAskAlone: a lone decision is open but was put off ("keep waiting"):
// a key asks it again.
func (u *UI) canAskAlone() bool {
	_, ok := u.goOner()
	return ok && u.free() && u.inGame() && len(u.missing) > 0
}

// goOn and endAlone are the answers to the lone player's question; a
// refused one is shown as a notice and the question stays answered.
func (u *UI) goOn() {
	u.askAlone = false
	if g, ok := u.goOner(); ok {
		u.do("go on", g.GoOn)
	}
}

func (u *UI) endAlone() {
	u.askAlone = false
	g, ok := u.goOner()
	if !ok {
		return
	}
	u.do("end game", g.EndGame)
	if u.notice == "" {
		u.endGame()
		u.mode, u.table = modeLobby, nil
		u.addEvent(u.t("log.ended"))
	}
}

// endGame forgets the game on the board (a rematch's table or the lobby
// replaces it).
func (u *UI) endGame() {
	u.over, u.waiting, u.rolled, u.lastRoll, u.frames, u.flown = nil, nil, nil, nil, nil, nil
	u.hasPos, u.confirm, u.askAlone, u.missing = false, false, false, nil
	u.askPause, u.pauseSent = false, false
	u.gen++
	if u.overlay == overlayEnd {
		u.overlay = overlayNone
	}
}

// drawAlone asks, in a box over the board, whether to keep waiting for
// the missing players, go on without them, or end the game.
func (u *UI) drawAlone(scr tcell.Screen, w, h int) {
	bw := min(w, 64)
	inner := bw - 4
	if inner <= 0 || h < 3 {
		return
	}
	keys, _ := u.activeKeys()
	text := u.t("alone.text", strings.Join(u.missing, ", "))
	textLines := wrapAll([]string{text, ""}, inner)
	keyLines, at := packPlaced(keys, nil, inner)
	lines := append(textLines, keyLines...)
	bh := min(len(lines)+2, h)
	x, y := (w-bw)/2, max((h-bh)/2, 0)
	drawBox(scr, " "+u.t("alone.title")+" ", x, y, bw, bh)
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
