package lockstep

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// botColour is the colour of the setup's first bot seat.
func botColour(t testing.TB, s *sim) engine.Colour {
	t.Helper()
	for _, st := range s.peers[0].cfg.Setup.Seats {
		if st.Player == "" {
			return st.Colour
		}
	}
	t.Fatalf("seed %d: no bot seat", s.seed)
	return 0
}

// addNewcomer adds a peer holding no seat that comes up once the first
// player is at roll fromRoll (it is down, hearing nothing, until then)
// and asks for colour's seat. Call it before start.
func addNewcomer(t testing.TB, s *sim, colour engine.Colour, fromRoll uint64) *simPeer {
	t.Helper()
	ref := s.peers[0]
	var id peer.ID
	var key crypto.PrivKey
	if s.realKeys {
		var err error
		key, _, err = crypto.GenerateEd25519Key(seededReader{s.rng})
		if err != nil {
			t.Fatal(err)
		}
		id, _ = peer.IDFromPrivateKey(key)
	} else {
		id = peer.ID(fmt.Sprintf("sim-%d-new%d", s.seed, len(s.peers)))
		key = fakeKey{id}
	}
	var ent [32]byte
	for j := range ent {
		ent[j] = byte(s.rng.Uint32())
	}
	p := &simPeer{id: id, rng: engine.NewRand(s.rng.Uint64()), down: true}
	p.cfg = ref.cfg
	p.cfg.Self, p.cfg.Key, p.cfg.Entropy, p.cfg.Take = id, key, ent, &Take{Colour: colour}
	p.cfg.AutoRoll = true
	s.peers = append(s.peers, p)
	for i := range s.cut {
		s.cut[i] = append(s.cut[i], false)
	}
	s.cut = append(s.cut, make([]bool, len(s.peers)))
	var try func(s *sim)
	try = func(s *sim) {
		if s.peers[0].node.g.k >= fromRoll {
			p.down = false
			return
		}
		s.addAction(s.now+1, try)
	}
	s.addAction(1, try)
	return p
}

// seatedAt is the roll from which p flies a seat by its own events (-1: never).
func seatedAt(p *simPeer, who peer.ID) int {
	for _, e := range p.events {
		if e.Kind == EventSeatTaken && e.Peer == who {
			return int(e.Roll)
		}
	}
	return -1
}

func TestSimTakeBotSeat(t *testing.T) {
	for _, tc := range []struct {
		name          string
		players, bots int
		fromRoll      uint64
	}{
		{"three players and a bot", 3, 1, 15},
		{"a lone player and a bot", 1, 1, 20},
		{"two players and two bots", 2, 2, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, 11, tc.players, tc.bots, simFaults{}, false)
			c := botColour(t, s)
			for i := range tc.players {
				s.setManual(i, 4) // people pressing the roll key: the newcomer catches up
			}
			nc := addNewcomer(t, s, c, tc.fromRoll)
			s.start()
			s.run()
			s.check(true)
			for _, p := range s.peers {
				r := seatedAt(p, nc.id)
				if r < 20 {
					t.Fatalf("%s: the newcomer seated from roll %d, want ≥ 20", short(p.id), r)
				}
				if r != seatedAt(s.peers[0], nc.id) {
					t.Fatalf("%s seated it from roll %d, %s from %d", short(p.id), r, short(s.peers[0].id), seatedAt(s.peers[0], nc.id))
				}
			}
			// It flew the seat: it chose moves from its roll on.
			moved := 0
			for _, e := range nc.events {
				if e.Kind == EventMoved && e.Colour == c && e.Roll >= uint64(seatedAt(nc, nc.id)) {
					moved++
				}
			}
			if moved == 0 {
				t.Fatal("the newcomer never moved its seat")
			}
			seats := s.peers[0].node.Seats()
			if last := seats[len(seats)-1]; last.Colour != c || last.Player != nc.id {
				t.Fatalf("seats %+v: want %s flying %s last", seats, short(nc.id), c)
			}
			for _, p := range s.peers {
				v, err := verifyRecords(p.log, fakeVerify)
				if err != nil {
					t.Fatalf("%s's log: %v", short(p.id), err)
				}
				if v.History != p.node.g.hist || v.Phase != PhaseOver {
					t.Fatalf("%s's log verifies to %s %x, the game ended %x", short(p.id), v.Phase, v.History[:6], p.node.g.hist[:6])
				}
			}
			t.Logf("seated from roll %d of %d; moved %d times", seatedAt(nc, nc.id), nc.node.g.k, moved)
		})
	}
}

// rogue is a newcomer whose run the test signs by hand.
type rogue struct {
	p    *simPeer
	idx  int
	key  crypto.PrivKey
	seq  uint64
	prev [32]byte
}

