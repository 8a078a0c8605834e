package session

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// hotPlayer is a scripted program at the table: it says ready whenever
// its own seat is not, chooses the first move whenever its screen asks
// (for its own seat or a person's here), and records its tables, the
// colours it was asked for and its end.
type hotPlayer struct {
	s      *NetSession
	mu     sync.Mutex
	tables []ui.TableUpdate
	asked  map[engine.Colour]int
	left   []engine.Colour // the seats it was told left for good
	over   ui.GameOver
	gone   bool // it left the game itself (LeaveDone)
	// leaving is set once the test made its program leave: the screen's
	// asks still queued are refused from then on, as they should be
	leaving *atomic.Bool
	done    chan struct{}
}

func runHotPlayer(t *testing.T, s *NetSession, onEvent func(ui.Event), leaving *atomic.Bool) *hotPlayer {
	p := &hotPlayer{s: s, asked: map[engine.Colour]int{}, done: make(chan struct{}), leaving: leaving}
	go func() {
		defer close(p.done)
		for e := range s.Events() {
			// The test's own reaction to a roll comes after the
			// player's, so that a leave it makes on a roll this player
			// is to choose for comes after that choice; to anything
			// else it comes first (a person added before the ready).
			_, rolled := e.(ui.Rolled)
			if onEvent != nil && !rolled {
				onEvent(e)
			}
			over := p.play(t, e)
			if onEvent != nil && rolled {
				onEvent(e)
			}
			if over {
				return
			}
		}
	}()
	return p
}

// play is the player's answer to e; true once its game is over for it.
func (p *hotPlayer) play(t *testing.T, e ui.Event) bool {
	s := p.s
	switch e := e.(type) {
	case ui.TableUpdate:
		p.mu.Lock()
		p.tables = append(p.tables, e)
		p.mu.Unlock()
		if c := ownSeat(e, s.ID()); !e.Started && c < engine.NumColours && !e.Seats[c].Ready {
			if err := s.SetReady(true); err != nil {
				t.Logf("%s ready: %v", s.name, err)
			}
		}
	case ui.Rolled:
		if e.YouChoose {
			p.mu.Lock()
			p.asked[e.Colour]++
			p.mu.Unlock()
			switch err := s.Choose(e.Moves[0]); {
			case err != nil && p.leaving != nil && p.leaving.Load():
				t.Logf("%s chooses for %s after leaving: %v", s.name, e.Colour, err)
			case err != nil:
				t.Errorf("%s chooses for %s: %v", s.name, e.Colour, err)
			}
		}
	case ui.Left:
		p.mu.Lock()
		p.left = append(p.left, e.Colour)
		p.mu.Unlock()
	case ui.GameOver:
		p.over = e
		return true
	case ui.LeaveDone:
		p.gone = true
		return true
	}
	return false
}

// ownSeat is the colour of the program's own seat at table t.
func ownSeat(t ui.TableUpdate, self peer.ID) engine.Colour {
	for c, st := range t.Seats {
		if st.Kind == ui.SeatHuman && st.PeerID == self.String() {
			return engine.Colour(c)
		}
	}
	return engine.NoColour
}

// A program with two people at a real LAN table (namespaces): Bea is
// added at the table (AddPerson) of the program that created it (Ann's)
// or of a guest (Bob's), sits as a player of her own (her own seat key,
// peer ID and colour; every program lists her by name, hosted by hers),
// and the four (Ann, Bob, Bea, Cat) play to the end. The screen of Bea's
// program asks for her moves by her colour and her choices go to her own
// node; every program's log and Bea's own seat log end on one history,
// each verifies, and Bea's link made rolls like anyone's.
func TestNetHotSeatLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	// "at a guest's" is the long form's (testkit.Long): Bea at a guest's
	// program is played by "a guest's program leaves" up to its leave, and
	// to the end by internal/e2e's TestHotSeatOverLAN and playe2e's
	// TestPlayLANHotSeat (both seat the person at a guest's program).
	rows := []struct {
		name              string
		byCreator, leaves bool
	}{{"at the creator's", true, false}, {"at a guest's", false, false}, {"a guest's program leaves", false, true}}
	for _, tc := range testkit.Rows(rows, func(i int) bool { return !rows[i].byCreator && !rows[i].leaves }) {
		t.Run(tc.name, func(t *testing.T) { netHotSeat(t, tc.byCreator, tc.leaves) })
	}
}

// hotDeadline bounds the game (a hang guard, not a speed claim).
var hotDeadline = 3 * time.Minute

