package session

import (
	"errors"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/lobby"
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

// Three players sit at Ann's table; Cat's program stops between the
// table and the game (its Started never returns, so it never sends its
// Confirm). Ann chose SetupBot: when the setup times out, she reopens
// the table at once with a bot in Cat's seat, Bob comes back ready by
// himself, and the game starts again without Cat, the two of them and
// the bot. (Before, the table reopened with Cat's seat open and waited
// for a new player.)
func TestSetupTimeoutRestartsWithBotLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	release := make(chan struct{})
	obs := map[string]*observed{}
	sess := map[string]*NetSession{}
	for _, name := range []string{"Ann", "Bob", "Cat"} {
		o := &observed{done: make(chan struct{})}
		obs[name] = o
		var s *NetSession
		s = newNetTestWith(t, name, func(opts *NetOptions) {
			opts.AutoReady, opts.NoResume = true, true
			opts.SetupWait = 2 * time.Second
			opts.SetupBot = name == "Ann"
			opts.Observer = Observer{
				Started: func(g GameInfo) error {
					if name == "Cat" {
						<-release // killed between the table and the game
						return errors.New("gone")
					}
					o.mu.Lock()
					defer o.mu.Unlock()
					o.started = append(o.started, g)
					if len(o.started) == 2 {
						close(o.done)
					}
					return nil
				},
				Ready: func(_ GameInfo, rd lockstep.Ready) {
					if st := rd.State; st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 {
						go func() { _ = s.Choose(st.Moves[0]) }()
					}
				},
			}
		})
		sess[name] = s
		go func() {
			for range s.Events() {
			}
		}()
	}
	t.Cleanup(func() { close(release) }) // before the sessions close
	if err := sess["Ann"].Enter(lobby.Config{Lobby: "friday", Players: 3, FindFor: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // Ann's table open
	for _, name := range []string{"Bob", "Cat"} {
		if err := sess[name].Enter(lobby.Config{Lobby: "friday", FindFor: time.Minute}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"Ann", "Bob"} {
		o := obs[name]
		select {
		case <-o.done:
		case <-time.After(2 * time.Minute): // a hang guard, not a speed claim
			o.mu.Lock()
			t.Fatalf("%s started %d games, want the first and the one after the timeout", name, len(o.started))
		}
	}
	a, b := obs["Ann"], obs["Bob"]
	first, second := a.started[0].Setup, a.started[1].Setup
	if second.GameID() != b.started[1].Setup.GameID() || second.GameID() == first.GameID() {
		t.Fatalf("Ann and Bob did not start one new game after the timeout")
	}
	cat := sess["Cat"].ID()
	var catColour engine.Colour = engine.NoColour
	for _, st := range first.Seats {
		if st.Player == cat {
			catColour = st.Colour
		}
	}
	if catColour == engine.NoColour {
		t.Fatalf("Cat had no seat in the first game: %v", first.Seats)
	}
	for _, st := range second.Seats {
		if st.Player == cat {
			t.Errorf("Cat still plays in the new game: %v", second.Seats)
		}
		if st.Colour == catColour && st.Bot == "" {
			t.Errorf("Cat's colour has no bot in the new game: %v", second.Seats)
		}
	}
	if len(second.Players()) != 2 || len(second.Seats) != 3 {
		t.Errorf("the new game's seats %v: want Ann, Bob and a bot", second.Seats)
	}
}
