package lockstep_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/memnet"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// With StopWhenPaused, drivers whose players all pause (through Do) at
// roll 10 return at one paused state once the others hold their pause,
// with no error: the game run ends, its log unfinished. Restored from
// those logs with ContinuePaused, the drivers lift their pauses once
// recovered and play the game to one end.
func TestDriverStopWhenPaused(t *testing.T) {
	_, cfgs := table(t, 3)
	var ids []peer.ID
	for _, c := range cfgs {
		ids = append(ids, c.Self)
	}
	net := memnet.New(ids...)
	defer net.Close()
	clk := newManualClock()
	drivers := make([]*lockstep.Driver, len(cfgs))
	logs := make([]*fakeLog, len(cfgs))
	states := make([]lockstep.State, len(cfgs))
	errs := make([]error, len(cfgs))
	var asked [3]atomic.Int32 // EventPauseAsked seen by each
	var last [3]atomic.Pointer[lockstep.State]
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		logs[i] = newFakeLog()
		drivers[i], err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(c.Self), Log: logs[i], Clock: clk, StopWhenPaused: true,
			OnReady: func(rd lockstep.Ready) {
				last[i].Store(&rd.State)
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[0]
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
					if e.Kind == lockstep.EventPauseAsked {
						asked[i].Add(1)
					}
				}
				if rd.State.Roll >= 10 && rd.State.Phase != lockstep.PhaseOver {
					once.Do(func() {
						go func() {
							if err := drivers[i].Do((*lockstep.Node).Pause); err != nil {
								t.Errorf("driver %d: Pause: %v", i, err)
							}
						}()
					})
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a hang guard
	defer cancel()
	var wg sync.WaitGroup
	for i, d := range drivers {
		wg.Go(func() { states[i], errs[i] = d.Run(ctx) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for stop := false; !stop; {
		select {
		case clk.ticks <- time.Time{}: // status frames tell each what the others hold
			time.Sleep(time.Millisecond)
		case <-done:
			stop = true
		case <-ctx.Done():
			for i := range last {
				st := last[i].Load()
				t.Logf("driver %d: %s roll %d paused %v awaiting %d", i, st.Phase, st.Roll, st.Paused, len(st.Awaiting))
			}
			t.Fatal("the drivers never stopped")
		}
	}
	for i := range drivers {
		if errs[i] != nil || !states[i].Paused || states[i].Phase == lockstep.PhaseOver {
			t.Fatalf("driver %d: %v, paused %v, phase %s", i, errs[i], states[i].Paused, states[i].Phase)
		}
		if states[i].Roll != states[0].Roll || states[i].History != states[0].History {
			t.Fatalf("driver %d paused at roll %d %x, driver 0 at %d %x", i, states[i].Roll, states[i].History[:4], states[0].Roll, states[0].History[:4])
		}
		if asked[i].Load() < 1 || asked[i].Load() > 2 {
			t.Fatalf("driver %d saw %d pause requests of the 2 others", i, asked[i].Load())
		}
	}
	// Another day: each program restored from its log, continuing.
	net2 := memnet.New(ids...)
	defer net2.Close()
	for i, c := range cfgs {
		n, err := lockstep.Restore(c, logs[i].recs)
		if err != nil {
			t.Fatal(err)
		}
		if n.PausedFrom() == 0 {
			t.Fatalf("driver %d restored unpaused", i)
		}
		drivers[i], err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: net2.Link(c.Self), Log: newFakeLog(), Clock: clk,
			ContinuePaused: true, Linger: -1,
			OnReady: func(rd lockstep.Ready) {
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[0]
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, d := range drivers {
		wg.Go(func() { states[i], errs[i] = d.Run(ctx) })
	}
	done = make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for stop := false; !stop; {
		select {
		case clk.ticks <- time.Time{}:
			time.Sleep(time.Millisecond)
		case <-done:
			stop = true
		case <-ctx.Done():
			t.Fatal("the continued game never ended")
		}
	}
	for i := range drivers {
		if errs[i] != nil || states[i].Phase != lockstep.PhaseOver || states[i].History != states[0].History {
			t.Fatalf("driver %d continued: %v, phase %s, history %x (driver 0: %x)", i, errs[i], states[i].Phase, states[i].History[:4], states[0].History[:4])
		}
	}
}
