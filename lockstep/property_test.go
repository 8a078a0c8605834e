package lockstep

import (
	"bytes"
	"fmt"
	"testing"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"pgregory.net/rapid"
)

// Any valid Setup survives Encode/DecodeSetup unchanged, and its GameID
// changes with every field.
func TestSetupRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 4).Draw(t, "seats")
		perm := rapid.Permutation([]engine.Colour{0, 1, 2, 3}).Draw(t, "colours")[:n]
		colours := append([]engine.Colour(nil), perm...)
		for i := range colours {
			for j := i + 1; j < len(colours); j++ {
				if colours[j] < colours[i] {
					colours[i], colours[j] = colours[j], colours[i]
				}
			}
		}
		s := Setup{Version: Version, Name: rapid.StringN(0, 40, 255).Draw(t, "name")}
		s.Rules.Takeoff = engine.Takeoff(rapid.IntRange(0, 2).Draw(t, "takeoff"))
		s.Rules.NoStacks = rapid.Bool().Draw(t, "nostacks")
		copy(s.Nonce[:], rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, "nonce"))
		players := 0
		for i, c := range colours {
			st := Seat{Colour: c}
			if i == 0 || rapid.Bool().Draw(t, fmt.Sprint("player", i)) {
				seed := rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, fmt.Sprint("key", i))
				_, pub, err := crypto.GenerateEd25519Key(bytes.NewReader(seed))
				if err != nil {
					t.Fatal(err)
				}
				if st.Player, err = peer.IDFromPublicKey(pub); err != nil {
					t.Fatal(err)
				}
				players++
			} else {
				st.Bot = "random"
			}
			s.Seats = append(s.Seats, st)
		}
		if err := s.Validate(); err != nil {
			t.Skip(err) // e.g. two equal generated IDs
		}
		got, err := DecodeSetup(s.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if got.GameID() != s.GameID() || string(got.Encode()) != string(s.Encode()) {
			t.Fatalf("round trip changed the setup: %+v vs %+v", got, s)
		}
		s2 := s
		s2.Nonce[0] ^= 1
		if s2.GameID() == s.GameID() {
			t.Fatal("the nonce does not enter the game ID")
		}
	})
}

// Sample always lands in 0..n-1.
func TestSampleRangeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var h [32]byte
		copy(h[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "hash"))
		n := rapid.IntRange(1, 256).Draw(t, "n")
		if v := Sample(h, n); v < 0 || v >= n {
			t.Fatalf("Sample(%x, %d) = %d", h, n, v)
		}
	})
}

// Rule 1 and 1b's invariants. An exclusion by votes is a set every other
// present player voted absent, and those voters are a majority. Crossed
// votes always resolve: whenever some set is so voted, one is excluded
// (before rule 1b, a set {A} voted by B and C and a set {C} voted by A and
// B excluded nobody: their union has one voter of three, and the game
// stalled). And the excluded players' own votes change nothing unless
// they let a majority exclude another set too (a cross, settled from the
// complete votes like any): the players that go on, who exchange their
// votes before their next reveals, settle the step alike whenever the
// excluded ones' votes arrive.
func TestSettleByMajorityProperty(tt *testing.T) {
	rapid.Check(tt, func(t *rapid.T) {
		players := rapid.IntRange(2, 4).Draw(t, "players")
		s := newSim(tt, 1, players, 0, simFaults{}, false)
		s.start()
		g := &s.peers[0].node.g
		const step = 40
		absent := make([]bool, players)
		for i := range absent {
			absent[i] = rapid.Bool().Draw(t, fmt.Sprint("absent", i))
		}
		var cands []int
		for i := range players {
			if !absent[i] {
				cands = append(cands, i)
			}
		}
		draw := func(label string, voter func(j int) bool) map[voteKey]map[int]uint8 {
			vs := map[voteKey]map[int]uint8{}
			for _, i := range cands {
				for _, j := range cands {
					if i == j || !voter(j) || !rapid.Bool().Draw(t, fmt.Sprintf("%s%d-%d", label, j, i)) {
						continue
					}
					key := voteKey{i, step}
					if vs[key] == nil {
						vs[key] = map[int]uint8{}
					}
					vs[key][j] = voteAbsent
				}
			}
			return vs
		}
		// every set every other present player voted absent, with a majority
		settled := func() [][]int {
			var out [][]int
			for set := 1; set < 1<<len(cands); set++ {
				var xs []int
				for k, i := range cands {
					if set&(1<<k) != 0 {
						xs = append(xs, i)
					}
				}
				ok := quorumIn(absent, xs)
				for _, x := range xs {
					for _, j := range cands {
						if _, v := g.votes[voteKey{x, step}][j]; !containsInt(xs, j) && !v {
							ok = false
						}
					}
				}
				if ok {
					out = append(out, xs)
				}
			}
			return out
		}
		g.votes = draw("vote", func(int) bool { return true })
		xs, carry, _ := g.exclusionAt(step, absent)
		if sets := settled(); len(sets) > 0 != carry {
			t.Fatalf("votes %v (absent %v): sets voted absent by a majority %v, excluded %v (carry %v)", g.votes, absent, sets, xs, carry)
		}
		if !carry {
			return
		}
		found := false
		for _, ys := range settled() {
			found = found || equalInts(xs, ys)
		}
		if !found {
			t.Fatalf("excluded %v: not voted absent by a majority of the others (votes %v, absent %v)", xs, g.votes, absent)
		}
		// Other votes of the excluded ones: the same set, unless a cross.
		others := draw("other", func(j int) bool { return containsInt(xs, j) })
		for _, vs := range g.votes {
			for j := range vs {
				if containsInt(xs, j) {
					delete(vs, j)
				}
			}
		}
		for key, vs := range others {
			if g.votes[key] == nil {
				g.votes[key] = map[int]uint8{}
			}
			for j, v := range vs {
				g.votes[key][j] = v
			}
		}
		for _, ys := range settled() {
			for _, y := range ys {
				if !containsInt(xs, y) {
					return // a cross
				}
			}
		}
		if ys, carry2, _ := g.exclusionAt(step, absent); !carry2 || !equalInts(xs, ys) {
			t.Fatalf("excluded %v; with other votes of theirs, %v (carry %v)", xs, ys, carry2)
		}
	})
}
