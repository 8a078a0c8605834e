package lobby

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

type lobbyPeer struct {
	t *p2p.Transport
	d *p2p.Discovery
}

func newLobbyPeer(t *testing.T, name string) lobbyPeer {
	tr := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	return lobbyPeer{t: tr, d: p2ptest.StartDiscovery(t, tr.Host(), p2p.Advert{Name: name})}
}

// Three peers started together on one lobby name settle on one host and
// all leave the lobby with the same Setup seating the three of them plus
// the creator's bot.
func TestLobbyAgreesOnSetup(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ps := []lobbyPeer{newLobbyPeer(t, "A"), newLobbyPeer(t, "B"), newLobbyPeer(t, "C")}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]Result, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			res[i], errs[i] = Run(ctx, p.t, p.d, nil, Config{
				Player: string(rune('A' + i)), Lobby: "test", Players: 3, Bots: 1, FindFor: time.Second, Logger: p2ptest.Logger(t)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	want := res[0].Setup.Encode()
	for i, r := range res {
		if !bytes.Equal(r.Setup.Encode(), want) {
			t.Fatalf("peer %d left the lobby with another setup", i)
		}
	}
	s := res[0].Setup
	if len(s.Seats) != 4 || s.Seats[3].Bot == "" || s.Name != "test" {
		t.Fatalf("setup %+v", s)
	}
	players := s.Players()
	for _, p := range ps {
		if !slices.Contains(players, p.t.Host().ID()) {
			t.Errorf("%s not seated", p.t.Host().ID())
		}
	}
	if len(res[1].Names) != 3 {
		t.Errorf("names %v", res[1].Names)
	}
}

// A player who leaves the lobby frees its seat, colour and all, for the
// next one.
func TestLobbyLeaveFreesSeat(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	host, quitter, late := newLobbyPeer(t, "H"), newLobbyPeer(t, "Q"), newLobbyPeer(t, "L")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	views := make(chan View, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, host.t, host.d, nil, Config{Player: "H", Lobby: "seat", Players: 3,
			FindFor: 200 * time.Millisecond, OnChange: func(v View) { views <- v }})
	}()
	waitView := func(what string, ok func(View) bool) {
		t.Helper()
		for {
			select {
			case v := <-views:
				if ok(v) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("host lobby never showed %s", what)
			}
		}
	}
	seated := func(v View, id peer.ID) bool {
		return slices.ContainsFunc(v.Players, func(p Player) bool { return p.ID == id })
	}
	waitView("itself", func(v View) bool { return len(v.Players) == 1 && v.Free == 2 })
	join := func(p lobbyPeer, name string) (context.CancelFunc, chan struct{}) {
		jctx, jcancel := context.WithCancel(ctx)
		jdone := make(chan struct{})
		go func() {
			defer close(jdone)
			Run(jctx, p.t, p.d, nil, Config{Player: name, Lobby: "seat", FindFor: 10 * time.Second})
		}()
		return jcancel, jdone
	}
	qcancel, qdone := join(quitter, "Q")
	var seat engine.Colour
	waitView("the quitter", func(v View) bool {
		p, ok := player(v, quitter.t.Host().ID())
		seat = p.Colour
		return ok && v.Free == 1
	})
	qcancel()
	<-qdone
	quitter.t.Close() // says goodbye
	waitView("the quitter gone, its colour open again", func(v View) bool {
		return len(v.Players) == 1 && v.Free == 2 && slices.Contains(v.Open, seat)
	})
	lcancel, ldone := join(late, "L")
	waitView("the late joiner", func(v View) bool {
		p, ok := player(v, late.t.Host().ID())
		return ok && p.Colour == seat && !seated(v, quitter.t.Host().ID()) && v.Free == 1
	})
	lcancel()
	<-ldone
	cancel()
	<-done
}

