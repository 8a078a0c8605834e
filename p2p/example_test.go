package p2p_test

import (
	"fmt"

	"aeroplane/p2p"
)

// A frame on the wire: a 4-byte length, a kind byte, the body.
func ExampleAppendFrame() {
	b, _ := p2p.AppendFrame(nil, p2p.Frame{Kind: p2p.KindChat, Body: []byte("hi")})
	fmt.Printf("% x\n", b)
	f, rest, err := p2p.DecodeFrame(b)
	fmt.Println(f.Kind, string(f.Body), len(rest), err)
	// Output:
	// 00 00 00 03 11 68 69
	// chat hi 0 <nil>
}

// Names are cleaned before they go into a TXT record.
func ExampleCleanName() {
	fmt.Printf("%q\n", p2p.CleanName("  Friday\tnight\x07  game "))
	// Output: "Friday night game"
}

// How a peer starts: identity, host, transport, discovery, lobby, game log.
// (Not run: it needs a network namespace; see the LAN tests.)
func Example() {
	key, _ := p2p.LoadOrCreateIdentity("/tmp/example-identity.key")
	h, _ := p2p.NewHost(p2p.HostConfig{Identity: key}) // LAN addresses
	t := p2p.NewTransport(h, p2p.TransportConfig{})
	d, _ := p2p.StartDiscovery(h, p2p.Advert{Name: "Ada"}, p2p.DiscoveryConfig{})
	_ = d
	fmt.Println(p2p.DialableAddrs(h)) // what another player types into --connect
	// res, err := lobby.Run(ctx, t, d, p2p.NewChat(t), lobby.Config{Player: "Ada", Lobby: "friday"})
	// g, err := dir.Create(res.Setup, h.ID(), nil) // savegame: the dice secret and the log
	// then the game: session.NewGame(t, ...) runs a lockstep.Driver over the transport, writing g.Log
	t.Close()
	h.Close()
}
