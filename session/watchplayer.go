package session

import (
	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// serveWatchers starts serving game gid's log (past: the records a
// resumed game's log holds already) to the peers that watch it, their
// chat lines taken if allowChat (the creator's choice; a resumed game,
// which no lobby tells, takes them); the server of the game before
// stops, its watchers have had the end.
func (s *NetSession) serveWatchers(gid lockstep.GameID, past []lockstep.Record, allowChat bool) *watchServer {
	srv := newWatchServer(gid, allowChat, past)
	srv.cut = func(id peer.ID) {
		s.log.Warn("a watcher flooded or lied: cut off", "peer", p2p.ShortID(id))
		go p2p.ClosePeer(s.h, id)
	}
	srv.onWatcher = func(id peer.ID, name string) {
		s.log.Info("a watcher", "peer", p2p.ShortID(id), "name", name)
		go func() {
			s.q.push(ui.Notice{Msg: ui.M("note.watch.joined", name)})
			s.q.push(ui.Watching{Watchers: srv.Watchers()})
		}()
	}
	srv.onSay = func(_ peer.ID, name, text string) {
		s.q.push(ui.ChatLine{From: name + " (watching)", Colour: engine.NoColour, Text: text})
	}
	srv.onTake = s.admitNewcomer
	s.mu.Lock()
	old := s.serving
	s.serving = srv
	s.newcomers = nil
	s.mu.Unlock()
	if old != nil {
		old.close()
	}
	// The handler stays after the game, answering a watcher still behind,
	// until the next game's replaces it.
	p2p.ServeWatch(s.h, srv.answer)
	return srv
}

// Watchers are the names of the peers watching this player's game now.
func (s *NetSession) Watchers() []string {
	s.mu.Lock()
	srv := s.serving
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Watchers()
}

// WatchStats counts what this player's watch server did in its last game.
func (s *NetSession) WatchStats() WatchStats {
	s.mu.Lock()
	srv := s.serving
	s.mu.Unlock()
	if srv == nil {
		return WatchStats{}
	}
	return srv.Stats()
}

// runningNow is what this player says of its game while it plays it.
// free are the seats a bot flies for good now (botSeats, freeAfter): the
// running game lists them as its bots', the seats a newcomer may ask for.
func (s *NetSession) runningNow(setup lockstep.Setup, names map[peer.ID]string, st lockstep.State, srv *watchServer, free [engine.NumColours]bool) lobby.Running {
	s.mu.Lock()
	name := s.name
	s.mu.Unlock()
	r := lobby.Running{Lobby: setup.Name, Name: name, Game: setup.GameID(), Roll: st.Roll,
		Leader: leader(st.Pos), Watchers: len(srv.Watchers()), Chat: srv.allowChat}
	for _, seat := range setup.Seats {
		if seat.Colour < engine.NumColours && free[seat.Colour] {
			// A bot's seat, or a left player's (a bot flies it for good:
			// listed as the bots', a seat to take).
			bot := seat.Bot
			if bot == "" {
				bot = engine.BotKinds()[0]
			}
			r.Bots = append(r.Bots, lobby.RunningSeat{Name: bot, Colour: seat.Colour})
			continue
		}
		if seat.Player == "" {
			continue // taken by a newcomer: not listed as free
		}
		n := p2p.CleanName(names[seat.Player])
		if n == "" {
			n = shortID(seat.Player)
		}
		r.Players = append(r.Players, lobby.RunningSeat{ID: seat.Player, Name: n, Colour: seat.Colour})
	}
	return r
}

// botSeats are the seats the setup gives to bots.
func botSeats(setup lockstep.Setup) [engine.NumColours]bool {
	var b [engine.NumColours]bool
	for _, st := range setup.Seats {
		if st.Player == "" && st.Colour < engine.NumColours {
			b[st.Colour] = true
		}
	}
	return b
}

// freeAfter is free (the seats a bot flies for good) after evs: a player
// who left leaves its seat to a bot, a newcomer takes one.
func freeAfter(free [engine.NumColours]bool, evs []lockstep.Event) [engine.NumColours]bool {
	for _, e := range evs {
		if e.Colour >= engine.NumColours {
			continue
		}
		switch e.Kind {
		case lockstep.EventLeft:
			free[e.Colour] = true
		case lockstep.EventSeatTaken:
			free[e.Colour] = false
		}
	}
	return free
}

// leader is the colour ahead: the first finished, else the one whose
// planes have come furthest (NoColour before the first move).
func leader(pos engine.Position) engine.Colour {
	if o := pos.Order(); len(o) > 0 {
		return o[0]
	}
	best, at := engine.NoColour, 0
	for _, c := range pos.Colours() {
		sum := 0
		for i := range engine.PlanesPerColour {
			sum += int(pos.Plane(c, i)) + 2 // the hangar counts 0
		}
		if sum > at {
			best, at = c, sum
		}
	}
	return best
}

// advertPlaying says on mDNS that this player plays lobby setup.Name's
// game now, hosting no table and with no seat free: the lobby lists it
// as running (asking the player, lobby.QueryRunning) and nobody tries
// to join it.
func (s *NetSession) advertPlaying(setup lockstep.Setup) {
	if s.d == nil {
		return
	}
	s.mu.Lock()
	ad := p2p.Advert{Name: s.name, Lobby: setup.Name}
	s.mu.Unlock()
	if err := s.d.Update(ad); err != nil {
		s.log.Warn("advert update failed", "err", err)
	}
}
