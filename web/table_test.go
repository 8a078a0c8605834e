package web

import (
	"context"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// testTable is the serving program's side of a game with one browser, as
// a test stands it up until the session seats web players itself: the
// first browser that proves its key sits as Yellow, the program's own
// player as Red, a bot as Blue; the program's node plays over web.Link.
type testTable struct {
	url    string // the page
	result chan tableResult
}

type tableResult struct {
	st  lockstep.State
	err error
}

func newTestTable(t testing.TB, ctx context.Context, assets Options) *testTable {
	t.Helper()
	hostKey, hostID := testkit.Key(1), testkit.ID(1)
	link := NewLink(ctx, hostID)
	tt := &testTable{result: make(chan tableResult, 1)}
	seated := make(chan struct{}, 1)
	assets.Addr = "127.0.0.1:0"
	assets.Players = func(c *Conn) {
		select {
		case seated <- struct{}{}:
		default:
			c.Close() // the table is full
			return
		}
		setup := lockstep.Setup{Version: lockstep.Version, Name: "phones", Seats: []lockstep.Seat{
			{Colour: engine.Red, Player: hostID}, {Colour: engine.Blue, Bot: engine.BotKinds()[0]}, {Colour: engine.Yellow, Player: c.Peer()}}}
		link.Add(c)
		if err := c.SendSetup(setup); err != nil {
			tt.result <- tableResult{err: err}
			return
		}
		go func() {
			st, err := playNode(ctx, setup, hostKey, link)
			tt.result <- tableResult{st, err}
		}()
	}
	srv, err := Listen(assets)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	tt.url = srv.URLs()[0]
	return tt
}

// playNode plays the program's own seat, the first move each time.
func playNode(ctx context.Context, setup lockstep.Setup, key crypto.PrivKey, link lockstep.Link) (lockstep.State, error) {
	self, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return lockstep.State{}, err
	}
	n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: self, Key: key, AutoRoll: true, Entropy: [32]byte{1}})
	if err != nil {
		return lockstep.State{}, err
	}
	var d *lockstep.Driver
	d, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: discardLog{}, Linger: -1, Tick: 20 * time.Millisecond,
		OnReady: func(rd lockstep.Ready) {
			for _, e := range rd.Events {
				if e.Kind == lockstep.EventYourMove {
					m := e.Moves[0]
					go d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
				}
			}
		}})
	if err != nil {
		return lockstep.State{}, err
	}
	return d.Run(ctx)
}

type discardLog struct{}

func (discardLog) Write([]lockstep.Record) error { return nil }
func (discardLog) Sync() error                   { return nil }
