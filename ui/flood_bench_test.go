package ui

import (
	"fmt"
	"testing"

	"aeroplane/p2p"
)

// BenchmarkLobbyAtTheCap is what one lobby view costs the screen when a
// flood of forged adverts has filled the lobby to its caps (as many games
// and players as p2p keeps of strangers): the view applied, then the
// screen drawn at 80×24. The session coalesces views to one per 200 ms,
// so this is the most a key can wait behind a flood's redraw.
func BenchmarkLobbyAtTheCap(b *testing.B) {
	u, _ := lobbyUI()
	var up LobbyUpdate
	up.Me = u.lobby.Me
	for i := range p2p.DefaultMaxStrangers {
		id := fmt.Sprintf("12D3KooWforged%06d", i)
		up.Games = append(up.Games, Game{ID: fmt.Sprintf("g%d", i), Host: Peer{ID: id, Name: "forged " + id, Unverified: true}, Taken: 1})
		up.Players = append(up.Players, Peer{ID: id, Name: "forged " + id, Addr: "/ip4/10.0.0.9/tcp/4001", Unverified: true})
	}
	s := newSim(b, 80, 24)
	b.ReportAllocs()
	for b.Loop() {
		u.Apply(up)
		u.Draw(s, 80, 24)
	}
}
