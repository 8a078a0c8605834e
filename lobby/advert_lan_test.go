package lobby

import (
	"bytes"
	"context"
	"crypto/rand"
	"slices"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// smallerKey is a key whose peer ID sorts below every one of ids: the
// ID the old lobby gave the table to.
func smallerKey(t *testing.T, ids ...peer.ID) (crypto.PrivKey, peer.ID) {
	t.Helper()
	for range 10000 {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		if !slices.ContainsFunc(ids, func(o peer.ID) bool { return o <= id }) {
			return k, id
		}
	}
	t.Fatal("no smaller peer ID found")
	return nil, ""
}

// waitAdvert waits until d lists an advert that ok accepts.
func waitAdvert(t *testing.T, ctx context.Context, d *p2p.Discovery, what string, ok func(p2p.Advert) bool) {
	t.Helper()
	for !slices.ContainsFunc(d.Peers(), ok) {
		select {
		case <-ctx.Done():
			t.Fatalf("discovery never listed %s", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// runAll runs each peer's lobby and returns their results, failing on
// any error.
func runAll(t *testing.T, ctx context.Context, ps []lobbyPeer, cfgs []Config) []Result {
	t.Helper()
	res := make([]Result, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		cfgs[i].Logger = p2ptest.Logger(t)
		wg.Go(func() { res[i], errs[i] = Run(ctx, p.t, p.d, nil, cfgs[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	return res
}

// sameGame checks that every result is one game seating exactly want.
func sameGame(t *testing.T, res []Result, want ...peer.ID) {
	t.Helper()
	for i, r := range res {
		if !bytes.Equal(r.Setup.Encode(), res[0].Setup.Encode()) {
			t.Fatalf("peer %d left the lobby with another game", i)
		}
	}
	got := res[0].Setup.Players()
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("the game seats %v, want %v", got, want)
	}
}

// An advert is a hint: one naming a host of the lobby, with the smallest
// peer ID and free seats, with nobody behind it, does not keep three
// honest peers started at once from one table and one game. (The old
// lobby joined the ghost, the smallest ID, and asked it again for ever.)
func TestLobbyGhostAdvertChangesNothing(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ps := []lobbyPeer{newLobbyPeer(t, "A"), newLobbyPeer(t, "B"), newLobbyPeer(t, "C")}
	var honest []peer.ID
	for _, p := range ps {
		honest = append(honest, p.t.Host().ID())
	}
	_, ghost := smallerKey(t, honest...)
	p2ptest.ForgeAdvert(t, p2p.Advert{Version: p2p.ProtocolVersion, ID: ghost, Name: "ghost", Lobby: "haunted", Host: true, Free: 3, Taken: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	for _, p := range ps {
		waitAdvert(t, ctx, p.d, "the ghost", func(a p2p.Advert) bool { return a.ID == ghost })
	}
	cfgs := make([]Config, len(ps))
	for i := range cfgs {
		cfgs[i] = Config{Player: string(rune('A' + i)), Lobby: "haunted", Players: 3, FindFor: time.Second}
	}
	sameGame(t, runAll(t, ctx, ps, cfgs), honest...)
}

// A real host with a smaller peer ID that opens a table of the same name
// pulls no table that has guests away: it shows as a second table, and
// the next joiner sits at the table with more seats taken. (The old
// lobby handed its whole table to the smaller ID.)
func TestLobbySquatterAddsSecondTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	host, first, late := newLobbyPeer(t, "H"), newLobbyPeer(t, "J"), newLobbyPeer(t, "L")
	ids := []peer.ID{host.t.Host().ID(), first.t.Host().ID(), late.t.Host().ID()}
	key, squatID := smallerKey(t, ids...)
	sq := p2p.NewTransport(p2ptest.NewHostKey(t, key), p2ptest.FastConfig(t))
	t.Cleanup(func() { sq.Close() })
	squatter := lobbyPeer{t: sq, d: p2ptest.StartDiscovery(t, sq.Host(), p2p.Advert{Name: "S"})}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()

	// The honest table: its creator and one guest.
	views := make(chan View, 64)
	res := make([]Result, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	wg.Go(func() {
		res[0], errs[0] = Run(ctx, host.t, host.d, nil, Config{Player: "H", Lobby: "friday", Players: 3, Create: true,
			Logger: p2ptest.Logger(t), OnChange: func(v View) { views <- v }})
	})
	wg.Go(func() {
		res[1], errs[1] = Run(ctx, first.t, first.d, nil, Config{Player: "J", Lobby: "friday", FindFor: time.Hour, Logger: p2ptest.Logger(t)})
	})
	for seated := false; !seated; {
		select {
		case v := <-views:
			seated = len(v.Players) == 2
		case <-ctx.Done():
			t.Fatal("the first guest never sat down")
		}
	}

	// The squatter's table of the same name, a real host with the
	// smallest ID, seen by the creator and the late joiner.
	sctx, scancel := context.WithCancel(ctx)
	sdone := make(chan struct{})
	go func() {
		defer close(sdone)
		_, _ = Run(sctx, squatter.t, squatter.d, nil, Config{Player: "S", Lobby: "friday", Players: 3, Create: true, Logger: p2ptest.Logger(t)})
	}()
	defer func() { scancel(); <-sdone }()
	squatting := func(a p2p.Advert) bool { return a.ID == squatID && a.Host && a.Lobby == "friday" }
	waitAdvert(t, ctx, host.d, "the squatter's table", squatting)
	waitAdvert(t, ctx, late.d, "the squatter's table", squatting)
	time.Sleep(gatherAfter + time.Second) // what would follow the advert has had its time

	wg.Go(func() {
		res[2], errs[2] = Run(ctx, late.t, late.d, nil, Config{Player: "L", Lobby: "friday", FindFor: time.Hour, Logger: p2ptest.Logger(t)})
	})
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	sameGame(t, res, ids...)
	// The squatter's table is still there, beside the game: a second one.
	// A peer outside the game asks (the players' transports admit only
	// the game's members now).
	asker := newLobbyPeer(t, "Q")
	p2ptest.ConnectPair(t, asker.t, sq)
	if info, err := Query(ctx, asker.t.Host(), squatID); err != nil || info.Lobby != "friday" || info.Taken != 1 {
		t.Errorf("the squatter's table: %+v, %v; want a second table of one", info, err)
	}
}
