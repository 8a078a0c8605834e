package lockstep

import (
	"crypto/rand"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// BenchmarkRoll is one roll of a 4-player game as a receiving node does it:
// verify the four signed reveals (Ed25519), check each link against its
// chain, derive the roll.
func BenchmarkRoll(b *testing.B) {
	g := GameID{1}
	type pl struct {
		id    peer.ID
		chain [][32]byte
		msg   *message
	}
	var ps []pl
	for i := 0; i < 4; i++ {
		key, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		id, _ := peer.IDFromPrivateKey(key)
		var ent [32]byte
		rand.Read(ent[:])
		chain := buildChain(g, id, 0, ent, 64)
		m := &message{kind: kindReveal, game: g, from: id, seq: 2, k: 0, link: chain[1]}
		if err := m.seal(key.Sign); err != nil {
			b.Fatal(err)
		}
		ps = append(ps, pl{id, chain, m})
	}
	keys := newKeyCache()
	b.ResetTimer()
	for b.Loop() {
		cs := make([]Contribution, 0, 4)
		for _, p := range ps {
			if !keys.verify(p.id, p.msg.signedPart(), p.msg.sig) {
				b.Fatal("signature")
			}
			if ChainStep(g, p.id, p.msg.link) != p.chain[0] {
				b.Fatal("link")
			}
			cs = append(cs, Contribution{p.id, p.msg.link})
		}
		if d := DeriveRoll(g, 0, cs); d < 1 || d > 6 {
			b.Fatal(d)
		}
	}
}

// BenchmarkGame4P is a whole 4-player game between four simulated peers
// with real Ed25519 keys on a fault-free network.
func BenchmarkGame4P(b *testing.B) {
	rolls := 0
	for i := 0; b.Loop(); i++ {
		s := newSim(b, uint64(i+1), 4, 0, simFaults{}, true)
		s.start()
		s.run()
		s.check(true)
		rolls += int(s.peers[0].node.g.k)
	}
	b.ReportMetric(float64(rolls)/float64(b.N), "rolls/game")
}
