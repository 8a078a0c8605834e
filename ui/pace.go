package ui

import (
	"strconv"
	"strings"
	"time"
)

// paceSteps are the bots' paces the creator's p key goes through at the
// table, in order: each player's own (--bot-delay), then the same pace
// for every screen.
var paceSteps = []struct {
	delay time.Duration
	set   bool
}{{0, false}, {0, true}, {500 * time.Millisecond, true}, {time.Second, true}, {2 * time.Second, true}}

// paceSetter is the session when the creator sets the bots' pace.
func (u *UI) paceSetter() (PaceSetter, bool) {
	p, ok := u.sess.(PaceSetter)
	return p, ok
}

// settingPace: the creator of a table being set up may set the bots' pace.
func (u *UI) settingPace() bool {
	_, ok := u.paceSetter()
	return ok && u.hostSetup()
}

// nextPace asks for the step after the table's pace (the first step
// after a pace not among them).
func (u *UI) nextPace() {
	p, ok := u.paceSetter()
	if !ok || u.table == nil {
		return
	}
	next := paceSteps[0]
	for i, s := range paceSteps {
		if s.set == u.table.BotPaceSet && (!s.set || s.delay == u.table.BotPace) {
			next = paceSteps[(i+1)%len(paceSteps)]
		}
	}
	u.do("bots' pace", func() error { return p.SetBotPace(next.delay, next.set) })
}

// paceLine is the table's bots' pace, for everyone at it; key is the key
// that changes it, for its creator ("" for the others).
func (u *UI) paceLine(t *TableUpdate, key string) string {
	var v string
	switch {
	case !t.BotPaceSet:
		v = u.t("pace.own")
	case t.BotPace <= 0:
		v = u.t("pace.instant")
	default:
		secs := strconv.FormatFloat(t.BotPace.Seconds(), 'f', -1, 64)
		v = u.t("pace.secs", strings.Replace(secs, ".", u.t("pace.point"), 1))
	}
	s := u.t("table.pace", v)
	if key != "" {
		s = "  [::b]" + key + "[::-] " + s
	}
	return s
}
