package lockstep_test

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// seatNet is a network of programs, each holding one or more seats: a
// frame goes to the program hosting the seat it is for (hosts), tagged
// with the sending seat and, for one seat, the seat it is for, as a
// transport's seat envelope does.
type seatNet struct {
	hosts map[peer.ID]peer.ID // seat → program
	progs map[peer.ID]*progLink
	order []peer.ID // programs
}

func newSeatNet(hosts map[peer.ID]peer.ID) *seatNet {
	n := &seatNet{hosts: hosts, progs: map[peer.ID]*progLink{}}
	for _, p := range hosts {
		if n.progs[p] == nil {
			n.progs[p] = &progLink{net: n, self: p, frames: make(chan lockstep.Frame, 1<<15)}
			n.order = append(n.order, p)
		}
	}
	return n
}

// progLink is one program's end: a lockstep.SeatLink.
type progLink struct {
	net    *seatNet
	self   peer.ID
	frames chan lockstep.Frame
}

func (l *progLink) Send(to peer.ID, data []byte) error { return l.SendAs(l.self, to, data) }

func (l *progLink) SendAs(from, to peer.ID, data []byte) error {
	if to == "" {
		for _, p := range l.net.order {
			if p != l.self {
				l.net.progs[p].frames <- lockstep.Frame{From: from, Data: bytes.Clone(data)}
			}
		}
		return nil
	}
	if p, ok := l.net.hosts[to]; ok {
		l.net.progs[p].frames <- lockstep.Frame{From: from, To: to, Data: bytes.Clone(data)}
	}
	return nil
}

func (l *progLink) Frames() <-chan lockstep.Frame { return l.frames }
func (l *progLink) Reach() <-chan lockstep.Reach  { return nil }

// A program holding two seats (a Hub, each seat its own key, chain and
// Driver) plays a whole game against two programs of one seat each: all
// four end on one history, and the two hot seats' links both count in
// every roll, as any player's do.
func TestHubTwoSeatsPlayAgainstTwoPrograms(t *testing.T) {
	setup := lockstep.Setup{Version: lockstep.Version, Name: "hotseat"}
	var cfgs []lockstep.Config
	hosts := map[peer.ID]peer.ID{}
	hotProg := testkit.ID(59) // the hot-seat program's transport ID, no seat's
	for i := range 4 {
		k, id := testkit.Key(i+50), testkit.ID(i+50)
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: id})
		cfgs = append(cfgs, lockstep.Config{Self: id, Key: k, Entropy: [32]byte{byte(i), 7}, AutoRoll: true})
		hosts[id] = id
	}
	hosts[cfgs[0].Self], hosts[cfgs[2].Self] = hotProg, hotProg // ann and bob at one laptop
	for i := range cfgs {
		cfgs[i].Setup = setup
	}
	net := newSeatNet(hosts)
	hub, err := lockstep.NewHub(net.progs[hotProg], cfgs[0].Self, cfgs[2].Self)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	var wg sync.WaitGroup
	hctx, hstop := context.WithCancel(ctx)
	wg.Go(func() { hub.Run(hctx) })
	states := make([]lockstep.State, 4)
	errs := make([]error, 4)
	var dwg sync.WaitGroup
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		var link lockstep.Link = net.progs[c.Self]
		if hosts[c.Self] == hotProg {
			link = hub.Link(c.Self)
		}
		var d *lockstep.Driver
		d, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: newFakeLog(), Linger: -1,
			OnReady: func(rd lockstep.Ready) {
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[len(e.Moves)-1]
						go d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		dwg.Go(func() { states[i], errs[i] = d.Run(ctx) })
	}
	dwg.Wait()
	hstop()
	wg.Wait()
	for i, s := range states {
		if errs[i] != nil || s.Phase != lockstep.PhaseOver {
			t.Fatalf("seat %d: phase %s, err %v", i, s.Phase, errs[i])
		}
		if s.History != states[0].History {
			t.Fatalf("seat %d ended on history %x, seat 0 on %x", i, s.History[:6], states[0].History[:6])
		}
	}
	if d := hub.Dropped.Load(); d != 0 {
		t.Errorf("the hub dropped %d local frames", d)
	}
}

// NewHub refuses a list of seats it cannot run.
func TestNewHubRejects(t *testing.T) {
	for name, seats := range map[string][]peer.ID{
		"none":  nil,
		"empty": {""},
		"twice": {testkit.ID(1), testkit.ID(1)},
	} {
		if _, err := lockstep.NewHub(&progLink{}, seats...); err == nil {
			t.Errorf("%s: NewHub accepted %v", name, seats)
		}
	}
}
