package session

import (
	"testing"
	"time"

	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A game still in its setup when the wait runs out is cancelled, and the
// watch names who the setup waited for; a game that began is left alone
// (its timer found it begun). TestGamesRunSurvivesRestart (internal/e2e)
// is the whole story: a peer killed between the table and the game.
func TestSetupWatch(t *testing.T) {
	cancelled := make(chan struct{})
	w := newSetupWatch(time.Millisecond, func() { close(cancelled) })
	w.saw(lockstep.State{Phase: lockstep.PhaseSetup, Awaiting: []peer.ID{testkit.ID(1)}})
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second): // a hang guard, not a speed claim
		t.Fatal("a setup past its wait was not cancelled")
	}
	if missing, ok := w.timedOut(); !ok || len(missing) != 1 || missing[0] != testkit.ID(1) {
		t.Errorf("timedOut = %v, %v; want the one player who never confirmed", missing, ok)
	}

	began := newSetupWatch(-1, func() { t.Error("a watch with no wait cancelled the game") })
	began.saw(lockstep.State{Phase: lockstep.PhaseReveal})
	if _, ok := began.timedOut(); ok {
		t.Error("a game that began timed out")
	}
}
