package session

import (
	"slices"
	"strings"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// DefaultSetupWait is how long a game waits in its setup for every
// player's Confirm: far longer than a LAN needs (a Confirm is one message
// each way), short enough that a table held by someone who never confirms
// is back within half a minute.
const DefaultSetupWait = 20 * time.Second

func (s *NetSession) setupWait() time.Duration {
	if s.opts.SetupWait != 0 {
		return s.opts.SetupWait
	}
	return DefaultSetupWait
}

// setupWatch abandons a game still in its setup after a while: it cancels
// the game and remembers who never confirmed.
type setupWatch struct {
	mu      sync.Mutex
	begun   bool      // the game left its setup: the watch is over
	waiting []peer.ID // who the setup waits for, as last seen
	fired   bool
	timer   *time.Timer
}

func newSetupWatch(wait time.Duration, cancel func()) *setupWatch {
	w := &setupWatch{}
	if wait < 0 {
		return w
	}
	w.timer = time.AfterFunc(wait, func() {
		w.mu.Lock()
		fire := !w.begun
		w.fired = fire
		w.mu.Unlock()
		if fire {
			cancel()
		}
	})
	return w
}

// saw follows the game's state (on the driver's goroutine).
func (w *setupWatch) saw(st lockstep.State) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if st.Phase != lockstep.PhaseSetup {
		w.begun = true
		return
	}
	w.waiting = append(w.waiting[:0], st.Awaiting...)
}

func (w *setupWatch) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// timedOut reports whether the watch abandoned the game, and who the
// setup was still waiting for.
func (w *setupWatch) timedOut() ([]peer.ID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.waiting, w.fired
}

// setupTimedOut closes a game whose setup never completed and sends the
// player back to the table (the rematch rule reopens it, or looks for it).
// The players who never confirmed are out of it: their seats are open
// again, or, if the creator chose so (setupBot), flown by bots, so the
// table is full with the others and starts again as soon as they are
// back. Everyone who confirmed is ready by itself at the new table.
func (s *NetSession) setupTimedOut(gid lockstep.GameID, lobbyName string, missing []peer.ID, names map[peer.ID]string) error {
	var who []string
	for _, id := range missing {
		n := names[id]
		if n == "" {
			n = shortID(id)
		}
		who = append(who, n)
	}
	if err := s.dir.MarkClosed(gid, "setup timed out"); err != nil {
		s.log.Warn("could not mark the game closed", "err", err)
	}
	s.mu.Lock()
	bots := false
	if v := s.hostView; s.setupBot && v != nil && v.Host == s.self && v.Lobby == lobbyName {
		nv := withBots(*v, missing)
		s.hostView, bots = &nv, len(nv.Players) < len(v.Players)
	}
	s.timedOut = true
	s.rematch = true // the owner reopens the table once this game lets go
	s.mu.Unlock()
	s.log.Warn("the game's setup timed out", "game", gid, "waiting-for", strings.Join(who, ","), "bots", bots)
	waited := strings.Join(who, ", ")
	msg := ui.M("note.nosetup")
	switch {
	case bots && len(who) > 0:
		msg = ui.M("note.nosetup.bot.who", waited)
	case bots:
		msg = ui.M("note.nosetup.bot")
	case len(who) > 0:
		msg = ui.M("note.nosetup.who", waited)
	}
	s.q.push(ui.Notice{Msg: msg})
	return nil
}

// withBots is the creator's table v with each of missing's seats given to
// a bot (lockstep.DefaultBot) and the player dropped from it.
func withBots(v lobby.View, missing []peer.ID) lobby.View {
	v.Players = slices.Clone(v.Players)
	v.Players = slices.DeleteFunc(v.Players, func(p lobby.Player) bool {
		if !slices.Contains(missing, p.ID) || p.Colour >= engine.NumColours {
			return false
		}
		v.Bots[p.Colour] = lockstep.DefaultBot
		return true
	})
	return v
}
