package lobby

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"aeroplane/engine"
)

// Players joining in turn sit where the layout puts them: two opposite,
// three leaving Green out; a wished colour is given when free.
func TestJoinSeats(t *testing.T) {
	tests := []struct {
		name    string
		players int
		bots    [engine.NumColours]string
		prefer  []engine.Colour
		want    [][]engine.Colour // each joiner's wish
		seats   []engine.Colour   // creator first
	}{
		{"two opposite", 2, [4]string{}, nil, [][]engine.Colour{nil}, []engine.Colour{engine.Red, engine.Yellow}},
		{"three", 3, [4]string{}, nil, [][]engine.Colour{nil, nil}, []engine.Colour{engine.Red, engine.Blue, engine.Yellow}},
		{"four", 4, [4]string{}, nil, [][]engine.Colour{nil, nil, nil}, []engine.Colour{engine.Red, engine.Blue, engine.Yellow, engine.Green}},
		{"two and two bots", 2, LayoutBots(2, 2, "greedy", nil), nil, [][]engine.Colour{nil}, []engine.Colour{engine.Red, engine.Blue}},
		{"creator prefers", 2, [4]string{}, []engine.Colour{engine.Green}, [][]engine.Colour{nil}, []engine.Colour{engine.Green, engine.Red}},
		{"joiner wishes", 3, [4]string{}, nil, [][]engine.Colour{{engine.Green}, {engine.Green}}, []engine.Colour{engine.Red, engine.Green, engine.Blue}},
		{"wish held by a bot", 2, [4]string{engine.Blue: "random"}, nil, [][]engine.Colour{{engine.Blue}}, []engine.Colour{engine.Red, engine.Yellow}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := mustTable(t, TableConfig{Creator: member(0), Players: tc.players, Bots: tc.bots, Prefer: tc.prefer})
			for i, w := range tc.want {
				if _, changed, err := tb.Join(ids[i+1], names[i+1], w); err != nil || !changed {
					t.Fatalf("join %d: changed %v, %v", i+1, changed, err)
				}
			}
			var got []engine.Colour
			for _, m := range tb.Members() {
				got = append(got, m.Colour)
			}
			if !slices.Equal(got, tc.seats) {
				t.Errorf("seats %v, want %v", got, tc.seats)
			}
			if tb.Free() != 0 {
				t.Errorf("free %d after every seat was taken", tb.Free())
			}
			if _, _, err := tb.Join(ids[5], names[5], nil); !errors.Is(err, ErrFull) {
				t.Errorf("join of a full table: %v, want ErrFull", err)
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name    string
		players int
		bots    [engine.NumColours]string
		want    string
	}{
		{"alone", 1, [4]string{}, "2 to 4 seats"},
		{"five", 4, [4]string{engine.Red: "random"}, "2 to 4 seats"},
		{"no creator seat", 0, [4]string{"random", "random"}, "2 to 4 seats"},
		{"unknown bot", 1, [4]string{engine.Blue: "nosuch"}, `no bot kind "nosuch"`},
		{"huge bot name", 1, [4]string{engine.Blue: strings.Repeat("x", 100)}, "no bot kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(TableConfig{Creator: member(0), Players: tc.players, Bots: tc.bots}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// A repeated join (the joiner missed the table) keeps the seat and
// changes nothing.
func TestJoinAgain(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 3})
	c, _, _ := tb.Join(ids[1], names[1], nil)
	v := tb.Version()
	c2, changed, err := tb.Join(ids[1], names[1], []engine.Colour{engine.Green})
	if err != nil || changed || c2 != c || tb.Version() != v {
		t.Errorf("repeated join: colour %v (was %v), changed %v, version %d (was %d), %v", c2, c, changed, tb.Version(), v, err)
	}
}

// Every change of seats or rules bumps the version and clears every
// ready; a ready for an old version is dropped.
func TestChangeClearsReady(t *testing.T) {
	changes := []struct {
		name string
		do   func(tb *Table) error
	}{
		{"a joiner", func(tb *Table) error { _, _, err := tb.Join(ids[3], names[3], nil); return err }},
		{"a leaver", func(tb *Table) error { tb.Leave(ids[2]); return nil }},
		{"a colour", func(tb *Table) error { return tb.SetColour(ids[1], engine.Green) }},
		{"a bot", func(tb *Table) error { return tb.SetSeat(engine.Green, "greedy") }},
		{"the rules", func(tb *Table) error {
			r := engine.DefaultRules()
			r.NoStacks = !r.NoStacks
			tb.SetRules(r)
			return nil
		}},
	}
	for _, ch := range changes {
		t.Run(ch.name, func(t *testing.T) {
			tb := mustTable(t, TableConfig{Creator: member(0), Players: 4, ManualReady: true})
			tb.Join(ids[1], names[1], nil)
			tb.Join(ids[2], names[2], nil)
			v := tb.Version()
			for i := 0; i < 3; i++ {
				if !tb.SetReady(ids[i], true, v) {
					t.Fatalf("ready %d not taken", i)
				}
			}
			if err := ch.do(tb); err != nil {
				t.Fatal(err)
			}
			if tb.Version() == v {
				t.Fatalf("version did not bump")
			}
			if nr := tb.NotReady(); len(nr) != len(tb.Members()) {
				t.Errorf("not ready after the change: %v, want every member", nr)
			}
			if tb.SetReady(ids[1], true, v) {
				t.Errorf("a ready for the old version was taken")
			}
			if !tb.SetReady(ids[1], true, tb.Version()) {
				t.Errorf("a ready for the new version was dropped")
			}
		})
	}
}

// Without ManualReady the creator is ready after every change.
func TestCreatorAutoReady(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 3})
	tb.Join(ids[1], names[1], nil)
	if nr := tb.NotReady(); !slices.Equal(nr, []string{"bob"}) {
		t.Errorf("not ready %v, want only bob", nr)
	}
}

func TestSetColour(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 3, Bots: [4]string{engine.Green: "random"}})
	tb.Join(ids[1], names[1], nil) // Blue
	tb.Join(ids[2], names[2], nil) // Yellow
	tests := []struct {
		name string
		who  int
		c    engine.Colour
		want error
	}{
		{"held by a bot", 1, engine.Green, ErrSeatTaken},
		{"held by a player", 1, engine.Yellow, ErrSeatTaken},
		{"own seat", 1, engine.Blue, nil},
		{"not seated", 4, engine.Blue, ErrNotSeated},
	}
	for _, tc := range tests {
		if err := tb.SetColour(ids[tc.who], tc.c); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := tb.SetColour(ids[1], 9); err == nil {
		t.Errorf("colour 9 accepted")
	}
	// Two ask for the freed Blue: the first wins.
	tb.Leave(ids[1])
	tb.Join(ids[3], names[3], []engine.Colour{engine.Red}) // Red is the creator's: gets Blue
	if c, _ := tb.Seated(ids[3]); c != engine.Blue {
		t.Fatalf("dan at %v, want Blue", c)
	}
}

