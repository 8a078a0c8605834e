package session

import (
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// webMove takes a browser's statement moving its seat of the running game
// to this program (its serving program is gone: seatmove.go). Refused, it
// changes nothing: the browser waits for a setup that never comes and
// dials again.
func (s *NetSession) webMove(w *webSeat, stmt []byte) {
	s.mu.Lock()
	g := s.sess
	s.mu.Unlock()
	if g == nil {
		s.log.Info("web: a seat move with no game running refused", "peer", p2p.ShortID(w.id))
		return
	}
	if err := g.MoveSeatHere(w.id, stmt); err != nil {
		s.log.Info("web: a browser's seat move refused", "peer", p2p.ShortID(w.id), "err", err)
		return
	}
	s.log.Info("web: a browser player's seat moved here", "peer", p2p.ShortID(w.id))
}

// seatMoved is GameConfig.OnSeatMoved: the seat hosts and the
// statements that moved them, beside the game's log, so that a program
// resumed after a crash routes the seats as they are now; and the screen
// says who plays through which laptop now.
func (s *NetSession) seatMoved(setup lockstep.Setup) func(SeatMoved) {
	return func(mv SeatMoved) {
		if err := s.dir.SaveSeatHosts(setup, mv.Hosts); err != nil {
			s.log.Warn("seat hosts not saved: a resumed game routes a moved web player as before", "err", err)
		}
		if err := s.dir.SaveSeatMoves(setup.GameID(), mv.Statements); err != nil {
			s.log.Warn("seat moves not saved: a resumed game forgets their counters", "err", err)
		}
		if mv.From == mv.To {
			return // a browser back at its own host: nothing moved
		}
		s.mu.Lock()
		who, host := s.playerName(mv.Seat), s.playerName(mv.To)
		s.mu.Unlock()
		if mv.To == s.self {
			s.q.push(ui.Notice{Msg: ui.M("note.seat.movedhere", who)})
		} else {
			s.q.push(ui.Notice{Msg: ui.M("note.seat.moved", who, host)})
		}
	}
}

// playerName is a player's name as this program knows it, else a short
// ID; s.mu is held.
func (s *NetSession) playerName(id peer.ID) string {
	if n := s.nameOf(id); n != "" {
		return n
	}
	return shortID(id)
}
