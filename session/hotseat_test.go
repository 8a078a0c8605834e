package session

import (
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/p2ptest"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// localTable is a LocalSession of o in a data dir of t's, a new game
// created at its table; it is closed when t ends.
func localTable(t *testing.T, o LocalOptions) *LocalSession {
	t.Helper()
	o.DataDir = t.TempDir()
	s, err := NewLocal(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		for range s.Events() {
		}
	})
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	return s
}

// Three people at one laptop play an offline game to the end against a
// bot: the screen asks each of them, by seat, for their own rolls and
// choices, and the log verifies with three seats of three distinct keys,
// each with its own dice chain (every roll hashes three links).
func TestLocalHotSeatThreePeople(t *testing.T) {
	s := localTable(t, LocalOptions{Name: "ann", People: []string{"bob", "cat"},
		Entropy: rand.NewChaCha8([32]byte{14}),
		// No tick: status frames would change the nodes' counters while
		// playToEnd checks that a refused command changed nothing.
		Clock: &tickClock{ticks: make(chan time.Time)}})
	c := &checker{t: t, you: engine.Red}
	people := map[string]engine.Colour{}
	for col, st := range s.table.Seats {
		if st.You {
			people[st.Name] = engine.Colour(col)
			c.people[col] = engine.Colour(col) != c.you
		}
	}
	if len(people) != 3 {
		t.Fatalf("people at the table: %v, want ann, bob and cat", people)
	}
	if err := s.AddPerson("Bob"); err == nil {
		t.Error("a second Bob was seated")
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	over := playToEnd(t, s, c)
	for name, col := range people {
		if c.byColour[col] == 0 {
			t.Errorf("%s (%s) was never asked to roll", name, col)
		}
	}
	data, err := os.ReadFile(over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 {
		t.Fatalf("the log: %v, phase %s, cheats %v", err, v.Phase, v.Cheats)
	}
	players := v.Setup.Players()
	if len(players) != 3 || players[0] == players[1] || players[1] == players[2] || players[0] == players[2] {
		t.Fatalf("the log's players %v, want three distinct seat keys", players)
	}
	// Every seat's driver has ended with the game: a rematch starts at
	// once, with the same three people.
	if err := s.Rematch(); err != nil {
		t.Fatalf("rematch: %v", err)
	}
	timeout := time.After(30 * time.Second) // a hang guard
	for started := false; !started; {
		select {
		case e := <-s.Events():
			if tu, ok := e.(ui.TableUpdate); ok && tu.Started {
				for _, col := range people {
					if !tu.Seats[col].You {
						t.Errorf("the rematch lost the person at %s", col)
					}
				}
			}
			_, started = e.(ui.GameStarted)
		case <-timeout:
			t.Fatal("the rematch never started")
		}
	}
	t.Logf("%d rolls; asked to roll by colour %v; ranking %v", c.rolls, c.byColour, over.Ranking)
}

// The turn line's facts: while bob, a second person here, is to roll,
// the screen is told it is this laptop's roll and whose colour it is.
func TestTranslatorHotSeatAsks(t *testing.T) {
	setup := lockstep.Setup{Seats: []lockstep.Seat{{Colour: engine.Red, Player: "ann"}, {Colour: engine.Blue, Player: "bob"}, {Colour: engine.Yellow, Player: "eve"}}}
	for _, tc := range []struct {
		name string
		hot  bool
		want bool
	}{{"bob is here", true, true}, {"bob is elsewhere", false, false}} {
		tr := NewTranslator(setup, "ann", nil, "")
		if tc.hot {
			tr.SetHotSeats("ann", "bob")
		}
		evs := tr.Translate([]lockstep.Event{{Kind: lockstep.EventGameStarted, Colour: engine.Blue},
			{Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{"bob"}}}, lockstep.State{})
		var w *ui.DiceWaiting
		for _, e := range evs {
			if d, ok := e.(ui.DiceWaiting); ok {
				w = &d
			}
		}
		if w == nil || w.YouRoll != tc.want || w.ToMove != engine.Blue {
			t.Errorf("%s: %+v, want YouRoll %v for Blue", tc.name, w, tc.want)
		}
	}
}

// A person's key press that reaches their seat's node before that node
// asks for it (the screen, fed by the first seat's node, asked first) is
// the normal race of a hot seat: it is tried again when the node asks,
// for hotAskWait at most, and nothing of it is logged at WARN or above
// (the rotating log is for faults). Here bob's or cat's node is never
// asked while ann is to roll, so the press is tried and then refused.
func TestHotSeatEarlyPressNotWarned(t *testing.T) {
	logs := p2ptest.NewCapture()
	s := localTable(t, LocalOptions{Name: "ann", People: []string{"bob", "cat"},
		Entropy: rand.NewChaCha8([32]byte{15}), Logger: slog.New(logs),
		Clock: &tickClock{ticks: make(chan time.Time)}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	var asked ui.DiceWaiting
	for e := range s.Events() {
		if w, ok := e.(ui.DiceWaiting); ok && w.YouRoll {
			asked = w
			break
		}
	}
	s.mu.Lock()
	drv, tr, hot := s.drv, s.tr, s.hot
	s.mu.Unlock()
	var other *hotSeat
	for _, h := range hot {
		if h.colour != asked.ToMove {
			other = h
		}
	}
	if other == nil {
		t.Fatalf("the hot seats %v: none but the one to move (%s)", hot, asked.ToMove)
	}
	tries := 0
	roll := func(tr *Translator, n *lockstep.Node) error { tries++; return tr.Roll(n) }
	answered := false
	err := actHot(drv, tr, other, roll, func(*Translator) { answered = true })
	if !errors.Is(err, ErrNotYourRoll) || answered || tries == 0 {
		t.Fatalf("%s's early roll: %v after %d tries (answered %v), want refused as not their roll after trying", other.colour, err, tries, answered)
	}
	if warned := logs.AtLeast(slog.LevelWarn); len(warned) > 0 {
		t.Errorf("an early key press logged %q at WARN or above", warned)
	}
}

// A node restored from its log while the game waits for another person
// here to choose reports no past roll: the screen's translator asks that
// person from the state's pending move alone, once, and shows no roll
// wait for it (it showed "roll the die", and the key then said it was
// not their roll: an offline hot-seat game continued there stood still).
func TestTranslatorRestoredHotChoice(t *testing.T) {
	setup := lockstep.Setup{Rules: engine.DefaultRules(), Seats: []lockstep.Seat{{Colour: engine.Red, Player: "ann"}, {Colour: engine.Blue, Player: "bob"}}}
	pos, err := engine.ParsePosition("H,H,H,H/L,H,H,H/H,H,H,H/H,H,H,H B 0 -")
	if err != nil {
		t.Fatal(err)
	}
	st := lockstep.State{Phase: lockstep.PhaseMove, Roll: 9, Value: 6, Pos: pos}
	outs := pos.Outcomes(setup.Rules, 6)
	if n := outs.Len(); n < 2 {
		t.Fatalf("the position gives %d moves for a 6, want a choice", n)
	}
	for _, tc := range []struct {
		name string
		hot  bool
	}{{"bob is here", true}, {"bob is elsewhere", false}} {
		tr := NewTranslator(setup, "ann", nil, "")
		if tc.hot {
			tr.SetHotSeats("ann", "bob")
		}
		evs := tr.Translate([]lockstep.Event{{Kind: lockstep.EventWaiting, Roll: 9, Peers: []peer.ID{"bob"}}}, st)
		evs = append(evs, tr.Translate(nil, st)...)
		asked := 0
		for _, e := range evs {
			switch e := e.(type) {
			case ui.Rolled:
				if e.YouChoose && e.Colour == engine.Blue && e.Roll == 6 {
					asked++
				}
			case ui.DiceWaiting:
				t.Errorf("%s: a roll wait %+v while bob is to choose", tc.name, e)
			}
		}
		if want := map[bool]int{true: 1, false: 0}[tc.hot]; asked != want {
			t.Errorf("%s: bob asked to choose %d times, want %d (%v)", tc.name, asked, want, evs)
		}
		if err := tr.HotChooseCheck(outs.Slice()[0]); (err == nil) != tc.hot {
			t.Errorf("%s: HotChooseCheck: %v", tc.name, err)
		}
	}
}