func addRogue(t testing.TB, s *sim) *rogue {
	t.Helper()
	p := addNewcomer(t, s, 0, 1<<62) // never comes up: the test speaks for it
	p.cheater = true
	return &rogue{p: p, idx: len(s.peers) - 1, key: p.cfg.Key}
}

// send signs m as the rogue's next message and posts it to everyone.
func (r *rogue) send(t testing.TB, s *sim, m *message) {
	t.Helper()
	m.game, m.from, m.seq, m.prev = s.peers[0].node.gid, r.p.id, r.seq+1, r.prev
	if err := m.seal(r.key.Sign); err != nil {
		t.Fatal(err)
	}
	m.id = sha256.Sum256(m.raw)
	r.seq, r.prev = m.seq, m.id
	s.post(r.idx, "", m.raw)
}

// take is a Take of the rogue's for colour from roll k with its own chain.
func (r *rogue) take(s *sim, colour engine.Colour, k uint64) *message {
	ch := buildChain(s.peers[0].node.gid, r.p.id, 0, r.p.cfg.Entropy, DefaultChainLen)
	return &message{kind: kindTake, colour: colour, k: k, chainLen: DefaultChainLen, anchor: ch[0]}
}

func TestThreatTakeSeat(t *testing.T) {
	newGame := func() *sim { return newSim(t, threatSeed, 3, 1, simFaults{}, true) }
	s := newGame()
	s.start()
	s.run()
	s.check(true)
	clean := s.peers[0].node.g.hist
	at10 := func(g *game) bool { return g.phase == PhaseReveal && g.k >= 10 }
	for _, tc := range []struct {
		name  string
		kind  EventKind
		cheat Cheat
		act   func(s *sim, r *rogue, bot engine.Colour)
	}{
		{"taking a seat without the votes", EventCheating, CheatNoSeat, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				r.send(t, s, r.take(s, bot, 0))
				r.send(t, s, &message{kind: kindReveal, k: g.k, link: [32]byte{7}, state: g.hist})
			})
		}},
		{"a request for a roll already reached (a chain committed late)", EventSeatRefused, 0, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				r.send(t, s, r.take(s, bot, 0))
				r.send(t, s, r.take(s, bot, g.k-1))
			})
		}},
		{"flying the seat after a refused request", EventCheating, CheatNoSeat, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				r.send(t, s, r.take(s, bot, 0))
				r.send(t, s, r.take(s, bot, g.k-1))
				r.send(t, s, &message{kind: kindReveal, k: g.k + 1, link: [32]byte{7}, state: g.hist})
			})
		}},
		{"taking a seat a person holds", EventCheating, CheatSeatHeld, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				r.send(t, s, r.take(s, s.peers[1].node.players[s.peers[1].node.self].colour, g.k+takeAheadRoll))
			})
		}},
		{"a copied chain (another seat's commitment)", EventCheating, CheatCopiedChain, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				m := r.take(s, bot, g.k+takeAheadRoll)
				m.anchor = s.peers[1].node.chain[0]
				r.send(t, s, m)
			})
		}},
		{"changing its committed chain", EventCheating, CheatBadTake, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				r.send(t, s, r.take(s, bot, 0))
				m := r.take(s, bot, g.k+takeAheadRoll)
				m.anchor[0] ^= 1
				r.send(t, s, m)
			})
		}},
		{"asking twice at once", EventCheating, CheatBadTake, func(s *sim, r *rogue, bot engine.Colour) {
			when(s, s.peers[0], at10, func() {
				g := &s.peers[0].node.g
				held := s.peers[1].node.players[s.peers[1].node.self].colour // refused at its roll: nobody is seated
				r.send(t, s, r.take(s, held, g.k+takeAheadRoll))
				r.send(t, s, r.take(s, held, g.k+takeAheadRoll+1))
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newGame()
			r := addRogue(t, s)
			tc.act(s, r, botColour(t, s))
			s.start()
			s.run()
			assertCaught(t, s, r.p, tc.kind, tc.cheat)
			assertUnchanged(t, s, clean)
			for _, p := range s.peers {
				if !p.cheater && seatedAt(p, r.p.id) >= 0 {
					t.Fatalf("%s seated the rogue", short(p.id))
				}
			}
		})
	}
	t.Run("a take from a player that holds a seat", func(t *testing.T) {
		s := newGame()
		c := s.peers[2]
		c.cheater = true
		when(s, c, at10, func() {
			inject(t, s, c, &message{kind: kindTake, colour: botColour(t, s), k: c.node.g.k + takeAheadRoll, chainLen: DefaultChainLen, anchor: [32]byte{3}})
		})
		s.start()
		s.run()
		assertCaught(t, s, c, EventCheating, CheatBadTake)
		assertUnchanged(t, s, clean)
	})
}

