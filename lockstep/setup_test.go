package lockstep

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func ed25519ID(t testing.TB, seed byte) peer.ID {
	t.Helper()
	return testkit.ID(int(seed))
}

// hashedID is a well-formed peer ID that embeds no key: the SHA-256
// multihash an RSA peer's ID is.
func hashedID() peer.ID {
	h := sha256.Sum256([]byte("an rsa key"))
	id, err := peer.IDFromBytes(append([]byte{0x12, 0x20}, h[:]...))
	if err != nil {
		panic(err)
	}
	return id
}

func secp256k1ID(t testing.TB) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateSecp256k1Key(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// badSetups are the ways a hostile lobby host can get a Setup wrong, each
// with what Validate must say; every one would otherwise fail a later
// step (a signature no seat can make, a seat given twice, a garbled
// screen).
func badSetups(t testing.TB) (good Setup, bad []struct {
	name  string
	setup Setup
	want  string
}) {
	a, b := ed25519ID(t, 1), ed25519ID(t, 2)
	good = Setup{Version: Version, Name: "lobby", Seats: []Seat{{Colour: engine.Red, Player: a}, {Colour: engine.Blue, Player: b}, {Colour: engine.Yellow, Bot: "random"}}}
	with := func(f func(s *Setup)) Setup {
		s := good
		s.Seats = append([]Seat(nil), good.Seats...)
		f(&s)
		return s
	}
	bad = []struct {
		name  string
		setup Setup
		want  string
	}{
		{"a peer ID without a key", with(func(s *Setup) { s.Seats[1].Player = hashedID() }), "embeds no public key"},
		{"a secp256k1 peer", with(func(s *Setup) { s.Seats[1].Player = secp256k1ID(t) }), "not Ed25519"},
		{"bytes that are no peer ID", with(func(s *Setup) { s.Seats[1].Player = peer.ID("not a peer id") }), "embeds no public key"},
		{"one peer in two seats", with(func(s *Setup) { s.Seats[1].Player = a }), "holds two seats"},
		{"a name with terminal escapes", with(func(s *Setup) { s.Name = "lobby\x1b[2J" }), "not printable"},
		{"a name that is not UTF-8", with(func(s *Setup) { s.Name = "lobby\xff" }), "not printable"},
		{"no players", with(func(s *Setup) {
			s.Seats[0].Player, s.Seats[0].Bot, s.Seats[1].Player, s.Seats[1].Bot = "", "random", "", "random"
		}), "no player seats"},
		{"an empty seat", with(func(s *Setup) { s.Seats[2].Bot = "" }), "neither a player nor a bot"},
		{"an unknown bot", with(func(s *Setup) { s.Seats[2].Bot = "oracle" }), "seat Y"},
		{"colours out of order", with(func(s *Setup) { s.Seats[0].Colour = engine.Green }), "ascending colour order"},
		{"one seat", with(func(s *Setup) { s.Seats = s.Seats[:1] }), "1 seats"},
		{"another version", with(func(s *Setup) { s.Version = 2 }), "protocol version 2"},
	}
	return good, bad
}

// Validate rejects every bad Setup with ErrBadSetup and a reason, and
// so do DecodeSetup and NewNode, before a node is made or a record is
// written.
func TestSetupValidate(t *testing.T) {
	good, bad := badSetups(t)
	if err := good.Validate(); err != nil {
		t.Fatalf("the good setup: %v", err)
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.setup.Validate()
			if !errors.Is(err, ErrBadSetup) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want ErrBadSetup saying %q", err, tc.want)
			}
			if _, err := DecodeSetup(tc.setup.Encode()); !errors.Is(err, ErrBadSetup) {
				t.Fatalf("DecodeSetup accepted it: %v", err)
			}
			self := good.Seats[0].Player
			if _, err := NewNode(Config{Setup: tc.setup, Self: self, Key: nil}); !errors.Is(err, ErrBadSetup) {
				t.Fatalf("NewNode: %v; want ErrBadSetup", err)
			}
		})
	}
}