// The creator may start before every seat is taken: the open seats are
// left out, and each bot seat flies the kind it was given.
func TestLobbyStartNowLeavesOpenSeatsOut(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	host, joiner := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	startNow := make(chan struct{})
	views := make(chan View, 64)
	cfgs := []Config{
		{Player: "H", Lobby: "early", Players: 3, Bots: 1, BotKinds: []string{"greedy"}, StartNow: startNow,
			FindFor: 100 * time.Millisecond, OnChange: func(v View) { views <- v }, Logger: p2ptest.Logger(t)},
		{Player: "J", Lobby: "early", FindFor: time.Hour, StartNow: startNow, Logger: p2ptest.Logger(t),
			Connect: []peer.AddrInfo{{ID: host.Host().ID(), Addrs: host.Host().Addrs()}}},
	}
	trs := []*p2p.Transport{host, joiner}
	res := make([]Result, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range trs {
		wg.Go(func() { res[i], errs[i] = Run(ctx, trs[i], nil, nil, cfgs[i]) })
	}
	for joined := false; !joined; {
		select {
		case v := <-views:
			joined = len(v.Players) == 2 // one seat is still open
		case <-ctx.Done():
			t.Fatal("the joiner never got in")
		}
	}
	close(startNow)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	s := res[0].Setup
	if !bytes.Equal(s.Encode(), res[1].Setup.Encode()) {
		t.Fatal("the two left the lobby with different setups")
	}
	if len(s.Seats) != 3 || s.Seats[0].Player != host.Host().ID() || s.Seats[1].Player != joiner.Host().ID() || s.Seats[2].Bot != "greedy" {
		t.Fatalf("seats %+v", s.Seats)
	}
}

// Bot kinds are checked before anything goes on the network.
func TestLobbyRejectsBadBotKinds(t *testing.T) {
	for name, cfg := range map[string]Config{
		"unknown kind":   {Lobby: "x", Players: 1, Bots: 1, BotKinds: []string{"nosuchbot"}},
		"more kinds":     {Lobby: "x", Players: 1, Bots: 1, BotKinds: []string{"random", "random"}},
		"bad default":    {Lobby: "x", Players: 1, Bots: 2, BotKinds: []string{"random"}, BotKind: "nosuchbot"},
		"too few seats":  {Lobby: "x", Players: 1},
		"too many seats": {Lobby: "x", Players: 3, Bots: 2},
	} {
		if _, err := Run(context.Background(), nil, nil, nil, cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A joiner that reaches a member rather than the host (it was dialled by
// hand, or it stopped hosting a moment ago) is pointed at the host and
// gets in. The redirect once carried the host's whole roster entry, ready
// flag and all, which the joiner refused as malformed: it never got in.
func TestLobbyMemberRedirectsJoiner(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	trs := []*p2p.Transport{p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addr := func(i int) []peer.AddrInfo {
		return []peer.AddrInfo{{ID: trs[i].Host().ID(), Addrs: trs[i].Host().Addrs()}}
	}
	cfgs := []Config{
		{Player: "Host", Lobby: "relay", Players: 3, Create: true},
		{Player: "Member", Lobby: "relay", Connect: addr(0), FindFor: time.Hour},
		// Knows only the member.
		{Player: "Late", Lobby: "relay", Connect: addr(1), FindFor: time.Hour},
	}
	member := make(chan struct{})
	var once sync.Once
	cfgs[1].OnChange = func(v View) {
		if len(v.Players) == 2 {
			once.Do(func() { close(member) })
		}
	}
	res := make([]Result, len(trs))
	errs := make([]error, len(trs))
	var wg sync.WaitGroup
	for i := range trs {
		if i == 2 {
			select {
			case <-member: // the late joiner asks a peer that is in already
			case <-ctx.Done():
				t.Fatal("the member never got in")
			}
		}
		cfgs[i].Logger = p2ptest.Logger(t)
		wg.Go(func() { res[i], errs[i] = Run(ctx, trs[i], nil, nil, cfgs[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	for i, r := range res {
		if !slices.Contains(r.Setup.Players(), trs[2].Host().ID()) || len(r.Setup.Players()) != 3 {
			t.Errorf("peer %d: the game seats %v, not all three", i, r.Setup.Players())
		}
	}
}

// A creator that moves to another table keeps no table of its own: were
// it still to see itself seated, it would take a join that crossed the
// other's own move for answered and never ask again.
func TestLobbyMoveForgetsOwnTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	tr, other := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	l := &runner{t: tr, cfg: Config{Player: "Big", Lobby: "merge", Players: 4}, self: tr.Host().ID(), log: slog.New(slog.DiscardHandler)}
	l.find.init()
	defer l.find.stop()
	l.create()
	if !l.inRoster() || !l.mayGather() {
		t.Fatal("a new host is not alone in its own lobby")
	}
	l.moveTo(other.Host().ID())
	switch {
	case l.hosting() || l.host != other.Host().ID():
		t.Errorf("after moving: hosting %v, host %s", l.hosting(), l.host)
	case l.inRoster() || len(l.roster) > 0 || len(l.view.Players) > 0:
		t.Errorf("after moving it still holds a table: roster %v, view %+v", l.roster, l.view)
	}
}

// A player asks for a colour (a rematch asks for the one it had): the
// creator sits at its own; a joiner gets the one it asks for if nobody
// holds it when its join arrives, and the next free colour otherwise.
func TestLobbyPreferredColours(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	trs := []*p2p.Transport{p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	host := []peer.AddrInfo{{ID: trs[0].Host().ID(), Addrs: trs[0].Host().Addrs()}}
	cfgs := []Config{
		{Player: "Host", Lobby: "again", Players: 3, Create: true, Prefer: []engine.Colour{engine.Green}},
		{Player: "Late", Lobby: "again", Connect: host, FindFor: time.Hour, Prefer: []engine.Colour{engine.Green}}, // the host's
		{Player: "Back", Lobby: "again", Connect: host, FindFor: time.Hour, Prefer: []engine.Colour{engine.Blue}},
	}
	in := make(chan int, 8)
	cfgs[0].OnChange = func(v View) { in <- len(v.Players) }
	res := make([]Result, len(trs))
	errs := make([]error, len(trs))
	var wg sync.WaitGroup
	for i := range trs {
		cfgs[i].Logger = p2ptest.Logger(t)
		wg.Go(func() { res[i], errs[i] = Run(ctx, trs[i], nil, nil, cfgs[i]) })
		for n := 0; n < i+1; { // one at a time, so the order is known
			select {
			case n = <-in:
			case <-ctx.Done():
				t.Fatalf("player %d never got in", i)
			}
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	at := map[peer.ID]engine.Colour{}
	for _, st := range res[0].Setup.Seats {
		at[st.Player] = st.Colour
	}
	id := func(i int) peer.ID { return trs[i].Host().ID() }
	if at[id(0)] != engine.Green || at[id(2)] != engine.Blue || at[id(1)] == engine.Green || at[id(1)] == engine.Blue {
		t.Fatalf("seats %v: want the host at Green, Back at Blue, Late elsewhere", at)
	}
}
