package lobby

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// seatedLobby is a lobby of players who press their keys: the first
// creates the game (three player seats), the others join it by address,
// each with a control and the views its lobby shows.
type seatedLobby struct {
	t     *testing.T
	ctx   context.Context
	trs   []*p2p.Transport
	ctl   []*Control
	views []chan View
	res   []Result
	errs  []error
	wg    sync.WaitGroup
	full  View // the creator's first view with everyone in
	quit  []context.CancelFunc
	done  []chan struct{} // closed when peer i's Run has returned
}

var seatNames = []string{"Hana", "Arno", "Bea"}

func newSeatedLobby(t *testing.T, ctx context.Context, n int) *seatedLobby {
	return newSeatedLobbyOf(t, ctx, n, n)
}

// newSeatedLobbyOf is newSeatedLobby at a table of seats player seats.
func newSeatedLobbyOf(t *testing.T, ctx context.Context, n, seats int) *seatedLobby {
	s := &seatedLobby{t: t, ctx: ctx, res: make([]Result, n), errs: make([]error, n)}
	for i := 0; i < n; i++ {
		s.trs = append(s.trs, p2ptest.NewTransport(t, p2ptest.FastConfig(t)))
		s.views = append(s.views, make(chan View, 256))
		s.ctl = append(s.ctl, NewControl(nil))
		s.done = append(s.done, make(chan struct{}))
	}
	for i := 0; i < n; i++ {
		cfg := Config{Player: seatNames[i], Lobby: "seats", ManualReady: true, Control: s.ctl[i], Logger: p2ptest.Logger(t),
			OnChange: func(v View) { s.views[i] <- v }}
		if i == 0 {
			cfg.Players, cfg.Create = seats, true
		} else {
			cfg.FindFor = time.Hour
			cfg.Connect = []peer.AddrInfo{{ID: s.trs[0].Host().ID(), Addrs: s.trs[0].Host().Addrs()}}
		}
		pctx, quit := context.WithCancel(ctx)
		s.quit = append(s.quit, quit)
		s.wg.Go(func() {
			defer close(s.done[i])
			s.res[i], s.errs[i] = Run(pctx, s.trs[i], nil, nil, cfg)
		})
	}
	s.full = s.wait(0, "everyone in", func(v View) bool { return len(v.Players) == n })
	for i := 1; i < n; i++ {
		s.wait(i, "everyone in", func(v View) bool { return len(v.Players) == n })
	}
	return s
}

func (s *seatedLobby) id(i int) peer.ID { return s.trs[i].Host().ID() }

// wait reads peer i's views until ok holds, and returns that view.
func (s *seatedLobby) wait(i int, what string, ok func(View) bool) View {
	s.t.Helper()
	for {
		select {
		case v := <-s.views[i]:
			if ok(v) {
				return v
			}
		case <-s.ctx.Done():
			s.t.Fatalf("peer %d never showed %s", i, what)
		}
	}
}

func player(v View, id peer.ID) (Player, bool) {
	i := slices.IndexFunc(v.Players, func(p Player) bool { return p.ID == id })
	if i < 0 {
		return Player{}, false
	}
	return v.Players[i], true
}

func (s *seatedLobby) colourOf(v View, i int) engine.Colour {
	p, _ := player(v, s.id(i))
	return p.Colour
}

func (s *seatedLobby) ready(v View, i int) bool {
	p, _ := player(v, s.id(i))
	return p.Ready
}

