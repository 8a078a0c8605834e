package session

import (
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// observed is what an Observer saw of a session's games.
type observed struct {
	mu      sync.Mutex
	started []GameInfo
	ended   []lockstep.State
	errs    []error
	done    chan struct{} // closed after the second game
}

// The front end without a screen (`--headless`) drives a NetSession with
// Enter and an Observer: the first peer's Enter creates the table, the
// second's joins it, both ready by themselves, a bot answering their
// choices; at the end each asks for the rematch, and by the one rule the
// creator reopens the table with the same seats, bots and rules and the
// other finds it: a second game with a fresh ID, the same seats and rules,
// that both end on the same history.
func TestNetEnterRematchThroughTheTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	rules, err := engine.ParseRules("stack=off")
	if err != nil {
		t.Fatal(err)
	}
	obs := map[string]*observed{}
	sess := map[string]*NetSession{}
	for _, name := range []string{"Ann", "Bob"} {
		o := &observed{done: make(chan struct{})}
		obs[name] = o
		var s *NetSession
		s = newNetTestWith(t, name, func(opts *NetOptions) {
			opts.AutoReady, opts.NoResume = true, true
			opts.Observer = Observer{
				Started: func(g GameInfo) error {
					o.mu.Lock()
					defer o.mu.Unlock()
					o.started = append(o.started, g)
					return nil
				},
				Ready: func(_ GameInfo, rd lockstep.Ready) {
					if st := rd.State; st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 {
						go func() { _ = s.Choose(st.Moves[0]) }() // a stale choice is refused
					}
				},
				Ended: func(_ *GameInfo, st lockstep.State, err error) {
					o.mu.Lock()
					defer o.mu.Unlock()
					o.ended, o.errs = append(o.ended, st), append(o.errs, err)
					switch len(o.ended) {
					case 1:
						if err := s.Rematch(); err != nil {
							o.errs = append(o.errs, err)
						}
					case 2:
						close(o.done)
					}
				},
			}
		})
		sess[name] = s
	}
	tables := make(chan struct{}, 1)
	go func() {
		for e := range sess["Ann"].Events() {
			if tu, ok := e.(ui.TableUpdate); ok && !tu.Started {
				select {
				case tables <- struct{}{}:
				default:
				}
			}
		}
	}()
	go func() {
		for range sess["Bob"].Events() {
		}
	}()
	if err := sess["Ann"].Enter(lobby.Config{Lobby: "friday", Players: 2, Bots: 2, Rules: rules, FindFor: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tables:
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("Ann's table never opened")
	}
	if err := sess["Bob"].Enter(lobby.Config{Lobby: "friday", FindFor: time.Minute}); err != nil {
		t.Fatal(err)
	}
	for name, o := range obs {
		select {
		case <-o.done:
		case <-time.After(3 * time.Minute):
			o.mu.Lock()
			t.Fatalf("%s: %d games started, %d ended (%v)", name, len(o.started), len(o.ended), o.errs)
		}
	}
	a, b := obs["Ann"], obs["Bob"]
	for g := range 2 {
		for name, o := range obs {
			if o.errs[g] != nil || o.ended[g].Phase != lockstep.PhaseOver || o.started[g].Resumed {
				t.Errorf("%s game %d: phase %v, err %v, resumed %v", name, g+1, o.ended[g].Phase, o.errs[g], o.started[g].Resumed)
			}
		}
		if a.started[g].Setup.GameID() != b.started[g].Setup.GameID() || a.ended[g].History != b.ended[g].History {
			t.Errorf("game %d: Ann and Bob played different games", g+1)
		}
	}
	first, second := a.started[0].Setup, a.started[1].Setup
	if first.GameID() == second.GameID() || a.started[0].Log == a.started[1].Log {
		t.Fatalf("the rematch is game %s again (log %s)", first.GameID(), a.started[1].Log)
	}
	if len(first.Seats) != 4 || !sameSeats(first.Seats, second.Seats) || first.Rules != second.Rules || second.Rules != rules {
		t.Errorf("the rematch's table: seats %v rules %v; the first game's: seats %v rules %v (want %v)",
			second.Seats, second.Rules, first.Seats, first.Rules, rules)
	}
}

func sameSeats(a, b []lockstep.Seat) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A player who created a table and later sits at another's table of the
// same name is no longer its creator: its rematch looks for that table
// instead of opening a rival one.
func TestHostViewFollowsTheTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	s := newNetTestOpts(t, "Ann", true)
	other := newNetTestOpts(t, "Bob", true)
	s.mu.Lock()
	p := lobbyPlan{gen: s.gen}
	s.mu.Unlock()
	for _, c := range []struct {
		host peer.ID
		want bool
	}{{s.ID(), true}, {other.ID(), false}, {s.ID(), true}} {
		s.showLobby(p, lobby.View{Lobby: "friday", Host: c.host})
		s.mu.Lock()
		got := s.hostView != nil
		s.mu.Unlock()
		if got != c.want {
			t.Errorf("after a view of friday hosted by %s: creator %v, want %v", c.host, got, c.want)
		}
	}
}
