package savegame

import (
	"crypto/rand"
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Names saved for a game come back for it (only its players', only
// printable ones); a game without a file has none.
func TestNamesRoundTrip(t *testing.T) {
	d := openDir(t)
	a, b, c := testPeer(t), testPeer(t), testPeer(t)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "n", Rules: engine.DefaultRules(), Seats: []lockstep.Seat{
		{Colour: engine.Red, Player: a}, {Colour: engine.Blue, Player: b}, {Colour: engine.Yellow, Bot: "random"}}}
	cases := []struct {
		name  string
		names map[peer.ID]string
		want  map[peer.ID]string
	}{
		{"both", map[peer.ID]string{a: "Ann", b: "Bob"}, map[peer.ID]string{a: "Ann", b: "Bob"}},
		{"a stranger is left out", map[peer.ID]string{a: "Ann", c: "Eve"}, map[peer.ID]string{a: "Ann"}},
		{"a name with a newline is left out", map[peer.ID]string{a: "Ann\nx\ty", b: "Bob"}, map[peer.ID]string{b: "Bob"}},
		{"none", nil, map[peer.ID]string{}},
	}
	for _, tc := range cases {
		if err := d.SaveNames(setup, tc.names); err != nil {
			t.Fatal(err)
		}
		if got := d.Names(setup.GameID()); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := d.Names(lockstep.GameID{1}); len(got) != 0 {
		t.Errorf("a game never saved has names %v", got)
	}
}

// A names file, however damaged, never panics, and yields at most
// maxNamesLines valid names.
func FuzzParseNames(f *testing.F) {
	f.Add("12D3KooWGRUVh6zEj5RkQZk6hK6bFZUDLAeU9VtYJcqmAFiTtW7j\tAnn\n")
	f.Add("x\ty\n\t\n" + strings.Repeat("a", 70000))
	f.Fuzz(func(t *testing.T, s string) {
		got := ParseNames(strings.NewReader(s))
		if len(got) > maxNamesLines {
			t.Fatalf("%d names", len(got))
		}
		for _, n := range got {
			if !validSavedName(n) {
				t.Fatalf("invalid name %q", n)
			}
		}
	})
}

func testPeer(t *testing.T) peer.ID {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
