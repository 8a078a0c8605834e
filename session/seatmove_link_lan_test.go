package session

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/web/client"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A seat move reaches a program that was not connected when it was
// taken: the program holding it tells it to every program that comes up
// (Carl's, away when Wendy moved to Bob's, routes her through Bob's once
// it connects). And a game made again from its saved seat hosts and
// statements (a program resumed after a crash) routes and relays the
// moved seat as it was, and still refuses an older statement.
func TestSeatMoveToldAndResumedLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	bobKey, carlKey := testkit.Key(81), testkit.Key(82)
	bobT, carlT := seatTestTransport(t, bobKey), seatTestTransport(t, carlKey)
	ann, bob, carl := testkit.ID(80), testkit.ID(81), testkit.ID(82)
	wendy, err := client.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "moved", Rules: engine.DefaultRules(), Nonce: [16]byte{3}}
	for i, id := range []peer.ID{ann, bob, carl, wendy.ID} {
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: id})
	}
	hosts := map[peer.ID]peer.ID{wendy.ID: ann}
	older, err1 := wendy.SignSeatMove(client.SeatMove{Game: setup.GameID(), Seat: wendy.ID, Host: ann, Counter: 5})
	stmt, err2 := wendy.SignSeatMove(client.SeatMove{Game: setup.GameID(), Seat: wendy.ID, Host: bob, Counter: 9})
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	var bg sync.WaitGroup
	defer bg.Wait()
	defer cancel()
	links := map[peer.ID]*TransportLink{}
	for id, tr := range map[peer.ID]*p2p.Transport{bob: bobT, carl: carlT} {
		l := NewTransportLink(tr, nil, nil, nil)
		l.SetSeatHosts(hosts)
		l.takeMoves(setup, nil)
		links[id] = l
		bg.Go(func() { l.run(ctx) })
	}
	if _, err := links[bob].moveSeat(stmt, ""); err != nil {
		t.Fatalf("Bob's program took Wendy's move: %v", err)
	}
	if h := links[carl].hostOf(wendy.ID); h != ann {
		t.Fatalf("Carl's program, not yet connected, routes Wendy through %s", h)
	}
	p2ptest.ConnectPair(t, bobT, carlT)
	for deadline := time.Now().Add(10 * time.Second); links[carl].hostOf(wendy.ID) != bob; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Carl's program was never told Wendy's move on coming up")
		}
	}
	if n := links[carl].MovesRefused.Load(); n != 0 {
		t.Errorf("Carl's program refused %d moves", n)
	}

	// Bob's program, resumed: the saved hosts already name it; the saved
	// statement is taken again, so the older one is still refused.
	bobAgain := seatTestTransport(t, bobKey)
	relayed := make(chan peer.ID, 1)
	g, err := NewGame(bobAgain, GameConfig{Setup: setup, Key: bobKey, Log: client.NewMemLog(),
		SeatHosts: map[peer.ID]peer.ID{wendy.ID: bob}, SeatMoves: [][]byte{stmt}, AcceptSeats: true,
		Relay: func(ctx context.Context, seat peer.ID, _ lockstep.Link) { relayed <- seat; <-ctx.Done() }})
	if err != nil {
		t.Fatal(err)
	}
	if h := g.link.hostOf(wendy.ID); h != bob {
		t.Fatalf("the resumed program routes Wendy through %s", h)
	}
	if _, err := g.link.moveSeat(older, ""); !errors.Is(err, errMoveStale) {
		t.Errorf("the resumed program took an older statement: %v", err)
	}
	gctx, gstop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _, _ = g.Run(gctx); close(done) }()
	select {
	case seat := <-relayed:
		if seat != wendy.ID {
			t.Errorf("the resumed program relays %s", seat)
		}
	case <-ctx.Done():
		t.Fatal("the resumed program never relays Wendy's seat")
	}
	gstop()
	<-done
}