// Two newcomers ask for one bot seat: exactly one flies it, the same on
// every peer and in every run of the seed.
func TestSimTakeSeatRace(t *testing.T) {
	for _, gap := range []uint64{0, 3} {
		t.Run(fmt.Sprintf("second %d rolls later", gap), func(t *testing.T) {
			var winners []peer.ID
			for range 2 {
				s := newSim(t, 23, 2, 1, simFaults{}, false)
				for i := range 2 {
					s.setManual(i, 4)
				}
				c := botColour(t, s)
				a := addNewcomer(t, s, c, 15)
				b := addNewcomer(t, s, c, 15+gap)
				s.start()
				s.run()
				s.check(true)
				var won peer.ID
				for _, p := range s.peers {
					ra, rb := seatedAt(p, a.id), seatedAt(p, b.id)
					if (ra >= 0) == (rb >= 0) {
						t.Fatalf("%s seated %s from %d and %s from %d: want exactly one", short(p.id), short(a.id), ra, short(b.id), rb)
					}
					w := a.id
					if rb >= 0 {
						w = b.id
					}
					if won != "" && w != won {
						t.Fatalf("%s seated %s, another peer %s", short(p.id), short(w), short(won))
					}
					won = w
				}
				t.Logf("requests: %s for roll %d, %s for roll %d; %s won", short(a.id), a.node.take.pend[a.id].r, short(b.id), b.node.take.pend[b.id].r, short(won))
				winners = append(winners, won)
			}
			if winners[0] != winners[1] {
				t.Fatalf("the seed's two runs seated %s and %s", short(winners[0]), short(winners[1]))
			}
		})
	}
}

var simTakes = flag.Int("sim.takes", 150, "number of seeded faulty games with a newcomer TestSimFaultsTakeSeat plays")

// TestSimFaultsTakeSeat adds a newcomer to the seeded faulty games that
// have a bot seat (drops, duplicates, delays, partitions, crashes and
// machine crashes, absence votes, leavers; not going on alone): it comes up
// at some roll and asks for the bot's seat. Every honest peer, the
// newcomer included, must agree on the history, and every peer's log
// verify to it.
func TestSimFaultsTakeSeat(t *testing.T) {
	games := *simTakes
	if raceOn && !flagSet("sim.takes") {
		games = 10
	}
	var played, seated, lateRefused, ticks int
	var stalled []uint64
	for seed := *simFrom; played < games; seed++ {
		if *simSeed != 0 {
			seed = *simSeed
		}
		s := faultySim(t, seed)
		var bot engine.Colour
		hasBot := false
		for _, st := range s.peers[0].cfg.Setup.Seats {
			if st.Player == "" {
				bot, hasBot = st.Colour, true
				break
			}
		}
		// Games whose players go on alone (GoOnAlone) are left out: a
		// branch without a majority hands no seat over, and seed 428's
		// halves, both gone on, never settle on one history with a
		// newcomer watching (a timing of the split merge, alone.go, not
		// analysed yet; PROTOCOL.md lists it).
		if !hasBot || s.goOn {
			if *simSeed != 0 {
				t.Fatalf("seed %d has no bot seat or goes on alone", seed)
			}
			continue
		}
		played++
		nc := addNewcomer(t, s, bot, 5+seed%40)
		s.start()
		s.run()
		if !s.done() && s.votedStall() {
			stalled = append(stalled, seed)
			s.check(false)
			continue
		}
		s.check(true)
		ticks += s.now
		if seatedAt(s.peers[0], nc.id) >= 0 {
			seated++
		}
		lateRefused += countEvents(s.peers[0], EventSeatRefused, nc)
		for _, p := range s.peers {
			v, err := verifyRecords(roundTripLog(t, p.log), fakeVerify)
			if err != nil || v.History != p.node.g.hist {
				t.Fatalf("seed %d: %s's log does not verify to its history: %v%s", seed, short(p.id), err, s.describe())
			}
		}
		if *simSeed != 0 {
			break
		}
	}
	t.Logf("%d games with a newcomer: %d seated it, %d of its requests refused (too late), %d ticks; stalled by crossed absence votes: %v",
		played, seated, lateRefused, ticks, stalled)
	if n := len(stalled); n*200 > played {
		t.Fatalf("%d of %d games stalled (seeds %v): more than the 0.5%% residual", n, played, stalled)
	}
	if played >= 20 && seated*2 < played {
		t.Fatalf("only %d of %d newcomers were seated", seated, played)
	}
}

