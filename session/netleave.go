package session

import (
	"errors"
	"fmt"
	"time"

	"aeroplane/lockstep"
)

// Leave implements ui.Leaver: this player leaves the running game for
// good. The Leave is signed through the driver (a bot flies the seat from
// the next roll on every peer), the game is marked closed in the data
// directory (left on purpose: the next start does not take the seat
// back), and the game keeps running, answering the others' resends, until
// every other player holds the Leave or LeaveWait passes (a player gone
// for good never says so). Close goes on from there as without it.
func (s *NetSession) Leave() error {
	if s.stopWatching() {
		return nil
	}
	g, err := s.game()
	if err != nil {
		return err
	}
	if err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.Leave() }); err != nil {
		return fmt.Errorf("leaving the game: %w (quitting still leaves it: the others see you absent)", err)
	}
	s.mu.Lock()
	gid := s.gameID
	s.mu.Unlock()
	if err := s.dir.MarkClosed(gid, "left on purpose"); err != nil {
		s.log.Warn("could not mark the game left", "err", err)
	}
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
			return nil // delivered, or the game ended meanwhile
		}
		select {
		case <-poll.C:
		case <-g.done:
			return nil
		case <-deadline.C:
			s.log.Info("left the game; not every player confirmed it", "waited", wait)
			return nil
		}
	}
}

// GoOn implements ui.GoOner: after a lone decision (ui.AloneDecision),
// go on with bots flying the missing seats until their players return.
func (s *NetSession) GoOn() error {
	err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.GoOn() })
	if errors.Is(err, lockstep.ErrNoDecision) {
		return errors.New("nobody is missing any more: the game goes on")
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
		return errors.New("no game is on to end")
	}
	if err := s.dir.MarkClosed(s.gameID, "ended unfinished by a lone player"); err != nil {
		return fmt.Errorf("ending the game: %w (its log is still on disk)", err)
	}
	if s.jobCancel != nil {
		s.jobCancel() // play returns; the owner goes back to idle
	}
	go s.emitLobby()
	return nil
}
