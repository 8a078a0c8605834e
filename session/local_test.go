package session

import (
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// snapshot is everything a command could change.
type snapshot struct {
	state   lockstep.State
	stats   lockstep.Stats
	canRoll bool
	choices []engine.Move
	logSize int64
}

// probe reads the node and the translator on the driver's goroutine.
func (s *LocalSession) probe() snapshot {
	s.mu.Lock()
	drv, tr, lg := s.drv, s.tr, s.log
	s.mu.Unlock()
	var sn snapshot
	if drv == nil {
		return sn
	}
	_ = drv.Do(func(n *lockstep.Node) error {
		sn.state, sn.stats = n.Ready().State, n.Stats()
		sn.canRoll, sn.choices = tr.CanRoll(), tr.Choices()
		if fi, err := os.Stat(lg.Path()); err == nil {
			sn.logSize = fi.Size()
		}
		return nil
	})
	return sn
}

func newLocal(t *testing.T, seed uint64) *LocalSession {
	t.Helper()
	s, err := NewLocal(LocalOptions{Name: "Ann", DataDir: t.TempDir(), Entropy: rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})})
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

// mustRefuse runs a command that makes no sense now: it must fail and
// leave the session exactly as it was.
func mustRefuse(t *testing.T, s *LocalSession, what string, cmd func() error) {
	t.Helper()
	before := s.probe()
	if err := cmd(); err == nil {
		t.Fatalf("%s: accepted, want an error", what)
	}
	if after := s.probe(); !reflect.DeepEqual(before, after) {
		t.Fatalf("%s: refused but changed the session\nbefore %+v\n after %+v", what, before, after)
	}
}

// checker follows the event stream and fails on anything out of order.
type checker struct {
	t               *testing.T
	started, over   bool
	pos             engine.Position
	rules           engine.Rules // the game's, from GameStarted
	pending         *ui.Rolled
	rolls, moves    int
	you             engine.Colour
	tablesStarted   int
	sawLobbyFirst   bool
	n               int
	refusedRolls    int
	youChose, youRo int
	autoRoll        bool // p2p reveals the player's share itself: never YouRoll
	// people are the other colours people at this screen play (hot
	// seat): their rolls and choices are asked here too
	people   [engine.NumColours]bool
	byColour [engine.NumColours]int // own rolls asked, by colour
}

// hotSeat is whether other people play at this screen.
func (c *checker) hotSeat() bool { return c.people != [engine.NumColours]bool{} }

// here is whether a person at this screen plays colour col.
func (c *checker) here(col engine.Colour) bool {
	return col == c.you || col < engine.NumColours && c.people[col]
}

func (c *checker) see(e ui.Event) {
	t := c.t
	t.Helper()
	c.n++
	if c.n == 1 {
		_, c.sawLobbyFirst = e.(ui.LobbyUpdate)
	}
	if c.over {
		t.Fatalf("event %T after GameOver", e)
	}
	switch e := e.(type) {
	case ui.TableUpdate:
		if e.Started {
			c.tablesStarted++
		}
	case ui.GameStarted:
		if c.tablesStarted == 0 {
			t.Fatal("GameStarted before the table said the game started")
		}
		c.started, c.pos, c.rules = true, e.Position, e.Rules
	case ui.DiceWaiting:
		if !c.started || c.pending != nil {
			t.Fatalf("DiceWaiting out of place (started %v, pending roll %v)", c.started, c.pending)
		}
		// With other people here (hot seat) their reveals come as they
		// apply the move: a roll is asked only of a person here, and of
		// another one once the die waits for them alone.
		hotSeat := c.hotSeat()
		hot := e.ToMove < engine.NumColours && c.people[e.ToMove]
		if e.ToMove != c.pos.ToMove() || !hotSeat && e.YouRoll != (e.ToMove == c.you && !c.autoRoll) ||
			e.YouRoll && !c.here(e.ToMove) || hot && e.YouRoll && len(e.Waiting) != 1 {

			t.Fatalf("DiceWaiting %+v with %s to move", e, c.pos.ToMove())
		}
		if len(e.Waiting) == 0 {
			t.Fatalf("DiceWaiting names nobody")
		}
	case ui.Rolled:
		if !c.started || c.pending != nil {
			t.Fatalf("Rolled out of place")
		}
		outs := c.pos.Outcomes(c.rules, e.Roll)
		if e.Colour != c.pos.ToMove() || !reflect.DeepEqual(e.Moves, outs.Slice()) {
			t.Fatalf("Rolled %+v, but %s is to move with outcomes %v", e, c.pos.ToMove(), outs.Slice())
		}
		if e.YouChoose && (!c.here(e.Colour) || len(e.Moves) < 2) {
			t.Fatalf("Rolled asks to choose %+v", e)
		}
		c.pending = &e
		c.rolls++
	case ui.Moved:
		if c.pending == nil {
			t.Fatal("Moved without a Rolled")
		}
		if e.Before != c.pos || e.Result.Roll != c.pending.Roll || !slicesContain(c.pending.Moves, e.Result.Move) {
			t.Fatalf("Moved %v does not follow from roll %+v", e.Result.Move, c.pending)
		}
		c.pos, c.pending = e.After, nil
		c.moves++
	case ui.GameOver:
		if !c.pos.GameOver() || !reflect.DeepEqual(e.Ranking, c.pos.Ranking()) {
			t.Fatalf("GameOver %v, position says over=%v ranking %v", e.Ranking, c.pos.GameOver(), c.pos.Ranking())
		}
		c.over = true
	case ui.Notice:
		t.Fatalf("unexpected notice: %s", e.Msg.String())
	case ui.Resync:
		t.Fatalf("unexpected resync in an honest game: %s", e.Why)
	}
}

