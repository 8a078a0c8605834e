package lockstep_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/memnet"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestDriverTakeSeat runs a newcomer through the product's driver, as a
// program does: a player and a bot play over memnet with real keys and
// a real clock, the player rolling by hand at a person's pace; a peer in
// no seat starts its Driver with Config.Take at roll ≥ 20, catches up,
// is seated by the player's yes and flies the bot's seat to the end.
// Both drivers end on one history, and each one's log verifies with the
// seat's two owners.
func TestDriverTakeSeat(t *testing.T) {
	pk, pid := testkit.Key(60), testkit.ID(60)
	nk, nid := testkit.Key(61), testkit.ID(61)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "take",
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: pid}, {Colour: engine.Blue, Bot: "random"}}}
	cfgs := []lockstep.Config{
		{Setup: setup, Self: pid, Key: pk, Entropy: [32]byte{1}, AbsentTicks: 200},
		{Setup: setup, Self: nid, Key: nk, Entropy: [32]byte{2}, AutoRoll: true, AbsentTicks: 200, Take: &lockstep.Take{Colour: engine.Blue}},
	}
	net := memnet.New(pid, nid)
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard, not a speed claim
	defer cancel()
	var (
		mu     sync.Mutex
		roll   uint64 // the player's roll, for starting the newcomer
		events = make([][]lockstep.Event, 2)
		states = make([]lockstep.State, 2)
		errs   = make([]error, 2)
		logs   = []*recLog{{}, {}}
	)
	drivers := make([]*lockstep.Driver, 2)
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		drivers[i], err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(c.Self), Log: logs[i], Tick: 5 * time.Millisecond,
			OnReady: func(rd lockstep.Ready) {
				mu.Lock()
				events[i] = append(events[i], rd.Events...)
				if i == 0 {
					roll = rd.State.Roll
				}
				mu.Unlock()
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventYourMove:
						m := e.Moves[0]
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
					case lockstep.EventYourRoll:
						go func() {
							time.Sleep(3 * time.Millisecond) // a person's key press
							_ = drivers[i].Do(func(n *lockstep.Node) error { return n.Roll() })
						}()
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { states[0], errs[0] = drivers[0].Run(ctx) })
	for {
		mu.Lock()
		r := roll
		mu.Unlock()
		if r >= 20 || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	wg.Go(func() { states[1], errs[1] = drivers[1].Run(ctx) })
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil || states[i].Phase != lockstep.PhaseOver {
			t.Fatalf("driver %d: %v, phase %s", i, errs[i], states[i].Phase)
		}
	}
	if states[0].History != states[1].History {
		t.Fatalf("histories differ: %x, %x", states[0].History[:6], states[1].History[:6])
	}
	var from uint64
	for _, e := range events[0] {
		if e.Kind == lockstep.EventSeatTaken && e.Peer == nid {
			from = e.Roll
		}
	}
	if from < 20 {
		t.Fatalf("the newcomer was seated from roll %d, want ≥ 20", from)
	}
	for i, lg := range logs {
		lg.mu.Lock()
		v, err := lockstep.VerifyRecords(lg.recs)
		lg.mu.Unlock()
		if err != nil || v.History != states[0].History {
			t.Fatalf("log %d: %v", i, err)
		}
		owners := map[peer.ID]uint64{}
		for _, o := range v.Seats {
			if o.Colour == engine.Blue && !o.Bot {
				owners[o.Player] = o.From
			}
		}
		if owners[nid] != from {
			t.Fatalf("log %d: the Blue seat's owners %+v, want %s from roll %d", i, v.Seats, lockstep.ShortID(nid), from)
		}
	}
}

// recLog keeps the records written, in order.
type recLog struct {
	mu   sync.Mutex
	recs []lockstep.Record
}

func (l *recLog) Write(recs []lockstep.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, recs...)
	return nil
}

func (l *recLog) Sync() error { return nil }
