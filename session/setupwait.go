package session

import (
	"strings"
	"sync"
	"time"

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
func (s *NetSession) setupTimedOut(gid lockstep.GameID, missing []peer.ID, names map[peer.ID]string) error {
	var who []string
	for _, id := range missing {
		n := names[id]
		if n == "" {
			n = shortID(id)
		}
		who = append(who, n)
	}
	s.log.Warn("the game's setup timed out: back to the table", "game", gid, "waiting-for", strings.Join(who, ","))
	if err := s.dir.MarkClosed(gid, "setup timed out"); err != nil {
		s.log.Warn("could not mark the game closed", "err", err)
	}
	msg := ui.M("note.nosetup")
	if len(who) > 0 {
		msg = ui.M("note.nosetup.who", strings.Join(who, ", "))
	}
	s.q.push(ui.Notice{Msg: msg})
	s.mu.Lock()
	s.rematch = true // the owner reopens the table once this game lets go
	s.mu.Unlock()
	return nil
}
