package savegame

import (
	"maps"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The seat hosts saved for a game come back for it: only its players'
// seats, never a seat hosted by itself; a game without them has none.
func TestSeatHostsRoundTrip(t *testing.T) {
	d := openDir(t)
	ann, bob, wendy, eve := testPeer(t), testPeer(t), testPeer(t), testPeer(t)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "n", Rules: engine.DefaultRules(), Seats: []lockstep.Seat{
		{Colour: engine.Red, Player: ann}, {Colour: engine.Blue, Player: bob}, {Colour: engine.Green, Player: wendy}}}
	for _, tc := range []struct {
		name        string
		hosts, want map[peer.ID]peer.ID
	}{
		{"a web player", map[peer.ID]peer.ID{wendy: ann}, map[peer.ID]peer.ID{wendy: ann}},
		{"a stranger's seat is left out", map[peer.ID]peer.ID{wendy: bob, eve: ann}, map[peer.ID]peer.ID{wendy: bob}},
		{"a seat of its own is none", map[peer.ID]peer.ID{ann: ann}, nil},
	} {
		if err := d.SaveSeatHosts(setup, tc.hosts); err != nil {
			t.Fatal(err)
		}
		if got := d.SeatHosts(setup); !maps.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	other := setup
	other.Nonce = [16]byte{9}
	if got := d.SeatHosts(other); got != nil {
		t.Errorf("a game never saved has seat hosts %v", got)
	}
}

// A seat hosts file, however damaged, never panics, yields at most
// maxNamesLines seats, each a player hosted by another peer.
func FuzzParseSeatHosts(f *testing.F) {
	a, b := "12D3KooWGRUVh6zEj5RkQZk6hK6bFZUDLAeU9VtYJcqmAFiTtW7j", "12D3KooWQYV9dGMFoRzNStwpXztXaBUjtPqi6aU76ZgUriHhKust"
	f.Add(a + "\t" + b + "\n")
	f.Add("x\ty\n\t\n" + strings.Repeat("a", 70000))
	players := []peer.ID{}
	for _, s := range []string{a, b} {
		id, err := peer.Decode(s)
		if err != nil {
			f.Fatal(err)
		}
		players = append(players, id)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ParseSeatHosts(strings.NewReader(s), players)
		if len(got) > maxNamesLines {
			t.Fatalf("%d seats", len(got))
		}
		for seat, host := range got {
			if seat == host || (seat != players[0] && seat != players[1]) {
				t.Fatalf("seat %s hosted by %s", seat, host)
			}
		}
	})
}