// With leaves, Bea's program leaves the game at its sixth roll: the
// others are told both its people left (a bot flies each seat) and play
// on to the end.
func netHotSeat(t *testing.T, byCreator, leaves bool) {
	if d, err := time.ParseDuration(os.Getenv("HOT_DEADLINE")); err == nil {
		hotDeadline = d
	}
	a, b, c := newNetTest(t, "Ann"), newNetTest(t, "Bob"), newNetTest(t, "Cat")
	hostOf := b
	if byCreator {
		hostOf = a
	}
	if err := hostOf.AddPerson("Bea"); err == nil {
		t.Fatal("a person added away from any table")
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	addBea := func(e ui.Event) {
		tb, ok := e.(ui.TableUpdate)
		if !ok || tb.Started || ownSeat(tb, hostOf.ID()) == engine.NoColour {
			return
		}
		once.Do(func() {
			go func() {
				if err := hostOf.AddPerson(strings.ToLower(hostOf.name)); err == nil {
					t.Error("a person named as the program's own player was seated")
				}
				if err := hostOf.AddPerson("Bea"); err != nil {
					t.Errorf("AddPerson: %v", err)
				}
			}()
		})
	}
	// Cat joins once three people sit at Ann's table, so Bea has a seat.
	catJoined := false
	var catMu sync.Mutex
	joinWhenThree := func(e ui.Event) {
		if g, ok := gameOf(e, a); ok && g.Taken == 3 {
			catMu.Lock()
			defer catMu.Unlock()
			if !catJoined {
				catJoined = true
				if err := c.Join(g.ID); err != nil {
					t.Errorf("Cat joins: %v", err)
				}
			}
		}
	}
	var onA, onB func(ui.Event)
	var bobLeaving atomic.Bool
	if byCreator {
		onA, onB = addBea, joinOnce(t, a, b)
	} else {
		join := joinOnce(t, a, b)
		rolls := 0
		onA, onB = nil, func(e ui.Event) {
			join(e)
			addBea(e)
			if _, ok := e.(ui.Rolled); ok && leaves {
				if rolls++; rolls == 6 {
					bobLeaving.Store(true)
					if err := b.Leave(); err != nil {
						t.Errorf("Bob's program leaves: %v", err)
					}
				}
			}
		}
	}
	players := []*hotPlayer{runHotPlayer(t, a, onA, nil), runHotPlayer(t, b, onB, &bobLeaving), runHotPlayer(t, c, joinWhenThree, nil)}
	deadline := time.After(hotDeadline) // a hang guard
	for _, p := range players {
		select {
		case <-p.done:
		case <-deadline:
			t.Fatal("the game did not end")
		}
	}
	if leaves {
		netHotSeatLeft(t, players)
		return
	}
	var hist [32]byte
	for i, p := range players {
		data, err := os.ReadFile(p.over.LogPath)
		if err != nil {
			t.Fatalf("%s: %v", p.s.name, err)
		}
		v, err := lockstep.Verify(data)
		if err != nil || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 || len(v.Setup.Players()) != 4 {
			t.Fatalf("%s's log: %v, phase %s, cheats %v, players %d", p.s.name, err, v.Phase, v.Cheats, len(v.Setup.Players()))
		}
		if i == 0 {
			hist = v.History
		} else if v.History != hist {
			t.Fatalf("%s's log ends on another history", p.s.name)
		}
	}
	// Every program's table at the start lists Bea by name, at a seat of
	// her own ID, never as on a phone; hers marks Bea's seat as played
	// here.
	var bea ui.Seat
	var beaColour engine.Colour
	for _, p := range players {
		last := p.tables[len(p.tables)-1]
		found := false
		for col, st := range last.Seats {
			if st.Name == "Bea" && st.Kind == ui.SeatHuman {
				found, bea, beaColour = true, st, engine.Colour(col)
				if st.PeerID == hostOf.ID().String() {
					t.Errorf("%s lists Bea under her program's ID", p.s.name)
				}
				if st.You != (p.s == hostOf) {
					t.Errorf("%s marks Bea's seat You=%v", p.s.name, st.You)
				}
				if st.Web {
					t.Errorf("%s marks Bea, a person at Bob's keyboard, as on a phone", p.s.name)
				}
			}
		}
		if !found || !last.Started {
			t.Fatalf("%s's table at the start does not list Bea: %+v", p.s.name, last)
		}
	}
	host := players[1]
	if byCreator {
		host = players[0]
	}
	if host.asked[beaColour] == 0 {
		t.Errorf("Bea's program never asked for her move (asked %v)", host.asked)
	}
	beaID, err := peer.Decode(bea.PeerID)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(mustRead(t, hostOf.dir.SeatLogPath(v0(t, host.over.LogPath).Setup.GameID(), beaID)))
	if err != nil || v.History != hist {
		t.Fatalf("Bea's own seat log: %v, same history %v", err, v.History == hist)
	}
	t.Logf("one history %x; Bea at %s asked %d times", hist[:8], beaColour, host.asked[beaColour])
}

func v0(t *testing.T, path string) *lockstep.Verification {
	t.Helper()
	v, err := lockstep.Verify(mustRead(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// netHotSeatLeft checks the game Bea's program (Bob's) left: Ann and Cat
// were told both its seats left, played on to one history, and their
// logs verify.
func netHotSeatLeft(t *testing.T, players []*hotPlayer) {
	t.Helper()
	if !players[1].gone {
		t.Fatal("Bob's program never finished leaving (LeaveDone)")
	}
	var hist [32]byte
	for i, p := range []*hotPlayer{players[0], players[2]} {
		if len(p.left) != 2 || p.left[0] == p.left[1] {
			t.Errorf("%s was told of the leaves of %v, want Bob's and Bea's seats", p.s.name, p.left)
		}
		v := v0(t, p.over.LogPath)
		if v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 {
			t.Fatalf("%s's log: phase %s, cheats %v", p.s.name, v.Phase, v.Cheats)
		}
		if i == 0 {
			hist = v.History
		} else if v.History != hist {
			t.Fatalf("%s's log ends on another history", p.s.name)
		}
	}
}
