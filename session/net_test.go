package session

import (
	"errors"
	"log/slog"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"
)

func newNetTest(t *testing.T, name string) *NetSession {
	return newNetTestOpts(t, name, false)
}

func newNetTestOpts(t *testing.T, name string, noDiscovery bool) *NetSession {
	t.Helper()
	return newNetTestWith(t, name, func(o *NetOptions) { o.NoDiscovery = noDiscovery })
}

func newNetTestWith(t *testing.T, name string, tune func(*NetOptions)) *NetSession {
	t.Helper()
	_, key := newID(t)
	var logger *slog.Logger
	if os.Getenv("NETSESSION_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})).With("who", name)
	}
	opts := NetOptions{Name: name, DataDir: t.TempDir(), Key: key, Logger: logger,
		ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)},
		Transport: p2p.TransportConfig{Heartbeat: 100 * time.Millisecond},
		Linger:    300 * time.Millisecond}
	tune(&opts)
	s, err := NewNet(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		for range s.Events() {
		}
	})
	return s
}

// netPlayer is a scripted person at one peer: it chooses the first move,
// optionally acts on events, and records what it saw.
type netPlayer struct {
	s      *NetSession
	c      *checker
	chats  []ui.ChatLine
	tables []ui.TableUpdate
	over   ui.GameOver
	err    error
}

func (p *netPlayer) run(t *testing.T, onEvent func(ui.Event), done chan<- *netPlayer) {
	defer func() { done <- p }()
	for e := range p.s.Events() {
		if onEvent != nil {
			onEvent(e)
		}
		switch e := e.(type) {
		case ui.TableUpdate:
			p.tables = append(p.tables, e)
			p.sayReady(t, e)
		case ui.ChatLine:
			p.chats = append(p.chats, e)
		case ui.Rolled:
			if e.YouChoose {
				p.c.youChose++
				if err := p.s.Choose(e.Moves[0]); err != nil {
					p.err = err
					return
				}
			}
		case ui.GameOver:
			p.over = e
			return
		}
		if _, ok := e.(ui.Notice); !ok {
			p.c.see(e)
		}
	}
	p.err = errors.New("events closed before the end")
}

// sayReady presses ready whenever the lobby shows this player seated and
// not ready (every change of the table clears it); the creator's game
// then starts by itself once its seats are full.
func (p *netPlayer) sayReady(t *testing.T, e ui.TableUpdate) {
	if e.Started {
		return
	}
	for _, st := range e.Seats {
		if st.You && st.Kind == ui.SeatHuman && !st.Ready {
			// A table seen late (the game began meanwhile) is refused:
			// harmless, and a ready that never arrives shows as a hang.
			if err := p.s.SetReady(true); err != nil {
				t.Logf("%s ready: %v", p.s.name, err)
			}
		}
	}
}

