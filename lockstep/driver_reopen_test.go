package lockstep_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/memnet"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// reopenPeer is one driver of TestDriverLingerReopened: its own clock
// (ticks and timers by hand), what it saw, and the moves it holds back.
type reopenPeer struct {
	d    *lockstep.Driver
	clk  *manualClock
	end  chan result
	done chan struct{} // closed when Run has returned

	mu       sync.Mutex
	last     lockstep.State
	excluded bool // saw the lone peer voted absent
	rolled   bool // saw EventRolledBack
	hold     bool // its moves wait for release
	pending  []func(*lockstep.Node) error
}

type result struct {
	st  lockstep.State
	err error
}

func (p *reopenPeer) seen(f func(p *reopenPeer) bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return f(p)
}

func (p *reopenPeer) state() lockstep.State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// release lets p's held moves go and stops holding.
func (p *reopenPeer) release() {
	p.mu.Lock()
	held := p.pending
	p.hold, p.pending = false, nil
	p.mu.Unlock()
	for _, f := range held {
		go p.d.Do(f)
	}
}

// tick sends p's driver one tick unless its Run has returned.
func (p *reopenPeer) tick(ctx context.Context) {
	select {
	case p.clk.ticks <- time.Time{}:
	case <-p.done:
	case <-ctx.Done():
	}
}

