package session

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// DefaultContinueWait is how long a game paused together and continued
// waits for the rest of its players (NetOptions.ContinueWait).
const DefaultContinueWait = 2 * time.Minute

// continueWaitEvery is how often the wait looks whether everyone is back.
const continueWaitEvery = 250 * time.Millisecond

// pauseWatch follows one run's pauses; its methods are safe from any
// goroutine (saw runs on the driver's).
//
// A game paused together continues with its people: a run restored from
// a log holding this program's own pause (Continue, --continue) keeps
// that pause, and its people's, until every other player who was present
// at the pause is back, or until the wait is over. A player is back once
// this run sees its program restored from its own log (lockstep's
// EventPeerRestored) or its pause lifted (EventPauseLifted): the last to
// continue is seen restored by all the others, who lift, and it sees
// them lift, so everyone lifts within moments of the last one's return.
// While paused a node votes nobody absent, so nobody is replaced
// meanwhile; after the wait the absence rules deal with whoever is still
// not back.
//
// A run in which the game paused (State.Paused went from false to true)
// ended for this player: its screen is back in the lobby. The driver
// still lingers to tell the others it holds their pauses; should they
// continue the game meanwhile (their pauses lifted while ours is not),
// the run stops at once with the paused state, never following a game
// its player left: continued, it is taken up from the log like any other.
type pauseWatch struct {
	mu       sync.Mutex
	hold     bool             // restored paused: lift only once they are back
	back     map[peer.ID]bool // players seen restored, or lifting their pause, in this run
	unpaused bool             // a Ready said not paused: a pause after it is this run's
	paused   *lockstep.State  // the state at this run's pause
	left     bool             // the others continued after this player left
}

func newPauseWatch(hold bool) *pauseWatch {
	return &pauseWatch{hold: hold, back: map[peer.ID]bool{}}
}

// saw takes a Ready's events and state; it reports whether the run must
// stop now (the others continued a game this player left paused).
func (w *pauseWatch) saw(rd lockstep.Ready) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range rd.Events {
		if e.Kind == lockstep.EventPeerRestored || e.Kind == lockstep.EventPauseLifted {
			w.back[e.Peer] = true
		}
	}
	switch st := rd.State; {
	case st.Paused && w.unpaused && w.paused == nil:
		w.paused = &st
	case !st.Paused && w.paused != nil && !w.left:
		w.left = true
		return true
	case !st.Paused:
		w.unpaused = true
	}
	return false
}

// pausedHere reports whether the game paused in this run: the player's
// screen is back in the lobby, and the game is kept to continue.
func (w *pauseWatch) pausedHere() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.paused != nil
}

// leftPaused is the state the game paused at, if the others continued it
// after this player left it.
func (w *pauseWatch) leftPaused() (lockstep.State, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.left {
		return lockstep.State{}, false
	}
	return *w.paused, true
}

// missing are the players of want not back yet.
func (w *pauseWatch) missing(want []peer.ID) []peer.ID {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(want), func(id peer.ID) bool { return w.back[id] })
}

// continueWant are the players a game paused together waits for when
// self continues it from saved: everyone holding a seat in it but self
// and its people here (hot), a newcomer seated before the pause among
// them (savegame.Saved.Members); those bots flew at the pause are
// passed over by the wait itself.
func continueWant(saved *savegame.Saved, self peer.ID, hot []peer.ID) []peer.ID {
	return slices.DeleteFunc(saved.Members(), func(id peer.ID) bool { return id == self || slices.Contains(hot, id) })
}

// continueWait is how long a continued paused game waits for its people
// (NetOptions.ContinueWait): 0 the default, negative not at all.
func (s *NetSession) continueWait() time.Duration {
	switch w := s.opts.ContinueWait; {
	case w == 0:
		return DefaultContinueWait
	case w < 0:
		return 0
	default:
		return w
	}
}

// liftWhenBack lifts the pause of this program's node and of its people's
// once every player of want that is not absent (absent(), bots flying
// their seats at the pause) is back, or wait after it began; it says on
// the screen whom it waits for, and who did not come back in time.
func (s *NetSession) liftWhenBack(ctx context.Context, w *pauseWatch, g *Game, hot []*hotSeat, want []peer.ID,
	absent func() []peer.ID, names map[peer.ID]string, wait time.Duration) {
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(continueWaitEvery)
	defer tick.Stop()
	nameList := func(ids []peer.ID) string {
		var out []string
		for _, id := range ids {
			n := names[id]
			if n == "" {
				n = shortID(id)
			}
			out = append(out, n)
		}
		return strings.Join(out, ", ")
	}
	told := ""
	for {
		gone := absent()
		missing := slices.DeleteFunc(w.missing(want), func(id peer.ID) bool { return slices.Contains(gone, id) })
		if len(missing) == 0 {
			s.log.Info("every player of the paused game is back: lifting the pause")
			break
		}
		if !time.Now().Before(deadline) {
			s.log.Info("players of the paused game not back in time: lifting the pause, the absence rules fly their seats", "missing", nameList(missing), "wait", wait)
			s.q.push(ui.Notice{Msg: ui.M("note.continuewithout", nameList(missing), wait.String())})
			break
		}
		if l := nameList(missing); l != told {
			told = l
			s.log.Info("the paused game waits for its players to continue it too", "missing", l, "wait", wait)
			s.q.push(ui.Notice{Msg: ui.M("note.continuewait", l, wait.String())})
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
	// Each node lifts once it may sign again (a restored node recovers
	// first: ErrRecovering until then).
	drivers := []*lockstep.Driver{g.Driver}
	for _, h := range hot {
		drivers = append(drivers, h.drv)
	}
	for len(drivers) > 0 {
		drivers = slices.DeleteFunc(drivers, func(d *lockstep.Driver) bool {
			err := d.Do((*lockstep.Node).Continue)
			switch {
			case err == nil, errors.Is(err, lockstep.ErrNotPaused), errors.Is(err, lockstep.ErrStopped):
				return true
			case !errors.Is(err, lockstep.ErrRecovering):
				s.log.Warn("the paused game could not be continued", "err", err)
				return true
			}
			return false
		})
		if len(drivers) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
