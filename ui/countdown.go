package ui

import (
	"time"

	"aeroplane/engine"
)

// countdown is an automatic roll on its way (RollCountdown): the turn line
// says in how many seconds it comes, and a tick redraws it each second.
// It ends with the roll, a move, or anything else that changes the turn.
type countdown struct {
	colour engine.Colour
	you    bool
	until  time.Time
	gen    uint64 // bumps when the countdown is replaced, so stale ticks do nothing
}

func (u *UI) clock() time.Time {
	if u.now != nil {
		return u.now()
	}
	return time.Now()
}

func (u *UI) startCountdown(e RollCountdown) {
	if e.Colour >= engine.NumColours || e.In <= 0 || !u.inGame() {
		return
	}
	u.cd.gen++
	u.cd.colour, u.cd.you, u.cd.until = e.Colour, e.You, u.clock().Add(e.In)
	u.tick(u.cd.gen)
}

func (u *UI) stopCountdown() {
	u.cd.gen++
	u.cd.until = time.Time{}
}

// tick redraws at the next whole second left, while the countdown runs.
func (u *UI) tick(gen uint64) {
	left := u.cd.until.Sub(u.clock())
	if u.after == nil || left <= 0 {
		return
	}
	next := left % time.Second
	if next == 0 {
		next = time.Second
	}
	u.after(next, func() {
		if gen == u.cd.gen {
			u.tick(gen)
		}
	})
}

// countdownLine is the turn line's countdown, or "" when none runs.
func (u *UI) countdownLine() string {
	if u.cd.until.IsZero() || u.over != nil {
		return ""
	}
	left := u.cd.until.Sub(u.clock())
	secs := max(int((left+time.Second-1)/time.Second), 0)
	if u.cd.you {
		return "[yellow::b]" + u.t("turn.autoroll.you", secs) + "[-::-]"
	}
	return u.t("turn.autoroll", u.tagged(u.cd.colour), secs)
}
