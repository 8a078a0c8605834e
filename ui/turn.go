package ui

import "github.com/gdamore/tcell/v2"

// turnSignal rings the terminal's bell when it becomes this player's turn
// to roll or to choose: once per turn, not again for the choice after the
// player's own roll nor for a six's extra roll, since the player is
// already at the keys then. The bell is on unless the player turns it off.
type turnSignal struct {
	mine    bool // the last event asked this player to act
	pending bool // ring at the next draw
	off     bool
}

// saw takes whether the latest turn event asks this player to act.
func (s *turnSignal) saw(yours bool) {
	if yours && !s.mine && !s.off {
		s.pending = true
	}
	if !yours {
		s.pending = false
	}
	s.mine = yours
}

// ring beeps once for a pending signal.
func (s *turnSignal) ring(scr tcell.Screen) {
	if s.pending {
		s.pending = false
		_ = scr.Beep() // a terminal without a bell shows the highlight alone
	}
}

func (u *UI) toggleBell() {
	u.turn.off = !u.turn.off
	u.turn.pending = false
	if u.turn.off {
		u.notice = u.t("notice.belloff")
	} else {
		u.notice = u.t("notice.bellon")
	}
}

// yourTurnStyle marks the turn panel's line that asks this player to act.
const yourTurnStyle = "[black:yellow:b]"