// Players join at the colours the layout gives them; two asking for the
// same free colour at once are settled by the creator's lobby: exactly
// one gets it, the other keeps its seat, and every player sees one table.
func TestLobbyColourConflictFirstComeWins(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSeatedLobby(t, ctx, 3)
	v := s.full
	before := map[engine.Colour]bool{}
	for i := range 3 {
		before[s.colourOf(v, i)] = true
	}
	if !before[engine.Red] || !before[engine.Blue] || !before[engine.Yellow] || len(v.Open) != 0 || v.Free != 0 {
		t.Fatalf("three players sit at %v, open %v, free %d; want Red, Blue, Yellow and no open seat", before, v.Open, v.Free)
	}
	was := []engine.Colour{s.colourOf(v, 1), s.colourOf(v, 2)}
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Go(func() {
			if err := s.ctl[i].ChooseColour(engine.Green); err != nil && !errors.Is(err, ErrSeatTaken) {
				t.Errorf("peer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	atGreen := func(v View) bool { return s.colourOf(v, 1) == engine.Green || s.colourOf(v, 2) == engine.Green }
	for i := 1; i <= 2; i++ {
		// A ready is for the table the player saw: say it on the new one.
		s.wait(i, "someone at Green", atGreen)
		// Sent after the colour on the same stream, so the creator has
		// settled this player's request when it shows it ready.
		if err := s.ctl[i].SetReady(true); err != nil {
			t.Errorf("peer %d ready: %v", i, err)
		}
	}
	v = s.wait(0, "both joiners ready", func(v View) bool { return s.ready(v, 1) && s.ready(v, 2) })
	got := []engine.Colour{s.colourOf(v, 1), s.colourOf(v, 2)}
	switch {
	case got[0] == engine.Green && got[1] == was[1]:
	case got[1] == engine.Green && got[0] == was[0]:
	default:
		t.Fatalf("after both asked for Green the joiners sit at %v (were at %v): want exactly one at Green, the other unmoved", got, was)
	}
	if s.ready(v, 0) {
		t.Error("the creator is ready without saying so")
	}
	for i := 1; i <= 2; i++ {
		s.wait(i, "the creator's table", func(w View) bool {
			return s.colourOf(w, 1) == got[0] && s.colourOf(w, 2) == got[1] && s.ready(w, 1) && s.ready(w, 2)
		})
	}
	cancel()
	s.wg.Wait()
}

// The game starts only when every seated player is ready: the creator's
// start names who is not; any change of seats or rules clears every
// ready; bot seats and rules set by the creator reach the joiners and the
// Setup, and every player sits at the colour it chose.
func TestLobbyReadyGatesStart(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSeatedLobby(t, ctx, 3)
	if err := s.ctl[1].SetSeat(engine.Green, "random"); !errors.Is(err, ErrNotCreator) {
		t.Errorf("a joiner set a bot seat: %v", err)
	}
	if err := s.ctl[1].Start(); !errors.Is(err, ErrNotCreator) {
		t.Errorf("a joiner started: %v", err)
	}
	if err := s.ctl[0].SetSeat(engine.Green, "random"); err != nil {
		t.Fatal(err)
	}
	s.wait(1, "the bot seat", func(v View) bool { return v.Bots[engine.Green] == "random" && len(v.Open) == 0 })
	if err := s.ctl[1].ChooseColour(engine.Green); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("a joiner took the bot's colour: %v", err)
	}
	if err := s.ctl[1].SetReady(true); err != nil {
		t.Fatal(err)
	}
	s.wait(0, "Arno ready", func(v View) bool { return s.ready(v, 1) })
	err := s.ctl[0].Start()
	if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "Bea") || strings.Contains(err.Error(), "Arno") {
		t.Fatalf("start with Bea not ready: %v, want ErrNotReady naming Bea only", err)
	}
	s.wait(2, "the creator ready after its start", func(v View) bool { return s.ready(v, 0) && s.ready(v, 1) && !s.ready(v, 2) })

	// Opening the bot's seat again is a change: nobody is ready any more.
	if err := s.ctl[0].SetSeat(engine.Green, ""); err != nil {
		t.Fatal(err)
	}
	v := s.wait(1, "the seat open and every ready cleared", func(v View) bool {
		return v.Bots[engine.Green] == "" && v.Free == 1 && !s.ready(v, 0) && !s.ready(v, 1)
	})
	if !slices.Equal(v.Open, []engine.Colour{engine.Green}) {
		t.Errorf("open seats %v, want Green", v.Open)
	}
	rules := engine.Rules{Takeoff: engine.TakeoffSix, FlyJump: true}
	if err := s.ctl[0].SetRules(rules); err != nil {
		t.Fatal(err)
	}
	s.wait(2, "the new rules", func(v View) bool { return v.Rules == rules })
	bea := s.colourOf(v, 2)
	if err := s.ctl[2].ChooseColour(engine.Green); err != nil {
		t.Fatal(err)
	}
	s.wait(0, "Bea at Green", func(v View) bool { return s.colourOf(v, 2) == engine.Green })
	s.wait(1, "Bea's old seat open", func(v View) bool { return slices.Equal(v.Open, []engine.Colour{bea}) })
	s.wait(2, "Bea at Green", func(v View) bool { return s.colourOf(v, 2) == engine.Green })
	for i := 1; i <= 2; i++ {
		if err := s.ctl[i].SetReady(true); err != nil {
			t.Fatal(err)
		}
	}
	v = s.wait(0, "both joiners ready", func(v View) bool { return s.ready(v, 1) && s.ready(v, 2) })
	colours := []engine.Colour{s.colourOf(v, 0), s.colourOf(v, 1), engine.Green}
	// A seat is still open, so only the creator's start starts the game.
	if err := s.ctl[0].Start(); err != nil {
		t.Fatalf("start with everyone ready: %v", err)
	}
	s.wg.Wait()
	for i, err := range s.errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	setup := s.res[0].Setup
	for i := 1; i < 3; i++ {
		if !bytes.Equal(s.res[i].Setup.Encode(), setup.Encode()) {
			t.Fatalf("peer %d left with another setup", i)
		}
	}
	if len(setup.Seats) != 3 || setup.Rules != rules {
		t.Fatalf("setup %+v, want 3 seats and rules %v", setup, rules)
	}
	for i, c := range colours {
		if !slices.ContainsFunc(setup.Seats, func(st lockstep.Seat) bool { return st.Colour == c && st.Player == s.id(i) }) {
			t.Errorf("%s is not at %s in %+v", seatNames[i], c, setup.Seats)
		}
	}
	if err := s.ctl[1].SetReady(false); !errors.Is(err, ErrGone) {
		t.Errorf("control after the lobby: %v", err)
	}
}

// A peer reached only by address is asked for its game: while it creates
// one it names the lobby, its seats and rules; once the game starts it
// names none.
func TestQueryLobby(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	host, asker := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	p2ptest.ConnectPair(t, asker, host)
	if _, err := Query(ctx, asker.Host(), host.Host().ID()); err == nil {
		t.Fatal("a peer outside any lobby named a game")
	}
	rules := engine.Rules{Takeoff: engine.TakeoffFiveSix}
	ctl := NewControl(nil)
	views := make(chan View, 64)
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, host, nil, nil, Config{Player: "Ada", Lobby: "friday", Players: 3, Bots: 1, Rules: rules,
			Create: true, Control: ctl, OnChange: func(v View) { views <- v }, Logger: p2ptest.Logger(t)})
		done <- err
	}()
	<-views
	info, err := Query(ctx, asker.Host(), host.Host().ID())
	if err != nil || info.Draw == 0 || info != (Info{Lobby: "friday", Name: "Ada", Free: 2, Taken: 2, Rules: rules, Draw: info.Draw}) {
		t.Fatalf("info %+v, %v", info, err)
	}
	if err := ctl.SetSeat(engine.Blue, "greedy"); err != nil {
		t.Fatal(err)
	}
	<-views
	if info, err := Query(ctx, asker.Host(), host.Host().ID()); err != nil || info.Free != 1 || info.Taken != 3 {
		t.Fatalf("after a bot took a seat: %+v, %v", info, err)
	}
	if _, err := decodeInfo(encodeLobbyMsg(lobbyMsg{T: lobbyFull, Lobby: "friday"})); !errors.Is(err, errLobbyMsg) {
		t.Errorf("a full message read as game info: %v", err)
	}
	cancel()
	<-done
}

// A player who leaves the lobby but stays connected (it goes to another
// game) frees its seat at once, and every ready is cleared; when the
// creator leaves, its players see the lobby gone.
func TestLobbyLeaveWhileConnected(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSeatedLobby(t, ctx, 3)
	bea := s.colourOf(s.full, 2)
	if err := s.ctl[1].SetReady(true); err != nil {
		t.Fatal(err)
	}
	s.wait(0, "Arno ready", func(v View) bool { return s.ready(v, 1) })
	s.quit[2]()
	v := s.wait(1, "Bea's seat free", func(v View) bool { return len(v.Players) == 2 })
	if !slices.Equal(v.Open, []engine.Colour{bea}) || v.Free != 1 || s.ready(v, 1) {
		t.Errorf("after Bea left: open %v, free %d, Arno ready %v; want her colour %s open and no ready", v.Open, v.Free, s.ready(v, 1), bea)
	}
	if !s.trs[0].Connected(s.id(2)) {
		t.Error("the test meant Bea to stay connected")
	}
	s.quit[0]()
	s.wait(1, "the lobby gone", func(v View) bool { return len(v.Players) == 0 && v.Host == "" })
	cancel()
	s.wg.Wait()
}