// One peer of four is cut off, goes on alone (GoOnAlone) and finishes the
// game with bots in the others' seats, and its driver starts to linger;
// the three, a majority, vote it absent and play on. The cable comes back
// during the linger: the lone peer's branch is undone (EventRolledBack), so
// its game is open again. Its linger passing must not end Run there: the
// driver plays on with the majority and lingers at the new end, and every
// Run returns the same final history, the majority's.
func TestDriverLingerReopened(t *testing.T) {
	const linger = 5 * time.Second
	_, cfgs := table(t, 4)
	var ids []peer.ID
	for i := range cfgs {
		cfgs[i].GoOnAlone = true // headless peers
		cfgs[i].AbsentTicks, cfgs[i].ChooseTicks = 4, 20
		ids = append(ids, cfgs[i].Self)
	}
	net := memnet.New(ids...)
	defer net.Close()
	lone := ids[0]
	peers := make([]*reopenPeer, len(cfgs))
	var progress atomic.Int64 // Readies seen by all drivers
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		p := &reopenPeer{clk: newManualClock(), end: make(chan result, 1), done: make(chan struct{}), hold: true}
		peers[i] = p
		p.d, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(c.Self), Log: newFakeLog(), Linger: linger, Clock: p.clk,
			OnReady: func(rd lockstep.Ready) {
				progress.Add(1)
				p.mu.Lock()
				defer p.mu.Unlock()
				p.last = rd.State
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventAbsent:
						if i > 0 && e.Peer == lone {
							p.excluded, p.hold = true, true // the majority stops before its next move
						}
					case lockstep.EventRolledBack:
						p.rolled = true
					case lockstep.EventYourMove:
						m := e.Moves[0]
						f := func(n *lockstep.Node) error { return n.Choose(m) }
						if p.hold {
							p.pending = append(p.pending, f)
							continue
						}
						go p.d.Do(f)
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard, not a speed claim
	defer cancel()
	for _, p := range peers {
		go func() { st, err := p.d.Run(ctx); p.end <- result{st, err}; close(p.done) }()
	}
	// waitFor polls cond, ticking the given peers whenever no driver made
	// progress since the last poll: a tick stands for time passing while
	// the game waits, never for a player merely slower than the test.
	waitFor := func(what string, cond func() bool, tick ...*reopenPeer) {
		t.Helper()
		last := progress.Load()
		for !cond() {
			if ctx.Err() != nil {
				for i, p := range peers {
					st := p.state()
					t.Logf("driver %d: phase %s roll %d awaiting %d absent %d held %d", i, st.Phase, st.Roll, len(st.Awaiting), len(st.Absent), len(p.pending))
				}
				t.Fatalf("never: %s", what)
			}
			time.Sleep(5 * time.Millisecond)
			if now := progress.Load(); now != last {
				last = now
				continue
			}
			for _, p := range tick {
				p.tick(ctx)
			}
		}
	}
	held := func(p *reopenPeer) bool { return len(p.pending) > 0 }

	// The game starts and waits for its first mover, who holds back; then
	// the lone peer's cable goes out and everybody's moves go on.
	waitFor("the first move held", func() bool { return slices.ContainsFunc(peers, func(p *reopenPeer) bool { return p.seen(held) }) })
	net.Partition(ids[:1], ids[1:])
	for _, p := range peers {
		p.release()
	}
	// The lone peer goes on alone to the end and arms its linger; the
	// majority votes it absent, then plays on until a move it holds back.
	waitFor("the majority voting the lone peer absent", func() bool {
		return !slices.ContainsFunc(peers[1:], func(p *reopenPeer) bool { return !p.seen(func(p *reopenPeer) bool { return p.excluded }) })
	}, peers...)
	armed := false
	waitFor("the lone peer finishing its game", func() bool {
		select {
		case d := <-peers[0].clk.armed:
			if d != linger {
				t.Fatalf("linger armed for %v", d)
			}
			armed = true
		default:
		}
		return armed
	}, peers[0])
	aloneEnd := peers[0].state()
	if aloneEnd.Phase != lockstep.PhaseOver {
		t.Fatalf("the lone peer lingers in phase %s", aloneEnd.Phase)
	}
	waitFor("the majority holding a move", func() bool {
		return slices.ContainsFunc(peers[1:], func(p *reopenPeer) bool { return p.seen(held) })
	})
	// The cable comes back: the lone peer learns it was outvoted, rolls
	// back and catches up with the majority, which still holds its move.
	net.Heal()
	waitFor("the lone peer rolled back to the majority's history", func() bool {
		h := peers[0].state().History
		return peers[0].seen(func(p *reopenPeer) bool { return p.rolled }) &&
			!slices.ContainsFunc(peers[1:], func(p *reopenPeer) bool { return p.state().History != h })
	}, peers[0])
	// Its linger passes while the game is open again: Run must go on.
	peers[0].clk.Advance(time.Minute)
	for range 8 {
		if err := peers[0].d.Do(func(*lockstep.Node) error { return nil }); errors.Is(err, lockstep.ErrStopped) {
			r := <-peers[0].end
			t.Fatalf("Run returned when the linger of the undone end passed, in phase %s: %v", r.st.Phase, r.err)
		}
	}
	// The majority plays on; all four reach the end and linger there.
	for _, p := range peers {
		p.release()
	}
	// Nobody waits on anyone now, yet ticks go on: a status frame may
	// still have to ask for a message the heal lost in flight.
	arms := make([]bool, len(peers))
	waitFor("every driver lingering at the end", func() bool {
		for i, p := range peers {
			select {
			case d := <-p.clk.armed:
				if d != linger {
					t.Fatalf("driver %d: linger armed for %v", i, d)
				}
				arms[i] = true
			case r := <-p.end:
				t.Fatalf("driver %d: Run returned before the end: phase %s, %v", i, r.st.Phase, r.err)
			default:
			}
		}
		return !slices.Contains(arms, false)
	}, peers...)
	// The lingers pass; one may start again while a peer still catches up
	// (bounded by MaxLinger), so time goes on until every Run returned.
	ends := make([]result, len(peers))
	ended := make([]bool, len(peers))
	waitFor("every Run returning after its linger", func() bool {
		for i, p := range peers {
			if ended[i] {
				continue
			}
			select {
			case r := <-p.end:
				if r.err != nil || r.st.Phase != lockstep.PhaseOver {
					t.Fatalf("driver %d: Run: %v in phase %s", i, r.err, r.st.Phase)
				}
				ends[i], ended[i] = r, true
			default:
				p.clk.Advance(linger)
			}
		}
		return !slices.Contains(ended, false)
	}, peers...)
	for i, r := range ends {
		if r.st.History != ends[1].st.History {
			t.Errorf("driver %d ended on another history than the majority's", i)
		}
	}
	if ends[0].st.History == aloneEnd.History {
		t.Error("the lone peer ended on the end of its own undone branch")
	}
}