// Two people on two peers of a private LAN: one creates a game with two
// bot seats, the other finds it by mDNS and joins; both play to the end
// through ui.Session, chat, and their logs verify to the same history.
func TestNetGameOverLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	rules, err := engine.ParseRules("flyjump=on")
	if err != nil {
		t.Fatal(err)
	}
	openTable(t, a, rules)
	if err := a.SetSeat(engine.Red, "random"); err == nil {
		t.Fatal("the creator gave its own seat away")
	}
	if err := b.SetSeat(engine.Blue, "random"); err == nil {
		t.Fatal("a player who created nothing set a seat")
	}
	for _, c := range []engine.Colour{engine.Red, engine.Blue} { // its own seat, an open one
		if err := a.RemoveSeat(c); err == nil {
			t.Fatalf("the creator removed the player at %s", c)
		}
	}
	if err := b.RemoveSeat(engine.Red); err == nil {
		t.Fatal("a player who created nothing removed a seat")
	}

	chatted, joined := false, false
	pa, pb := playBoth(t, a, b, func(e ui.Event) {
		if _, ok := e.(ui.GameStarted); ok && !chatted {
			chatted = true
			if err := a.Chat("good luck"); err != nil {
				t.Errorf("chat: %v", err)
			}
		}
	}, func(e ui.Event) {
		g, ok := gameOf(e, a)
		if !ok || joined {
			return
		}
		// The listing, from Ann's advert alone, shows her table: her
		// rules, four seats, Ann and 0-2 bots in.
		if g.Rules != rules || g.Seats != engine.NumColours || g.Taken < 1 || g.Taken > 3 {
			t.Errorf("Bob's listing of Ann's game: rules %s, %d of %d seats taken; want rules %s, 1-3 of 4", g.Rules, g.Taken, g.Seats, rules)
		}
		joined = true
		if err := b.Join(g.ID); err != nil {
			t.Errorf("join: %v", err)
		}
		if err := b.Roll(); err == nil {
			t.Errorf("Roll accepted in a lobby")
		}
	})
	checkBoth(t, pa, pb)
	if len(pb.chats) == 0 || pb.chats[0].From != "Ann" || pb.chats[0].Text != "good luck" || pb.chats[0].Colour != engine.Red {
		t.Fatalf("Bob's chat: %+v", pb.chats)
	}
	t.Logf("%d rolls; Ann chose %d times, Bob %d; ranking %v", pa.c.rolls, pa.c.youChose, pb.c.youChose, pa.over.Ranking)
}

// playBoth runs both players to the end of a game.
func playBoth(t *testing.T, a, b *NetSession, onA, onB func(ui.Event)) (pa, pb *netPlayer) {
	t.Helper()
	return playBothAt(t, a, b, engine.Red, engine.Blue, onA, onB)
}

// playBothAt is playBoth with a sitting at colour ca and b at cb.
func playBothAt(t *testing.T, a, b *NetSession, ca, cb engine.Colour, onA, onB func(ui.Event)) (pa, pb *netPlayer) {
	t.Helper()
	done := make(chan *netPlayer, 2)
	pa = &netPlayer{s: a, c: &checker{t: t, you: ca, autoRoll: true}}
	pb = &netPlayer{s: b, c: &checker{t: t, you: cb, autoRoll: true}}
	go pa.run(t, onA, done)
	go pb.run(t, onB, done)
	deadline := time.After(2 * time.Minute) // a hang guard, not a speed claim
	for range 2 {
		select {
		case p := <-done:
			if p.err != nil {
				t.Fatalf("%s: %v", p.s.name, p.err)
			}
		case <-deadline:
			t.Fatal("the game did not end")
		}
	}
	return pa, pb
}