// TestVerifyTakeSeatLog: a log of a game whose bot seat a newcomer took
// verifies with real Ed25519 keys, the newcomer's signatures and links
// checked from its Take on; Seats names both owners of the seat; a log
// whose newcomer reveal is altered is rejected.
func TestVerifyTakeSeatLog(t *testing.T) {
	s := newSim(t, 5, 2, 1, simFaults{}, true)
	for i := range 2 {
		s.setManual(i, 4)
	}
	c := botColour(t, s)
	nc := addNewcomer(t, s, c, 20)
	s.start()
	s.run()
	s.check(true)
	// takeseat.log pins the log format of a seat change (aeroplane
	// verify's tests read it).
	testkit.Golden(t, filepath.Join("testdata", "takeseat.log"), append(LogHeader(), EncodeRecords(s.peers[0].log...)...))
	for _, p := range []*simPeer{s.peers[0], nc} {
		data := append(LogHeader(), EncodeRecords(p.log...)...)
		v, err := Verify(data)
		if err != nil {
			t.Fatalf("%s's log: %v", short(p.id), err)
		}
		if v.History != p.node.g.hist || v.Phase != PhaseOver {
			t.Fatalf("%s's log verifies to %s %x, want over %x", short(p.id), v.Phase, v.History[:6], p.node.g.hist[:6])
		}
		var owners []SeatOwner
		for _, o := range v.Seats {
			if o.Colour == c {
				owners = append(owners, o)
			}
		}
		if len(owners) != 2 || !owners[0].Bot || owners[1].Player != nc.id || owners[1].From < 20 {
			t.Fatalf("%s's log: the %s seat's owners %+v, want its bot then %s from roll ≥ 20", short(p.id), c, owners, short(nc.id))
		}
	}
	// Alter one of the newcomer's reveals (a byte of its link).
	recs := append([]Record(nil), s.peers[0].log...)
	for i, r := range recs {
		m, err := decodeMessage(r.Data)
		if err == nil && m.from == nc.id && m.kind == kindReveal {
			d := append([]byte(nil), r.Data...)
			d[len(d)-70] ^= 1
			recs[i].Data = d
			break
		}
	}
	if _, err := Verify(append(LogHeader(), EncodeRecords(recs...)...)); err == nil {
		t.Fatal("a log with a newcomer's reveal altered verifies")
	}
}

// A player leaves; a newcomer takes its seat (a bot flew it meanwhile):
// every peer, the leaver's lingering node too, agrees, and the seat has
// three owners in the history: the player, its bot from its Leave, the
// newcomer.
func TestSimTakeLeftSeat(t *testing.T) {
	s := newSim(t, 31, 3, 0, simFaults{}, false)
	for i := range 3 {
		s.setManual(i, 4)
	}
	leaver := s.peers[2]
	c := leaver.cfg.Setup.Seats[0].Colour
	for _, st := range leaver.cfg.Setup.Seats {
		if st.Player == leaver.id {
			c = st.Colour
		}
	}
	left := 0
	leaveAt(t, s, leaver, 10, &left)
	nc := addNewcomer(t, s, c, 25)
	s.start()
	s.run()
	s.check(true)
	r := seatedAt(s.peers[0], nc.id)
	for _, p := range s.peers {
		if seatedAt(p, nc.id) != r || r < 20 {
			t.Fatalf("%s seated the newcomer from roll %d, %s from %d", short(p.id), seatedAt(p, nc.id), short(s.peers[0].id), r)
		}
		if countEvents(p, EventLeft, leaver) != 1 {
			t.Fatalf("%s saw %s leave %d times", short(p.id), short(leaver.id), countEvents(p, EventLeft, leaver))
		}
	}
	for _, e := range s.peers[0].events {
		if e.Kind == EventSeatTaken && e.Peer == nc.id && !strings.Contains(e.Detail, short(leaver.id)) {
			t.Fatalf("seat-taken says %q, want the leaver named", e.Detail)
		}
	}
	moved := 0
	for _, e := range nc.events {
		if e.Kind == EventMoved && e.Colour == c && e.Roll >= uint64(r) {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("the newcomer never moved the seat it took")
	}
}

// A seated newcomer crashes and is restored from its own log: it flies
// its seat again and every peer finishes on one history.
func TestSimTakeSeatRestore(t *testing.T) {
	for _, at := range []int{0, 30, 120} { // ticks after it is seated
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			s := newSim(t, 11, 2, 1, simFaults{}, false)
			for i := range 2 {
				s.setManual(i, 4)
			}
			nc := addNewcomer(t, s, botColour(t, s), 15)
			idx := len(s.peers) - 1
			var try func(s *sim)
			try = func(s *sim) {
				if seatedAt(nc, nc.id) < 0 {
					s.addAction(s.now+1, try)
					return
				}
				s.crash(s.now+at, 20, idx)
			}
			s.addAction(1, try)
			restored := false
			s.onRestore = func(s *sim, p *simPeer) {
				restored = p == nc && p.node.self >= 0 // seated again from its own log
			}
			s.start()
			s.run()
			s.check(true)
			if seatedAt(s.peers[0], nc.id) < 0 || !restored {
				t.Fatalf("seated %v, restored seated %v", seatedAt(s.peers[0], nc.id) >= 0, restored)
			}
		})
	}
}