// A bot on the last free colour closes an open player seat; taking the
// bot off opens one; a bot cannot take a player's colour or the seat of
// a table whose player seats are all taken.
func TestSetSeat(t *testing.T) {
	// Two players (Red, Blue) and bots at Yellow and Green.
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 2, Bots: LayoutBots(2, 2, "random", nil)})
	if b := tb.Bots(); b[engine.Yellow] != "random" || b[engine.Green] != "random" {
		t.Fatalf("bots %v, want Yellow and Green", b)
	}
	if err := tb.SetSeat(engine.Red, "greedy"); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("bot on the creator's colour: %v", err)
	}
	if err := tb.SetSeat(engine.Yellow, ""); err != nil || tb.Free() != 2 {
		t.Errorf("taking a bot off: %v, free %d, want 2", err, tb.Free())
	}
	if err := tb.SetSeat(engine.Yellow, "expert"); err != nil || tb.Free() != 1 {
		t.Errorf("a bot on the last free colour: %v, free %d, want 1", err, tb.Free())
	}
	if err := tb.SetSeat(engine.Yellow, "greedy"); err != nil || tb.Bots()[engine.Yellow] != "greedy" || tb.Free() != 1 {
		t.Errorf("another bot kind: %v, bots %v, free %d", err, tb.Bots(), tb.Free())
	}
	tb.Join(ids[1], names[1], nil)
	if err := tb.SetSeat(engine.Blue, "random"); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("bot on a guest's colour: %v", err)
	}
	if err := tb.SetSeat(engine.Green, "nosuch"); err == nil {
		t.Errorf("unknown bot kind accepted")
	}
	if err := tb.SetSeat(7, "random"); err == nil {
		t.Errorf("colour 7 accepted")
	}
}