// checkBoth compares the two players' ends and verifies their logs.
func checkBoth(t *testing.T, pa, pb *netPlayer) {
	t.Helper()
	if !reflect.DeepEqual(pa.over.Ranking, pb.over.Ranking) || len(pa.over.Ranking) != 4 {
		t.Fatalf("rankings differ: %v and %v", pa.over.Ranking, pb.over.Ranking)
	}
	var hist [2][32]byte
	for i, p := range []*netPlayer{pa, pb} {
		data, err := os.ReadFile(p.over.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		v, err := lockstep.Verify(data)
		if err != nil {
			t.Fatalf("%s's log does not verify: %v", p.s.name, err)
		}
		if v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 || v.Rolls != uint64(p.c.rolls) {
			t.Fatalf("%s's log: phase %s, cheats %v, %d rolls (saw %d)", p.s.name, v.Phase, v.Cheats, v.Rolls, p.c.rolls)
		}
		hist[i] = v.History
		last := p.tables[len(p.tables)-1]
		if !last.Started || last.Seats[p.c.you].Kind != ui.SeatHuman || !last.Seats[p.c.you].You ||
			last.Seats[engine.Yellow].Kind != ui.SeatBot || last.Host != (i == 0) {
			t.Fatalf("%s's table at the start: %+v", p.s.name, last)
		}
	}
	if hist[0] != hist[1] {
		t.Fatalf("the two logs end in different histories")
	}
	if pa.c.youChose+pb.c.youChose == 0 {
		t.Fatal("nobody was ever asked to choose")
	}
}

// After a game both players ask for a rematch and play it too, each at
// the colour it had (Ann moved to Green, Bob was seated at Red: a plain
// new lobby would seat the creator at Red); commands that make no sense
// are refused on the way.
func TestNetRematchAndRefusals(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	for name, cmd := range map[string]func() error{
		"Rematch before any game": b.Rematch,
		"Start without a game":    b.Start,
		"Choose without a game":   func() error { return b.Choose(engine.Move{Kind: engine.Pass}) },
		"Roll without a game":     b.Roll,
		"empty name":              func() error { return b.SetName("  ") },
		"Join a bad name":         func() error { return b.Join("\x1b[2J") },
	} {
		if err := cmd(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := a.ChooseColour(engine.Green); err != nil {
		t.Fatal(err)
	}
	for c, k := range map[engine.Colour]string{engine.Yellow: "greedy", engine.Blue: "random"} {
		if err := a.SetSeat(c, k); err != nil {
			t.Fatal(err)
		}
	}
	badChoice := engine.Move{Kind: engine.PlaneMove, Colour: engine.Green, Plane: 3}
	refused, join := 0, joinOnce(t, a, b)
	onB := func(e ui.Event) {
		join(e)
		if _, ok := e.(ui.Rolled); ok {
			// Bob is Red: a Green plane is never his to move.
			if err := b.Choose(badChoice); err == nil {
				t.Errorf("Choose %v accepted", badChoice)
			}
			refused++
		}
	}
	pa, pb := playBothAt(t, a, b, engine.Green, engine.Red, nil, onB)
	checkBoth(t, pa, pb)
	if refused == 0 {
		t.Fatal("never tried a wrong choice")
	}
	first := pa.over.LogPath
	if err := a.SetSeat(engine.Blue, "random"); err == nil {
		t.Fatal("changed a seat of a finished game")
	}
	// Asked at once, while p2p still lingers: both are queued.
	if err := b.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	pa, pb = playBothAt(t, a, b, engine.Green, engine.Red, nil, nil)
	checkBoth(t, pa, pb)
	// Both landed at the rematch's table before it started, with the
	// same seats and rules (the interface leaves the finished board for
	// it: ui's TestRematchTableLeavesTheBoard).
	for _, p := range []*netPlayer{pa, pb} {
		var at *ui.TableUpdate
		for i := range p.tables {
			if !p.tables[i].Started {
				at = &p.tables[i]
				break
			}
		}
		switch {
		case at == nil:
			t.Fatalf("%s never saw the rematch's table", p.s.name)
		case at.Rules != engine.DefaultRules() || at.Seats[engine.Yellow].Name != "greedy" || at.Seats[engine.Blue].Name != "random":
			t.Fatalf("%s's rematch table: %+v", p.s.name, *at)
		}
	}
	if pa.over.LogPath == first {
		t.Fatal("the rematch wrote over the first game's log")
	}
}

// Without multicast a peer is reached by the address it shows; the lobby
// then lists it, and a bad address is reported, not fatal.
func TestNetManualConnect(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTestOpts(t, "Ann", true), newNetTestOpts(t, "Bob", true)
	if err := b.Connect("nowhere:1"); err != nil {
		t.Fatal(err)
	}
	if err := b.Connect(a.Addrs()[0]); err != nil {
		t.Fatal(err)
	}
	var failed, connected, listed bool
	deadline := time.After(20 * time.Second) // a hang guard, not a speed claim
	for !(failed && connected && listed) {
		select {
		case e := <-b.Events():
			switch e := e.(type) {
			case ui.Notice:
				failed = failed || strings.HasPrefix(e.Msg.String(), "Cannot connect to nowhere:1")
				connected = connected || e.Msg.String() == "Connected to "+a.Addrs()[0]+"."
			case ui.LobbyUpdate:
				if e.Me.Addr != b.Addrs()[0] || e.Me.Name != "Bob" {
					t.Fatalf("Me = %+v", e.Me)
				}
				for _, p := range e.Players {
					listed = listed || p.ID == a.ID().String()
				}
			}
		case <-deadline:
			t.Fatalf("failed %v, connected %v, listed %v", failed, connected, listed)
		}
	}
}

// The default `aeroplane` is networked: a person alone gives every other
// seat to a bot and plays at once, through p2p, to a log that verifies.
func TestNetAloneWithBots(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	if err := a.Start(); err == nil {
		t.Fatal("started without creating a game")
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	// Alone, without a bot, there is no game to start; creating another
	// game leaves that lobby.
	if err := a.Start(); err == nil || !errors.Is(err, lobby.ErrTooFew) || !strings.Contains(err.Error(), "Nobody has joined") {
		t.Fatalf("started alone: %v", err)
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Blue, engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "random"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.SetSeat(engine.Green, ""); err != nil { // and back: an open seat waits for a person
		t.Fatal(err)
	}
	if err := a.SetSeat(engine.Green, "random"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSeat(engine.Red, "random"); !errors.Is(err, lobby.ErrSeatTaken) {
		t.Fatalf("gave the creator's own seat to a bot: %v", err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	p := &netPlayer{s: a, c: &checker{t: t, you: engine.Red, autoRoll: true}}
	done := make(chan *netPlayer, 1)
	go p.run(t, nil, done)
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a hang guard, not a speed claim
		t.Fatal("the game did not end")
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	data, err := os.ReadFile(p.over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || len(v.Setup.Players()) != 1 || len(v.Setup.Seats) != 4 {
		t.Fatalf("log: %v; %+v", err, v)
	}
}

// Without multicast, a player who connected to the creator by address
// joins its game by name and both play it to the same end.
func TestNetManualJoinPlays(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTestOpts(t, "Ann", true), newNetTestOpts(t, "Bob", true)
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "random"); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Connect(a.Addrs()[0]); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // a hang guard, not a speed claim
	lobby := createdGame(t, a, deadline)
	for connected := false; !connected; {
		select {
		case e := <-b.Events():
			if n, ok := e.(ui.Notice); ok {
				if !strings.HasPrefix(n.Msg.String(), "Connected to") {
					t.Fatalf("connect: %s", n.Msg.String())
				}
				connected = true
			}
		case <-deadline:
			t.Fatal("never connected")
		}
	}
	// Without mDNS the listing comes from Ann's answer to lobby.Query:
	// her table, Ann and 0-2 bots in, four seats.
	for listed := false; !listed; {
		select {
		case e := <-b.Events():
			u, ok := e.(ui.LobbyUpdate)
			if !ok {
				continue
			}
			for _, g := range u.Games {
				if g.Host.ID == a.ID().String() {
					listed = true
					if g.Seats != engine.NumColours || g.Taken < 1 || g.Taken > 3 {
						t.Errorf("Bob's listing of Ann's game: %d of %d seats taken, want 1-3 of 4", g.Taken, g.Seats)
					}
				}
			}
		case <-deadline:
			t.Fatal("Ann's game never listed")
		}
	}
	if err := b.Join(lobby); err != nil {
		t.Fatal(err)
	}
	pa, pb := playBoth(t, a, b, nil, nil)
	checkBoth(t, pa, pb)
}

// The creator may start before every seat is taken: the open seats are
// left out and each bot seat flies the kind it was given; with nobody in
// and no bot, starting early is refused.
func TestNetStartEarly(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err == nil {
		t.Fatal("started early alone, without a bot")
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for c, k := range map[engine.Colour]string{engine.Yellow: "greedy", engine.Green: "random"} {
		if err := a.SetSeat(c, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Start(); err != nil { // Blue stays open
		t.Fatal(err)
	}
	if err := a.Start(); err != nil { // pressed again while it starts: harmless
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // a hang guard, not a speed claim
	for {
		select {
		case e := <-a.Events():
			u, ok := e.(ui.TableUpdate)
			if !ok || !u.Started {
				continue
			}
			// Three seats, each bot at the colour it was given.
			want := [engine.NumColours]ui.Seat{
				engine.Red:    {Kind: ui.SeatHuman, Name: "Ann", PeerID: a.ID().String(), You: true, Present: true, Ready: true},
				engine.Yellow: {Kind: ui.SeatBot, Name: "greedy", Present: true, Ready: true},
				engine.Green:  {Kind: ui.SeatBot, Name: "random", Present: true, Ready: true},
			}
			if u.Seats != want {
				t.Fatalf("seats %+v", u.Seats)
			}
			return
		case <-deadline:
			t.Fatal("the game never started")
		}
	}
}

// The creator changes the rules at the table (nobody else may); the table
// shows them, and the game is played under them.
func TestNetRulesAtTheTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	if err := a.SetRules(engine.DefaultRules()); err == nil {
		t.Fatal("rules changed before any game was created")
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSeat(engine.Yellow, "random"); err != nil {
		t.Fatal(err)
	}
	rules, _ := engine.ParseRules("takeoff=fivesix,overshoot=stay")
	if err := a.SetRules(rules); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // a hang guard, not a speed claim
	shown := false
	for {
		select {
		case e := <-a.Events():
			switch e := e.(type) {
			case ui.TableUpdate:
				if !e.Started && e.Rules == rules && !shown {
					shown = true
					if err := a.Start(); err != nil {
						t.Fatal(err)
					}
				}
			case ui.GameStarted:
				if !shown || e.Rules != rules {
					t.Fatalf("the game started with rules %s (table showed them: %v), want %s", e.Rules, shown, rules)
				}
				if err := a.SetRules(engine.DefaultRules()); err == nil {
					t.Fatal("the rules changed during the game")
				}
				return
			}
		case <-deadline:
			t.Fatalf("no game under the table's rules (table showed them: %v)", shown)
		}
	}
}

// Without multicast, a game is still listed by its name: to a player who
// connected to its creator, and to one the creator connected to, who is
// told so and joins it from the lobby.
func TestNetGameListedByAddress(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b, c := newNetTestOpts(t, "Ann", true), newNetTestOpts(t, "Bob", true), newNetTestOpts(t, "Cy", true)
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSeat(engine.Green, "random"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // a hang guard, not a speed claim
	lobby := createdGame(t, a, deadline)
	listed := func(s *NetSession, who string, needNotice bool) {
		t.Helper()
		var told, seen bool
		for !seen || (needNotice && !told) {
			select {
			case e := <-s.Events():
				switch e := e.(type) {
				case ui.Notice:
					told = told || strings.Contains(e.Msg.String(), "Ann connected to you") && strings.Contains(e.Msg.String(), lobby)
				case ui.LobbyUpdate:
					for _, g := range e.Games {
						seen = seen || (g.ID == lobby && g.Host.ID == a.ID().String() && g.Host.Name == "Ann")
					}
				}
			case <-deadline:
				t.Fatalf("%s: game listed %v, told %v", who, seen, told)
			}
		}
	}
	if err := b.Connect(a.Addrs()[0]); err != nil {
		t.Fatal(err)
	}
	listed(b, "Bob, who dialled Ann", false)
	if err := a.Connect(c.Addrs()[0]); err != nil {
		t.Fatal(err)
	}
	listed(c, "Cy, whom Ann dialled", true)
	if err := c.Join(lobby); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case e := <-c.Events():
			if u, ok := e.(ui.TableUpdate); ok && u.Seats[engine.Blue].You && !u.Started {
				return // seated at the first free colour of Ann's game
			}
		case <-deadline:
			t.Fatal("Cy never sat at Ann's table")
		}
	}
}

// createdGame waits for the table of the game s created and returns its ID.
func createdGame(t *testing.T, s *NetSession, deadline <-chan time.Time) string {
	t.Helper()
	for {
		select {
		case e := <-s.Events():
			if u, ok := e.(ui.TableUpdate); ok && u.GameID != "" {
				return u.GameID
			}
		case <-deadline:
			t.Fatal("no table for the created game")
		}
	}
}
