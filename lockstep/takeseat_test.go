package lockstep

import (
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
