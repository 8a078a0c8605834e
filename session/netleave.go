package session

import (
	"errors"
	"time"

	"aeroplane/lockstep"
	"aeroplane/ui"
)

// Leave implements ui.Leaver: this player leaves the running game for
// good. The game is marked closed in the data directory (left on
// purpose: the next start does not take the seat back) and Leave returns
// at once; the Leave is then signed through the driver (a bot flies the
// seat from the next roll on every peer), and the game keeps running,
// answering the others' resends, until every other player holds the
// Leave or LeaveWait passes (a player gone for good never says so).
// ui.LeaveDone, ahead of the paced events still queued, says that is over
// and the interface may close. A player alone with bots has nobody to
// tell: the game stops where it is, as an offline one does (signing the
// Leave would make the node play the bots' whole game first).
func (s *NetSession) Leave() error {
	if s.stopWatching() {
		return nil
	}
	g, err := s.game()
	if err != nil {
		return err
	}
	s.mu.Lock()
	gid := s.gameID
	s.mu.Unlock()
	if err := s.dir.MarkClosed(gid, "left on purpose"); err != nil {
		s.log.Warn("could not mark the game left", "err", err)
	}
	s.wg.Add(1)
	if len(g.tr.setup.Players()) == 1 {
		s.mu.Lock()
		if s.jobCancel != nil {
			s.jobCancel() // play returns; the owner goes back to idle
		}
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			<-g.done
			s.q.first(ui.LeaveDone{})
		}()
		return nil
	}
	go func() {
		defer s.wg.Done()
		s.leavePeople() // the program's people leave with it
		if err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.Leave() }); err != nil {
			s.log.Warn("leave not signed: the others see this player absent", "err", err)
		} else {
			s.awaitLeave(g)
		}
		s.q.first(ui.LeaveDone{})
	}()
	return nil
}

// awaitLeave returns once every other player holds this player's Leave,
// the game ends, the session closes or LeaveWait passes.
func (s *NetSession) awaitLeave(g gameRefs) {
	wait := s.opts.LeaveWait
	if wait <= 0 {
		wait = 3 * time.Second
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for {
		var delivered bool
		if err := g.sess.Do(func(n *lockstep.Node) error { delivered = n.LeaveDelivered(); return nil }); err != nil || delivered {
			s.log.Info("left the game", "delivered", delivered)
			return // delivered, or the game ended meanwhile
		}
		select {
		case <-poll.C:
		case <-g.done:
			return
		case <-s.ctx.Done():
			return
		case <-deadline.C:
			s.log.Info("left the game; not every player confirmed it", "waited", wait)
			return
		}
	}
}

// GoOn implements ui.GoOner: after a lone decision (ui.AloneDecision),
// go on with bots flying the missing seats until their players return.
func (s *NetSession) GoOn() error {
	err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.GoOn() })
	s.forPeople("go on", (*lockstep.Node).GoOn)
	if errors.Is(err, lockstep.ErrNoDecision) {
		return ui.Errorf("err.nobodymissing")
	}
	return err
}

// EndGame implements ui.GoOner: the lone player ends the game without
// waiting for the missing players. Its log stays on disk, marked closed
// as unfinished (the next start does not resume it), and the session is
// back in the lobby.
func (s *NetSession) EndGame() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errClosed
	case s.mode != modeGame || s.sess == nil || s.gameOver:
		return ui.Errorf("err.noend")
	}
	if err := s.dir.MarkClosed(s.gameID, "ended unfinished by a lone player"); err != nil {
		return ui.Errorf("err.endgame", err)
	}
	if s.jobCancel != nil {
		s.jobCancel() // play returns; the owner goes back to idle
	}
	go s.emitLobby()
	return nil
}
