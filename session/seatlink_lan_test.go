package session

import (
	"context"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// seatTestTransport is a transport on 127.0.0.1 under key that notices
// a dead peer within 2 s, closed with t.
func seatTestTransport(t *testing.T, key crypto.PrivKey) *p2p.Transport {
	t.Helper()
	tr := p2p.NewTransport(p2ptest.NewHostKey(t, key), p2p.TransportConfig{Heartbeat: 100 * time.Millisecond, DeadAfter: 2 * time.Second})
	t.Cleanup(func() { tr.Close() })
	return tr
}

// Over real libp2p transports (a private namespace), a program holding
// two seats (ann, its own key, and bob, a seat key: one Hub, two nodes)
// plays a whole game against two programs of one seat each: the seat
// frames reach bob through ann's program, and all four nodes end on one
// history. A program that sends a seat frame for a seat it does not host
// (eve, claiming bob) is refused before any node sees it, and struck.
func TestTransportLinkHotSeatLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	annKey, bobKey, catKey, danKey, eveKey := testkit.Key(70), testkit.Key(71), testkit.Key(72), testkit.Key(73), testkit.Key(74)
	hot, cat, dan, eve := seatTestTransport(t, annKey), seatTestTransport(t, catKey), seatTestTransport(t, danKey), seatTestTransport(t, eveKey)
	p2ptest.ConnectPair(t, hot, cat)
	p2ptest.ConnectPair(t, hot, dan)
	p2ptest.ConnectPair(t, cat, dan)
	p2ptest.ConnectPair(t, eve, cat)
	ann, bob := testkit.ID(70), testkit.ID(71)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "hotseat-lan", Rules: engine.DefaultRules(), Nonce: [16]byte{7}}
	keys := []crypto.PrivKey{annKey, bobKey, catKey, danKey}
	for i, k := range keys {
		id, _ := peer.IDFromPrivateKey(k)
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: id})
	}
	hosts := map[peer.ID]peer.ID{bob: hot.Host().ID()}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	var bg sync.WaitGroup
	defer bg.Wait()
	defer cancel()
	links := map[*p2p.Transport]*TransportLink{}
	for _, tr := range []*p2p.Transport{hot, cat, dan} {
		l := NewTransportLink(tr, nil, nil, nil)
		l.SetSeatHosts(hosts)
		links[tr] = l
		bg.Go(func() { l.run(ctx) })
	}
	hub, err := lockstep.NewHub(links[hot], ann, bob)
	if err != nil {
		t.Fatal(err)
	}
	bg.Go(func() { hub.Run(ctx) })

	// eve speaks for bob, whom it does not host.
	forged, err := encodeSeatFrame(bob, "", []byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := eve.Send(cat.Host().ID(), p2p.KindSeat, forged); err != nil {
		t.Fatal(err)
	}

	linkOf := []lockstep.Link{hub.Link(ann), hub.Link(bob), links[cat], links[dan]}
	states := make([]lockstep.State, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i, k := range keys {
		id, _ := peer.IDFromPrivateKey(k)
		n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: id, Key: k, Entropy: [32]byte{byte(i), 9}, AutoRoll: true})
		if err != nil {
			t.Fatal(err)
		}
		var d *lockstep.Driver
		d, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: linkOf[i], Log: discardLog{}, Linger: -1,
			OnReady: func(rd lockstep.Ready) {
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[0]
						go d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { states[i], errs[i] = d.Run(ctx) })
	}
	wg.Wait()
	for i, s := range states {
		if errs[i] != nil || s.Phase != lockstep.PhaseOver || s.History != states[0].History {
			t.Fatalf("seat %d: phase %s, err %v, history %x (seat 0: %x)", i, s.Phase, errs[i], s.History[:6], states[0].History[:6])
		}
	}
	if n := links[cat].Refused.Load(); n != 1 {
		t.Errorf("cat's link refused %d seat frames, want eve's one", n)
	}
	for _, tr := range []*p2p.Transport{hot, dan} {
		if n := links[tr].Refused.Load(); n != 0 {
			t.Errorf("an honest program's seat frame was refused (%d)", n)
		}
	}
	t.Logf("one history %x after roll %d", states[0].History[:8], states[0].Roll)
}
