package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// scrolling is where the two long lists stand: the event log, shown from
// its end, and the lobby, shown from its top. The draw that shows them
// says whether they overflow, so that the key lines offer their keys only
// then (Draw repeats itself once when that changes).
type scrolling struct {
	logBack   int  // wrapped event lines hidden below the shown ones
	logRoom   int  // event lines shown in the last draw
	logWidth  int  // width the events were wrapped to in the last draw
	logOver   bool // the events did not all fit
	lobbyTop  int  // first wrapped lobby line shown
	lobbyRoom int
	lobbyOver bool
}

// historyKeys scroll the event log a page at a time; Home goes to its
// start, End back to the newest events.
func (u *UI) scrollHistory(ev *tcell.EventKey) {
	page := max(u.sc.logRoom-1, 1)
	switch ev.Key() {
	case tcell.KeyPgUp:
		u.sc.logBack += page
	case tcell.KeyPgDn:
		u.sc.logBack = max(u.sc.logBack-page, 0)
	case tcell.KeyHome:
		u.sc.logBack = 1 << 30 // clamped when drawn
	case tcell.KeyEnd:
		u.sc.logBack = 0
	}
}

func (u *UI) scrollLobby(ev *tcell.EventKey) {
	page := max(u.sc.lobbyRoom-1, 1)
	d := map[tcell.Key]int{tcell.KeyUp: -1, tcell.KeyDown: 1, tcell.KeyPgUp: -page, tcell.KeyPgDn: page}[ev.Key()]
	u.sc.lobbyTop = max(u.sc.lobbyTop+d, 0)
}

// logAdded keeps a scrolled-back log where it is when an event arrives.
func (u *UI) logAdded(s string) {
	if u.sc.logBack > 0 && u.sc.logWidth > 0 {
		u.sc.logBack += max(len(tview.WordWrap(s, u.sc.logWidth)), 1)
	}
}

// drawLog draws the event log in a titled panel, from its end or as far
// back as the player scrolled; the title says when there is more above or
// below.
func (u *UI) drawLog(scr tcell.Screen, x, y, w, h int) {
	if h <= 0 || w <= 0 {
		return
	}
	lines := wrapAll(u.events, w)
	room := h - 1
	u.sc.logRoom, u.sc.logWidth = room, w
	u.sc.logOver = len(lines) > room
	u.sc.logBack = min(u.sc.logBack, max(len(lines)-room, 0))
	end := len(lines) - u.sc.logBack
	start := max(end-room, 0)
	title := "[::bu]" + u.t("panel.log") + "[::-]"
	if start > 0 {
		title += " ↑"
	}
	if u.sc.logBack > 0 {
		title += " ↓ [::d]" + u.t("history.newer", u.sc.logBack) + "[::-]"
	}
	printLine(scr, x, y, w, title)
	for i, l := range lines[start:end] {
		printLine(scr, x, y+1+i, w, l)
	}
}

// drawScrolled draws lines from the lobby's scroll position, with an
// arrow in the right margin where there is more above or below; a line
// with an action (acts, by line) is clickable where it is shown.
func (u *UI) drawScrolled(scr tcell.Screen, x, y, w, h int, lines []string, acts []func()) {
	if h <= 0 || w <= 0 {
		return
	}
	lines, acts = wrapActs(lines, acts, w)
	u.sc.lobbyRoom = h
	u.sc.lobbyOver = len(lines) > h
	u.sc.lobbyTop = min(u.sc.lobbyTop, max(len(lines)-h, 0))
	top := u.sc.lobbyTop
	for i := 0; i < h && top+i < len(lines); i++ {
		printLine(scr, x, y+i, w, lines[top+i])
		u.addHit(x, y+i, w, acts[top+i])
	}
	if top > 0 {
		printLine(scr, x+w, y, 1, "↑")
	}
	if top+h < len(lines) {
		printLine(scr, x+w, y+h-1, 1, "↓")
	}
}