func slicesContain(ms []engine.Move, m engine.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// playToEnd is the scripted person: roll when asked, choose the first
// move, and try the commands that make no sense at each step.
func playToEnd(t *testing.T, s *LocalSession, c *checker) ui.GameOver {
	t.Helper()
	mustRefuse := mustRefuse
	if c.hotSeat() {
		// The other seats here are nodes of their own, applying what
		// reaches them while a command is refused: only the refusal is
		// checked.
		mustRefuse = func(t *testing.T, _ *LocalSession, what string, cmd func() error) {
			t.Helper()
			if err := cmd(); err == nil {
				t.Fatalf("%s: accepted, want an error", what)
			}
		}
	}
	for e := range s.Events() {
		c.see(e)
		switch e := e.(type) {
		case ui.DiceWaiting:
			if !e.YouRoll {
				continue
			}
			c.youRo++
			c.byColour[e.ToMove]++
			mustRefuse(t, s, "Choose before rolling", func() error {
				return s.Choose(engine.Move{Kind: engine.PlaneMove, Colour: engine.Red})
			})
			if err := s.Roll(); err != nil {
				t.Fatalf("Roll when asked (%+v): %v", e, err)
			}
			switch {
			case c.hotSeat(): // as for Choose below
			case !s.probe().canRoll:
				mustRefuse(t, s, "Roll twice", s.Roll)
				c.refusedRolls++
			}
		case ui.Rolled:
			if !e.YouChoose {
				continue
			}
			c.youChose++
			mustRefuse(t, s, "Roll while choosing", s.Roll)
			mustRefuse(t, s, "Choose a move not offered", func() error {
				return s.Choose(engine.Move{Kind: engine.PlaneMove, Colour: (e.Colour + 1) % engine.NumColours, Plane: 3})
			})
			if err := s.Choose(e.Moves[0]); err != nil {
				t.Fatalf("Choose %v of %v: %v", e.Moves[0], e.Moves, err)
			}
			// Choosing reveals the link for the next roll too, so an extra
			// roll may already ask for the next choice.
			switch {
			case c.hotSeat():
				// Every seat here is in-process: the game may already be
				// at the next person's choice, a second command theirs.
			case len(s.probe().choices) == 0:
				mustRefuse(t, s, "Choose twice", func() error { return s.Choose(e.Moves[0]) })
			}
		case ui.GameOver:
			return e
		}
	}
	t.Fatal("events closed before GameOver")
	return ui.GameOver{}
}

// verifyLog checks the saved game with lockstep's verifier, as `aeroplane
// verify` does, against what the person saw.
func verifyLog(t *testing.T, over ui.GameOver, c *checker, seats []lockstep.Seat) {
	t.Helper()
	data, err := os.ReadFile(over.LogPath)
	if err != nil {
		t.Fatalf("game log: %v", err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatalf("the game log does not verify: %v", err)
	}
	if v.Phase != lockstep.PhaseOver || !reflect.DeepEqual(v.Ranking, over.Ranking) || v.Pos != c.pos {
		t.Fatalf("log: phase %s ranking %v; shown: ranking %v", v.Phase, v.Ranking, over.Ranking)
	}
	if len(v.Cheats) != 0 {
		t.Fatalf("log holds evidence of cheating: %v", v.Cheats)
	}
	if v.Rolls != uint64(c.rolls) {
		t.Fatalf("log has %d rolls, the person saw %d", v.Rolls, c.rolls)
	}
	if len(v.Setup.Seats) != len(seats) {
		t.Fatalf("log seats %+v, want %+v", v.Setup.Seats, seats)
	}
	for i, st := range v.Setup.Seats {
		if st.Colour != seats[i].Colour || st.Bot != seats[i].Bot || (st.Player == "") != (seats[i].Player == "") {
			t.Fatalf("log seats %+v, want %+v", v.Setup.Seats, seats)
		}
	}
}

// logRules checks the rules a game's log was played under.
func logRules(t *testing.T, over ui.GameOver, want engine.Rules) {
	t.Helper()
	data, err := os.ReadFile(over.LogPath)
	if err != nil {
		t.Fatalf("game log: %v", err)
	}
	if v, err := lockstep.Verify(data); err != nil || v.Setup.Rules != want {
		t.Fatalf("the log's rules: %v (%v), want %v", v.Setup.Rules, err, want)
	}
}

func TestLocalFullGame(t *testing.T) {
	you := lockstep.Seat{Colour: engine.Red, Player: "you"}
	cases := []struct {
		name  string
		seed  uint64
		seats map[engine.Colour]string // changes to the default table
		want  []lockstep.Seat
	}{
		{"default table", 1, nil, []lockstep.Seat{you, {Colour: engine.Blue, Bot: "expert"}, {Colour: engine.Yellow, Bot: "greedy"}, {Colour: engine.Green, Bot: "random"}}},
		{"one random bot", 2, map[engine.Colour]string{engine.Blue: "", engine.Yellow: "random", engine.Green: ""},
			[]lockstep.Seat{you, {Colour: engine.Yellow, Bot: "random"}}},
		{"greedy and random", 3, map[engine.Colour]string{engine.Blue: "greedy", engine.Yellow: "", engine.Green: "random"},
			[]lockstep.Seat{you, {Colour: engine.Blue, Bot: "greedy"}, {Colour: engine.Green, Bot: "random"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newLocal(t, tc.seed)
			if err := s.CreateGame(engine.DefaultRules()); err != nil {
				t.Fatal(err)
			}
			for c := range engine.NumColours {
				if k, ok := tc.seats[engine.Colour(c)]; ok {
					if err := s.SetSeat(engine.Colour(c), k); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := s.Start(); err != nil {
				t.Fatal(err)
			}
			c := &checker{t: t, you: engine.Red}
			over := playToEnd(t, s, c)
			if !c.sawLobbyFirst || c.rolls != c.moves || c.youRo == 0 {
				t.Fatalf("lobby first %v, %d rolls, %d moves, %d own rolls", c.sawLobbyFirst, c.rolls, c.moves, c.youRo)
			}
			if c.refusedRolls == 0 {
				t.Fatal("never tried a second Roll")
			}
			verifyLog(t, over, c, tc.want)
			mustRefuse(t, s, "Roll after the end", s.Roll)
			t.Logf("%d rolls, %d own rolls, %d own choices, ranking %v", c.rolls, c.youRo, c.youChose, over.Ranking)
		})
	}
}

func TestLocalRematch(t *testing.T) {
	s := newLocal(t, 4)
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Blue, engine.Green} {
		if err := s.SetSeat(c, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetSeat(engine.Yellow, "random"); err != nil {
		t.Fatal(err)
	}
	// Rules changed at the table are the game's, and the rematch's.
	rules, _ := engine.ParseRules("overshoot=stay,flyjump=on")
	if err := s.SetRules(rules); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, s, "Rematch before any game", s.Rematch)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, s, "Start twice", s.Start)
	mustRefuse(t, s, "Rematch during a game", s.Rematch)
	mustRefuse(t, s, "SetSeat during a game", func() error { return s.SetSeat(engine.Blue, "random") })
	mustRefuse(t, s, "SetRules during a game", func() error { return s.SetRules(engine.DefaultRules()) })
	seats := []lockstep.Seat{{Colour: engine.Red, Player: "you"}, {Colour: engine.Yellow, Bot: "random"}}
	c1 := &checker{t: t, you: engine.Red}
	first := playToEnd(t, s, c1)
	verifyLog(t, first, c1, seats)
	logRules(t, first, rules)
	if err := s.Rematch(); err != nil {
		t.Fatal(err)
	}
	c2 := &checker{t: t, you: engine.Red, tablesStarted: 1, n: 1}
	second := playToEnd(t, s, c2)
	verifyLog(t, second, c2, seats)
	logRules(t, second, rules)
	if first.LogPath == second.LogPath {
		t.Fatalf("the rematch overwrote the first game's log %s", first.LogPath)
	}
}

func TestLocalRefusals(t *testing.T) {
	s := newLocal(t, 5)
	for _, tc := range []struct {
		name string
		cmd  func() error
		want error
	}{
		{"roll before a game", s.Roll, nil},
		{"choose before a game", func() error { return s.Choose(engine.Move{Kind: engine.Pass}) }, nil},
		{"start before create", s.Start, nil},
		{"seat before create", func() error { return s.SetSeat(engine.Blue, "random") }, nil},
		{"rules before create", func() error { return s.SetRules(engine.DefaultRules()) }, nil},
		{"join", func() error { return s.Join("x") }, errOffline},
		{"connect", func() error { return s.Connect("127.0.0.1:1") }, errOffline},
		{"empty name", func() error { return s.SetName("") }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cmd()
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cmd  func() error
	}{
		{"own seat", func() error { return s.SetSeat(engine.Red, "random") }},
		{"no such seat", func() error { return s.SetSeat(engine.NoColour, "random") }},
		{"no such bot", func() error { return s.SetSeat(engine.Blue, "nobody") }},
	} {
		if err := tc.cmd(); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	for _, c := range []engine.Colour{engine.Blue, engine.Yellow, engine.Green} {
		if err := s.SetSeat(c, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Start(); err == nil || !strings.Contains(err.Error(), "bot") {
		t.Fatalf("start alone: %v, want a hint to add a bot", err)
	}
	s.Close()
	if err := s.Chat("hi"); !errors.Is(err, errClosed) {
		t.Fatalf("chat after close: %v", err)
	}
}

// sockets counts this process's open sockets.
func sockets(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("cannot list open files: %v", err)
	}
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// A local game must not open any socket, let alone a listener.
func TestLocalOpensNoSocket(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts sockets through /proc")
	}
	before := sockets(t)
	s := newLocal(t, 6)
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeat(engine.Blue, "random"); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	over := playToEnd(t, s, &checker{t: t, you: engine.Red})
	if after := sockets(t); after != before {
		t.Fatalf("%d sockets before the game, %d at its end (%s)", before, after, over.LogPath)
	}
}

// A local game's log has the LAN game's policy (savegame.Log): each
// Ready's entries are written at once, the Setup's fsynced at once and the
// rest lazily, on the next tick, not one fsync per Ready as before.
func TestLocalLogLazyFsync(t *testing.T) {
	clk := &tickClock{ticks: make(chan time.Time)}
	s := localTable(t, LocalOptions{Name: "Ann", Clock: clk, Entropy: rand.NewChaCha8([32]byte{9})})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		_ = s.Roll() // refused while a bot is to move: fine
	}
	s.mu.Lock()
	drv, lg := s.drv, s.log
	s.mu.Unlock()
	var syncs int64
	var dirty bool
	look := func() { // on the driver's goroutine, which writes the log
		_ = drv.Do(func(*lockstep.Node) error { syncs, dirty = lg.Syncs(), lg.Dirty(); return nil })
	}
	look()
	st, err := os.Stat(lg.Path())
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := lockstep.ParseLog(mustRead(t, lg.Path()))
	if len(recs) < 3 || syncs != 2 || !dirty {
		t.Fatalf("%d records (%d bytes) written, %d fsyncs, dirty %v: want more than the Setup and its confirm written, 2 fsyncs (the header, the Setup) and the rest waiting", len(recs), st.Size(), syncs, dirty)
	}
	clk.ticks <- time.Time{} // the tick's flush
	look()
	if syncs != 3 || dirty {
		t.Fatalf("after the tick's flush: %d fsyncs, dirty %v", syncs, dirty)
	}
}

// tickClock ticks when the test sends on ticks; its timers never fire.
type tickClock struct{ ticks chan time.Time }

func (c *tickClock) Now() time.Time                                  { return time.Time{} }
func (c *tickClock) After(time.Duration) <-chan time.Time            { return nil }
func (c *tickClock) Ticker(time.Duration) (<-chan time.Time, func()) { return c.ticks, func() {} }

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
