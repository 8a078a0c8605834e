package session

import (
	"errors"
	"slices"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// maxPausedShown bounds the saved games the lobby offers to continue.
const maxPausedShown = 8

// findPaused reads the games this player can continue another day
// (savegame.Dir.Paused: unfinished, ours, any age), for the lobby to
// offer while their other players are on the LAN.
func (s *NetSession) findPaused() {
	games, skipped := s.dir.Paused(s.self, "")
	for _, err := range skipped {
		s.log.Info("saved game", "err", err)
	}
	if len(games) > maxPausedShown {
		games = games[:maxPausedShown]
	}
	s.mu.Lock()
	s.paused = games
	s.mu.Unlock()
}

// continuable are the saved games to list (s.mu held): those with at
// least one other of their players advertised on the LAN now, and those
// this player played alone against bots, which need nobody else. A
// game's players are those holding a seat when it stopped
// (savegame.Saved.Players): a newcomer seated in it, not the bot or the
// player who left before it; a seat this player took as a newcomer is
// listed as the setup's players' are.
func (s *NetSession) continuable(ads []p2p.Advert) []ui.SavedGame {
	here := map[peer.ID]bool{}
	for _, ad := range ads {
		here[ad.ID] = true
	}
	var out []ui.SavedGame
	for _, g := range s.paused {
		players := g.Players
		alone := len(players) == 1 && players[0] == s.self
		if !alone && !slices.ContainsFunc(players, func(id peer.ID) bool { return id != s.self && here[id] }) {
			continue
		}
		out = append(out, ui.SavedGame{Lobby: g.Setup.Name, Roll: g.AtRoll(), Saved: g.At,
			Players: savedNames(players, s.dir.NamesBeside(g.Path), s.self, s.name)})
	}
	return out
}

// savedNames are a saved game's players as its lobby entry names them:
// this player by its name now, the others by the names saved beside the
// log, or by their short IDs.
func savedNames(players []peer.ID, names map[peer.ID]string, self peer.ID, selfName string) []string {
	out := make([]string, 0, len(players))
	for _, id := range players {
		n := names[id]
		if id == self {
			n = selfName
		}
		if n == "" {
			n = shortID(id)
		}
		out = append(out, n)
	}
	return out
}

// Pause implements ui.Pauser: the game being played is kept to continue
// another day when the player quits next (Close leaves it unmarked, no
// Leave is signed); the others see this player absent meanwhile, and its
// seat is a bot's until it continues.
func (s *NetSession) Pause() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mode != modeGame || s.sess == nil || s.gameOver {
		return ui.Errorf("err.nopause")
	}
	s.pausing = true
	s.log.Info("game paused: kept to continue another day", "game", s.gameID)
	return nil
}

// PauseTogether implements ui.TablePauser: this player asks to pause
// the game for everyone (lockstep's Pause). The others are asked
// (ui.PauseAsked); once every player paused (ui.GamePaused) the game's
// run ends, its log unfinished, and the lobby offers it to continue.
func (s *NetSession) PauseTogether() error {
	s.mu.Lock()
	ok := s.mode == modeGame && s.sess != nil && !s.gameOver
	s.mu.Unlock()
	if !ok {
		return ui.Errorf("err.nopause")
	}
	err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.Pause() })
	s.forPeople("pause", (*lockstep.Node).Pause)
	switch {
	case errors.Is(err, lockstep.ErrPaused):
		return nil // asked already
	case err != nil:
		return ui.Errorf("err.pausegame", err)
	}
	s.log.Info("asked the others to pause the game", "game", s.gameID)
	return nil
}

// PlayOn implements ui.TablePauser: this player lifts its request to
// pause (lockstep's Continue) and plays on.
func (s *NetSession) PlayOn() error {
	err := s.act(func(_ *Translator, n *lockstep.Node) error { return n.Continue() })
	s.forPeople("play on", (*lockstep.Node).Continue)
	switch {
	case errors.Is(err, lockstep.ErrNotPaused):
		return nil // lifted already
	case err != nil:
		return ui.Errorf("err.pausegame", err)
	}
	s.log.Info("lifted the request to pause", "game", s.gameID)
	return nil
}

// Continue implements ui.Continuer: it takes up the saved game of lobby
// from this player's log (Resume), with whoever of its players continues
// it too; the others' seats are flown by bots until they do.
func (s *NetSession) Continue(lobby string) error {
	s.mu.Lock()
	var g *savegame.Saved
	for _, p := range s.paused {
		if p.Setup.Name == lobby {
			g = p
			break
		}
	}
	s.mu.Unlock()
	if g == nil {
		return ui.Errorf("err.nocontinue", lobby)
	}
	if err := s.Resume(g); err != nil {
		return err
	}
	s.q.push(ui.Notice{Msg: ui.M("note.continuing", lobby, g.Rolls, g.At.Format("2006-01-02 15:04"))})
	return nil
}
