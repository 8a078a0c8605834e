package ui

// Pausing the game for everyone (TablePauser): p asks "pause the game
// for everyone?"; on yes the session asks the others, whose screens say
// so (PauseAsked) until they press p too. Once every player paused, a
// GamePaused ends the game on every screen and the lobby offers it to
// continue another day.

// tablePauser is the session when it can pause the game for everyone.
func (u *UI) tablePauser() (TablePauser, bool) {
	p, ok := u.sess.(TablePauser)
	return p, ok
}

// canAskPause: p opens the pause question in a game this player has not
// asked to pause yet.
func (u *UI) canAskPause() bool {
	_, ok := u.tablePauser()
	return ok && u.free() && u.inGame() && !u.pauseSent
}

// pauseTogether is the confirmed answer: the others are asked.
func (u *UI) pauseTogether() {
	u.askPause = false
	p, ok := u.tablePauser()
	if !ok {
		return
	}
	u.do("pause", p.PauseTogether)
	if u.notice == "" {
		u.pauseSent = true
		u.addEvent("[yellow]" + u.t("log.pausesent") + "[-]")
	}
}

// canPlayOn: this player asked to pause and the game is not paused yet
// (the others play on): p lifts the request.
func (u *UI) canPlayOn() bool {
	_, ok := u.tablePauser()
	return ok && u.free() && u.inGame() && u.pauseSent
}

// playOn lifts this player's request to pause.
func (u *UI) playOn() {
	p, ok := u.tablePauser()
	if !ok {
		return
	}
	u.do("play on", p.PlayOn)
	if u.notice == "" {
		u.pauseSent = false
		u.addEvent(u.t("log.playon"))
	}
}

// applyPause takes the pause events.
func (u *UI) applyPause(e Event) {
	switch e := e.(type) {
	case PauseAsked:
		if !u.inGame() {
			return
		}
		key := "log.pauseasked"
		if u.pauseSent {
			key = "log.pausedtoo"
		}
		u.addEvent("[yellow]" + u.t(key, clean(e.Name, maxName)) + "[-]")
	case PauseLifted:
		if u.inGame() {
			u.addEvent(u.t("log.pauselifted", clean(e.Name, maxName)))
		}
	case GamePaused:
		key := "log.paused"
		if w := u.watch; w != nil && w.Lobby != "" {
			// A watcher holds no seat: nothing for it to continue.
			key = "log.watchpaused"
		}
		u.endGame()
		u.mode, u.table = modeLobby, nil
		u.addEvent("[yellow::b]" + u.t(key, e.Roll) + "[-::-]")
		u.notice = u.t(key, e.Roll) // the lobby says it too
	}
}
