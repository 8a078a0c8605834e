package lobby

import (
	"slices"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A host's advert lists its game only with rules the engine reads exactly
// as written (p2p carries the rules as text and checks only their shape),
// and marked unverified until a connection has proved its peer ID.
func TestListing(t *testing.T) {
	off := engine.DefaultRules()
	off.NoStacks = true
	ghost, real := testkit.ID(1), testkit.ID(2)
	proven := func(id peer.ID) bool { return id == real }
	cases := []struct {
		name     string
		ad       p2p.Advert
		ok       bool
		rules    engine.Rules
		verified bool
	}{
		{"a proven host", p2p.Advert{ID: real, Host: true, Lobby: "x", Free: 1, Taken: 1, Rules: off.String()}, true, off, true},
		{"an advert alone", p2p.Advert{ID: ghost, Host: true, Lobby: "x", Free: 1, Taken: 1, Rules: off.String()}, true, off, false},
		{"no rules said", p2p.Advert{ID: real, Host: true, Lobby: "x", Free: 1}, false, engine.Rules{}, false},
		{"unknown value", p2p.Advert{ID: real, Host: true, Lobby: "x", Free: 1, Rules: "takeoff=seven"}, false, engine.Rules{}, false},
		{"not canonical", p2p.Advert{ID: real, Host: true, Lobby: "x", Free: 1, Rules: "stack=off"}, false, engine.Rules{}, false},
		{"no free seat", p2p.Advert{ID: real, Host: true, Lobby: "x", Free: 0, Rules: off.String()}, false, engine.Rules{}, false},
		{"not a host", p2p.Advert{ID: real, Lobby: "x", Free: 2}, false, engine.Rules{}, false},
	}
	for _, c := range cases {
		got := Listing([]p2p.Advert{c.ad}, proven)
		if len(got) == 1 != c.ok {
			t.Errorf("%s: listed %v, want %v", c.name, len(got) == 1, c.ok)
			continue
		}
		if c.ok && (got[0].Rules != c.rules || got[0].Verified != c.verified) {
			t.Errorf("%s: rules %v verified %v, want %v %v", c.name, got[0].Rules, got[0].Verified, c.rules, c.verified)
		}
	}
}

// An unverified line becomes a normal one once its peer ID is proven;
// ToProve dials the unverified ones, at most max at a time, not those
// tried recently.
func TestListingProvenLater(t *testing.T) {
	ads := []p2p.Advert{}
	for i := 1; i <= 6; i++ {
		ads = append(ads, p2p.Advert{ID: testkit.ID(i), Host: true, Lobby: "x", Free: 1, Rules: engine.DefaultRules().String()})
	}
	provenSet := map[peer.ID]bool{testkit.ID(1): true}
	proven := func(id peer.ID) bool { return provenSet[id] }
	tried := func(id peer.ID) bool { return id == testkit.ID(2) }
	list := Listing(ads, proven)
	if want := []peer.ID{testkit.ID(3), testkit.ID(4), testkit.ID(5)}; !slices.Equal(ToProve(list, 3, tried), want) {
		t.Errorf("ToProve = %v, want %v", ToProve(list, 3, tried), want)
	}
	if list[2].Verified {
		t.Fatal("a host only an advert names is verified")
	}
	provenSet[testkit.ID(3)] = true // a connection proved it
	if list = Listing(ads, proven); !list[2].Verified {
		t.Error("a proven host is still unverified")
	}
}
