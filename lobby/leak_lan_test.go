package lobby

import (
	"context"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A stranger on the LAN hands a player addresses on the internet, names
// and dnsaddrs, in a lobby join (which the host relays to its table) and
// in a lobby redirect. No player sends a packet to any of them or looks up
// any name, while the private address among them is still dialled.
func TestStrangerLobbyMsgsDialNothingOutside(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	inet := netlab.StartInternet(t)
	bad := inet.BadAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()

	// A lobby: its host and one member; the stranger joins it with its
	// address list, and the host sends the table, addresses and all, to
	// the member, which dials every player it is not connected to.
	host, member, stranger := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	joined := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	lctx, lcancel := context.WithCancel(ctx)
	defer func() { lcancel(); wg.Wait() }()
	wg.Go(func() {
		_, _ = Run(lctx, host, nil, nil, Config{Player: "H", Lobby: "leak", Players: 4, Create: true, Logger: p2ptest.Logger(t)})
	})
	wg.Go(func() {
		_, _ = Run(lctx, member, nil, nil, Config{Player: "M", Lobby: "leak", FindFor: time.Hour, Logger: p2ptest.Logger(t),
			Connect: []peer.AddrInfo{{ID: host.Host().ID(), Addrs: host.Host().Addrs()}},
			OnChange: func(v View) {
				if len(v.Players) == 2 {
					once.Do(func() { close(joined) })
				}
			}})
	})
	select {
	case <-joined:
	case <-ctx.Done():
		t.Fatal("the member never joined the lobby")
	}
	if err := stranger.Connect(ctx, peer.AddrInfo{ID: host.Host().ID(), Addrs: host.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	join := lobbyMsg{T: lobbyJoin, Lobby: "leak", Name: "stranger", Addrs: addrStrings(bad)}
	if err := stranger.Send(host.Host().ID(), p2p.KindLobby, encodeLobbyMsg(join)); err != nil {
		t.Fatal(err)
	}
	inet.WaitCanary(t, "lobby join")
	if inet.Leaks() != 0 {
		t.Errorf("after a stranger's lobby join: %d TCP connections and %d QUIC packets to 8.8.8.8, %d DNS queries",
			inet.Web.Load(), inet.QUIC.Load(), inet.DNS.Load())
	}

	// A redirect: the stranger, dialled by hand by a player looking for a
	// lobby, answers that the lobby's host is a peer that is nowhere, at
	// the same addresses; the player dials it to join.
	inet.Reset()
	seeker := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	wg.Go(func() {
		_, _ = Run(lctx, seeker, nil, nil, Config{Player: "S", Lobby: "leak2", FindFor: time.Hour, Logger: p2ptest.Logger(t),
			Connect: []peer.AddrInfo{{ID: stranger.Host().ID(), Addrs: stranger.Host().Addrs()}}})
	})
	for !stranger.Connected(seeker.Host().ID()) {
		select {
		case <-ctx.Done():
			t.Fatal("the seeker never dialled the stranger")
		case <-time.After(10 * time.Millisecond):
		}
	}
	redirect := lobbyMsg{T: lobbyRedirect, Lobby: "leak2",
		Players: []rosterEntry{{ID: p2ptest.RandomID(t).String(), Name: "ghost", Addrs: addrStrings(bad)}}}
	if err := stranger.Send(seeker.Host().ID(), p2p.KindLobby, encodeLobbyMsg(redirect)); err != nil {
		t.Fatal(err)
	}
	inet.WaitCanary(t, "lobby redirect")
	if inet.Leaks() != 0 {
		t.Errorf("after a stranger's redirect: %d TCP connections and %d QUIC packets to 8.8.8.8, %d DNS queries",
			inet.Web.Load(), inet.QUIC.Load(), inet.DNS.Load())
	}
}
