package session

import (
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// An offline game is paused and continued another day as a LAN game is
// (continue.go), with the same lobby entries and the same files' rules
// (savegame.Dir.CreateLocalGame, PausedLocal): every seat's node pauses
// (lockstep's Pause), each driver's run ends with its log unfinished, and
// the lobby offers the game, at any age, until it is continued (every
// node restored from the one log, each person's with its own seat key
// and dice secret), left or played to its end.

// localResume is a saved offline game being taken up: its log, opened
// to write on, and the records already in it.
type localResume struct {
	saved   *savegame.LocalSaved
	log     *savegame.Log
	records []lockstep.Record
}

// close gives up a resume that did not start (nil: a new game).
func (r *localResume) close() {
	if r != nil && r.log != nil {
		r.log.Close()
	}
}

// newLocalNode is a seat's node: new, or restored from its own log's
// records (a continued game).
func newLocalNode(cfg lockstep.Config, records []lockstep.Record) (*lockstep.Node, error) {
	if len(records) == 0 {
		return lockstep.NewNode(cfg)
	}
	return lockstep.Restore(cfg, records)
}

// history is what the screen shows first of a continued game (nothing
// for a new one): the game so far, each translator set at its position
// before its driver runs.
func (r *localResume) history(setup lockstep.Setup, names map[peer.ID]string, tr *Translator, hot []*hotSeat) []ui.Event {
	if r == nil || len(r.records) < 2 {
		return nil
	}
	hist, pos, ok := History(setup, names, r.records)
	if !ok {
		return nil
	}
	tr.ResumeAt(pos)
	for _, h := range hot {
		h.tr.ResumeAt(pos)
	}
	return append(hist, ui.Resuming{On: true}) // until the translator's EventRecovered
}

// findLocalPaused reads the offline games this player can continue; s.mu
// is held.
func (s *LocalSession) findLocalPaused() {
	if s.dir == nil {
		return
	}
	games, skipped := s.dir.PausedLocal(s.self)
	for _, err := range skipped {
		s.opts.Logger.Info("saved game", "err", err)
	}
	if len(games) > maxPausedShown {
		games = games[:maxPausedShown]
	}
	s.saved = games
}

// continuable are the lobby's entries of s.saved (s.mu held), keyed by
// game ID: every offline game is named "local", and every player of one
// is at this program, so none waits for anybody.
func (s *LocalSession) continuable() []ui.SavedGame {
	var out []ui.SavedGame
	for _, g := range s.saved {
		out = append(out, ui.SavedGame{Lobby: g.Setup.GameID().String(), Roll: g.AtRoll(), Saved: g.At,
			Players: savedNames(g.Setup.Players(), g.Names, s.self, s.name)})
	}
	return out
}

// runEnded runs once a game's run has ended and its log is closed: the
// lobby's list of games to continue is read again (a paused game is on
// it, one played to its end or left is not).
func (s *LocalSession) runEnded(paused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if paused {
		s.opts.Logger.Info("local game paused: kept to continue another day", "game", s.gid)
	}
	s.findLocalPaused()
	s.emitLobby()
}

// PauseTogether implements ui.TablePauser. Every player of an offline
// game is at this screen, so the one answer pauses every seat's node at
// once: the game is paused (ui.GamePaused) as soon as the nodes have
// agreed it, its run ends with its log unfinished, and the lobby offers
// it to continue.
func (s *LocalSession) PauseTogether() error {
	s.mu.Lock()
	ok := s.playing() && !s.closed
	drv, hot := s.drv, s.hot
	s.mu.Unlock()
	if !ok {
		return ui.Errorf("err.nopause")
	}
	pause := func(n *lockstep.Node) error {
		if err := n.Pause(); err != nil && !errors.Is(err, lockstep.ErrPaused) {
			return err
		}
		return nil
	}
	if err := drv.Do(pause); err != nil {
		return ui.Errorf("err.pausegame", err)
	}
	for _, h := range hot {
		if err := h.drv.Do(pause); err != nil {
			return ui.Errorf("err.pausegame", err)
		}
	}
	s.opts.Logger.Info("pausing the local game for everyone here", "game", s.gid)
	return nil
}

// dropPauseAsks leaves out the pause requests of the seats here: they
// come from the one answer PauseTogether gave for all of them, and no
// person here has anything to answer to them.
func dropPauseAsks(evs []ui.Event) []ui.Event {
	out := evs[:0:0]
	for _, e := range evs {
		switch e.(type) {
		case ui.PauseAsked, ui.PauseLifted:
			continue
		}
		out = append(out, e)
	}
	return out
}

// PlayOn implements ui.TablePauser. PauseTogether pauses every seat at
// once, so no request of one person waits for another to be lifted: the
// game is paused by the time the screen could ask, and PlayOn does
// nothing (it refuses nothing either: the screen may ask in that moment).
func (s *LocalSession) PlayOn() error { return nil }

// Continue implements ui.Continuer: key is the game ID the lobby's entry
// gave (continuable). The game is read again from its log and taken up
// with its seats, people and bots as they were; a log that changed since
// the lobby listed it, or a seat whose person's key is not the one that
// played it, is refused with the reason.
func (s *LocalSession) Continue(key string) error {
	s.mu.Lock()
	var err error
	switch {
	case s.closed:
		err = errClosed
	case s.playing():
		err = errGameOn
	default:
		err = s.continueLocked(key)
	}
	s.mu.Unlock()
	return s.started(err)
}

// continueLocked seats the saved game key and runs it; s.mu is held.
func (s *LocalSession) continueLocked(key string) error {
	s.findLocalPaused() // the lobby's list may be stale: the disk says
	var g *savegame.LocalSaved
	for _, p := range s.saved {
		if p.Setup.GameID().String() == key {
			g = p
		}
	}
	if g == nil {
		s.emitLobby()
		return ui.Errorf("err.nocontinue", key)
	}
	t, keys, err := s.savedTable(g)
	if err != nil {
		return ui.Errorf("err.continuegame", err)
	}
	game, err := s.dir.Resume(&g.Saved)
	if err != nil {
		return ui.Errorf("err.continuegame", err)
	}
	for id, k := range keys {
		s.keys[id] = k
	}
	s.table, s.rules = t, g.Setup.Rules
	s.q.push(*t)
	if err := s.run(g.Setup, &localResume{saved: g, log: game.Log, records: game.Records}); err != nil {
		return err
	}
	s.q.push(ui.Notice{Msg: ui.M("note.continuing", g.Setup.Name, g.Rolls, g.At.Format("2006-01-02 15:04"))})
	return nil
}

// savedTable is the table of saved game g, with the seat key of each
// person here but the first player: the first seat is this session's
// own, each other person's the seat key of the name it played under.
func (s *LocalSession) savedTable(g *savegame.LocalSaved) (*ui.TableUpdate, map[peer.ID]crypto.PrivKey, error) {
	t := &ui.TableUpdate{GameID: "local", Offline: true, Host: true, Rules: g.Setup.Rules}
	keys := map[peer.ID]crypto.PrivKey{}
	for _, st := range g.Setup.Seats {
		if st.Colour >= engine.NumColours {
			return nil, nil, fmt.Errorf("seat colour %d", st.Colour)
		}
		switch {
		case st.Player == "":
			t.Seats[st.Colour] = ui.Seat{Kind: ui.SeatBot, Name: st.Bot, Present: true, Ready: true}
		case st.Player == s.self:
			if st.Colour != localSeat {
				return nil, nil, fmt.Errorf("this player played %s there, not the first seat", st.Colour)
			}
			t.Seats[st.Colour] = ui.Seat{Kind: ui.SeatHuman, Name: s.name, PeerID: s.self.String(), You: true, Present: true}
		default:
			name := g.Names[st.Player]
			if name == "" {
				return nil, nil, fmt.Errorf("the name of the person at %s was not saved", st.Colour)
			}
			k, err := s.dir.SeatKey(name)
			if err != nil {
				return nil, nil, err
			}
			if !peerOf(k, st.Player) {
				return nil, nil, fmt.Errorf("the seat key of %q here is not the one that played %s", name, st.Colour)
			}
			keys[st.Player] = k
			t.Seats[st.Colour] = ui.Seat{Kind: ui.SeatHuman, Name: name, PeerID: st.Player.String(), You: true, Present: true}
		}
	}
	return t, keys, nil
}

var (
	_ ui.TablePauser = (*LocalSession)(nil)
	_ ui.Continuer   = (*LocalSession)(nil)
)