// The creator removes a guest who never says ready; a ready guest, itself
// or a stranger cannot be removed, and a guest cannot remove anyone.
func TestRemove(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 3, ManualReady: true})
	tb.Join(ids[1], names[1], nil)
	tb.Join(ids[2], names[2], nil)
	tb.SetReady(ids[2], true, tb.Version())
	tests := []struct {
		name    string
		by, who int
		want    string
	}{
		{"a guest removes", 2, 1, ErrNotCreator.Error()},
		{"a ready player", 0, 2, "is ready"},
		{"itself", 0, 0, "cannot remove yourself"},
		{"a stranger", 0, 4, "nobody to remove"},
	}
	for _, tc := range tests {
		if err := tb.Remove(ids[tc.by], ids[tc.who]); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := tb.Remove(ids[0], ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, seated := tb.Seated(ids[1]); seated || tb.Free() != 1 {
		t.Errorf("bob still seated or seat not open (free %d)", tb.Free())
	}
}

func TestStart(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 3, ManualReady: true})
	if err := tb.StartNow(); !errors.Is(err, ErrTooFew) {
		t.Errorf("start alone: %v, want ErrTooFew", err)
	}
	tb.Join(ids[1], names[1], nil)
	if tb.MayStart() {
		t.Errorf("may start with bob not ready and a seat open")
	}
	if err := tb.StartNow(); !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "bob") {
		t.Errorf("start with bob not ready: %v", err)
	}
	tb.SetReady(ids[1], true, tb.Version())
	if tb.MayStart() {
		t.Errorf("may start with a seat open before the creator asked")
	}
	if err := tb.StartNow(); err != nil || !tb.MayStart() {
		t.Errorf("start with everyone ready: %v, may %v", err, tb.MayStart())
	}
	s, err := tb.Setup("friday", [16]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Seats) != 2 || s.Seats[0].Player != ids[0] || s.Seats[1].Player != ids[1] || s.Seats[1].Colour != engine.Blue {
		t.Errorf("setup seats %+v: want ann at Red and bob at Blue, the open seat left out", s.Seats)
	}
}

// A full table of ready players starts by itself.
func TestFullTableStarts(t *testing.T) {
	tb := mustTable(t, TableConfig{Creator: member(0), Players: 2, Bots: [4]string{engine.Blue: "greedy"}})
	tb.Join(ids[1], names[1], nil)
	tb.SetReady(ids[1], true, tb.Version())
	if !tb.MayStart() {
		t.Fatal("a full, ready table may not start")
	}
	s, err := tb.Setup("x", [16]byte{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Seats {
		who := st.Bot
		if st.Player != "" {
			who = "player"
		}
		got = append(got, st.Colour.String()+":"+who)
	}
	if want := []string{"Red:player", "Blue:greedy", "Yellow:player"}; !slices.Equal(got, want) {
		t.Errorf("seats %v, want %v", got, want)
	}
}

// A web player sits through the program that serves it: only a program
// seated at the table in its own right may host one, a seat is hosted by
// one program, and the seats a program hosts go with it.
func TestJoinVia(t *testing.T) {
	tests := []struct {
		name      string
		id, via   int // indexes into ids
		err       error
		changed   bool
		hostedBy1 bool
	}{
		{"through a seated guest", 3, 1, nil, true, true},
		{"through the creator", 3, 0, nil, true, false},
		{"through nobody seated", 3, 4, ErrNotSeated, false, false},
		{"a program as its own guest", 1, 1, ErrNotSeated, false, false},
		{"a seated program as another's guest", 2, 1, ErrSeatTaken, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := mustTable(t, TableConfig{Creator: member(0), Players: 4})
			for i := 1; i <= 2; i++ {
				if _, _, err := tb.Join(ids[i], names[i], nil); err != nil {
					t.Fatal(err)
				}
			}
			_, changed, err := tb.JoinVia(ids[tc.id], ids[tc.via], "wendy", nil)
			if !errors.Is(err, tc.err) || changed != tc.changed {
				t.Fatalf("JoinVia: changed %v, %v; want %v, %v", changed, err, tc.changed, tc.err)
			}
			if got := tb.HostedBy(ids[tc.id], ids[1]); got != tc.hostedBy1 {
				t.Fatalf("HostedBy(guest 1) = %v, want %v", got, tc.hostedBy1)
			}
			if tc.err != nil {
				return
			}
			if _, again, err := tb.JoinVia(ids[tc.id], ids[tc.via], "wendy", nil); err != nil || again {
				t.Fatalf("the same join again: changed %v, %v", again, err)
			}
			other := 1 - tc.via // the other of creator and guest 1
			if _, _, err := tb.JoinVia(ids[tc.id], ids[other], "wendy", nil); !errors.Is(err, ErrSeatTaken) {
				t.Fatalf("another program claims the seat: %v, want ErrSeatTaken", err)
			}
			if _, _, err := tb.JoinVia(ids[4], ids[tc.id], "x", nil); !errors.Is(err, ErrNotSeated) {
				t.Fatalf("a hosted seat hosts another: %v", err)
			}
			m := tb.Members()[len(tb.Members())-1]
			if m.ID != ids[tc.id] || m.Via != ids[tc.via] || m.Name != "wendy" {
				t.Fatalf("member %+v", m)
			}
			if tc.via == 0 {
				return // the creator closes its table instead of leaving it
			}
			if !tb.Leave(ids[tc.via]) {
				t.Fatal("the serving program's leave changed nothing")
			}
			if _, seated := tb.Seated(ids[tc.id]); seated {
				t.Fatal("a web player stays seated after its program left")
			}
		})
	}
}
