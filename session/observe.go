package session

import (
	"errors"

	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/peer"
)

// GameInfo is one game of a NetSession as an Observer sees it.
type GameInfo struct {
	Setup   lockstep.Setup
	Log     string // its log's path
	Resumed bool   // taken up from its log after a restart
	Records int    // records read back from the log (Resumed)
	// People are the seats of this program's people beside its own
	// (hot seat), each with its node's own log.
	People []PersonSeat
}

// PersonSeat is the seat of one more person of this program in a game.
type PersonSeat struct {
	Name string
	Seat peer.ID
	Log  string // its node's log (savegame.Dir.SeatLogPath)
}

// Observer sees every game a NetSession plays, beside the screen's
// events: a front end without a screen (`aeroplane --headless`) prints
// its lines from it and answers the choices itself. Every field may be
// nil. Started and Ended run on the session's owner goroutine and Ready on
// the game's driver goroutine, so none of them may block on the session:
// a choice made from Ready is made with Choose on another goroutine.
type Observer struct {
	// Started is called once a game's files are written, before its
	// first frame is sent; an error stops the game before it begins
	// (Ended is called with it).
	Started func(GameInfo) error
	// Ready is called with each lockstep.Ready of the game, after the
	// screen's events for it are queued.
	Ready func(GameInfo, lockstep.Ready)
	// Chat is called with each chat line another player sent, as p2p
	// received it (its sender a peer ID), besides the screen's ChatLine.
	Chat func(p2p.ChatLine)
	// Ended is called when a lobby or a game the session took up ends by
	// itself (never when the player left it): with the game's final
	// state, or with info nil and the error that ended the lobby.
	Ended func(info *GameInfo, st lockstep.State, err error)
}

// Enter looks for the lobby cfg.Lobby and joins it, or creates it after
// cfg.FindFor with cfg's seats, bots and rules, as `--headless` does;
// without cfg.ManualReady this player is ready by itself. cfg.Player,
// Connect, Control, StartNow, OnChat and Logger are the session's.
func (s *NetSession) Enter(cfg lobby.Config) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leaveLobby()
	if err := s.idle(); err != nil {
		return err
	}
	s.launch(lobbyPlan{hosting: cfg.Create, cfg: cfg})
	return nil
}

// Resume takes up g, a game a crash cut short (savegame.Find), when the
// session was started with NetOptions.NoResume.
func (s *NetSession) Resume(g *savegame.Saved) error {
	if g == nil {
		return errors.New("no game to resume")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.idle(); err != nil {
		return err
	}
	s.launch(lobbyPlan{resume: g})
	return nil
}
