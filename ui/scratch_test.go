package ui

import (
	"fmt"
	"testing"

	"aeroplane/engine"
)

func TestScratch(t *testing.T) {
	f := newFake()
	u := New(f, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice", Addr: "/ip4/192.168.1.5/tcp/4001/p2p/12D3KooWabcdefXyZ123"},
		Games: []Game{{ID: "g1", Host: Peer{Name: "bob"}, Taken: 2}}, Players: []Peer{{ID: "12D3KooWqrstuvQ9x8y7", Name: "bob", Addr: "/ip4/192.168.1.7/tcp/4001"}}})
	fmt.Print(render(t, u, 80, 24))
	tb := table4(false)
	tb.Seats[3] = Seat{}
	u.Apply(tb)
	u.Apply(ChatLine{From: "bob", Colour: engine.Yellow, Text: "hi all"})
	fmt.Print(render(t, u, 80, 24))
	u.overlay = overlayHelp
	fmt.Print(render(t, u, 80, 24))
	u.overlay = overlayRules
	fmt.Print(render(t, u, 80, 24))
}
