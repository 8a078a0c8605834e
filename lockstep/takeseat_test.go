package lockstep

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"aeroplane/engine"
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
	p.cfg.AutoRoll, p.cfg.GoOnAlone = true, false
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
