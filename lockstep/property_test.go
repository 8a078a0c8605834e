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
