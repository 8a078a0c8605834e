package p2p

import (
	"context"
	"net"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A stranger on the LAN hands a player addresses on the internet, names
// and dnsaddrs in an mDNS advert. The player sends no packet to any of
// them and looks up no name, while the private address among them is
// still dialled. (The lobby's join and redirect: lobby/leak_lan_test.go.)
func TestStrangerCannotMakePlayersDialOut(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	inet := netlab.StartInternet(t)
	bad := inet.BadAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()

	member := newTestTransport(t, fastConfig(t))

	// An mDNS advert for a peer that is nowhere, at the same addresses;
	// the player dials it as the lobby does a host it saw advertised.
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	d, err := StartDiscovery(member.Host(), Advert{Name: "M"}, DiscoveryConfig{Interfaces: []net.Interface{*lo}, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ghost := randomID(t)
	txt, err := EncodeTXT(Advert{Version: ProtocolVersion, ID: ghost, Name: "ghost", Lobby: "other", Host: true, Free: 3, Addrs: bad})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := (&zone{ips: []net.IP{net.IPv4(127, 0, 0, 1)}, port: 4001, instance: ghost.String()}).service(txt)
	if err != nil {
		t.Fatal(err)
	}
	announceFake(t, svc)
	waitPeers(t, d, "the forged advert", hasPeer(ghost, nil))
	if err := member.Connect(ctx, peer.AddrInfo{ID: ghost}); err == nil {
		t.Fatal("connected to a peer that is nowhere")
	}
	inet.WaitCanary(t, "mDNS advert")
	if inet.Leaks() != 0 {
		t.Errorf("after a forged mDNS advert: %d TCP connections and %d QUIC packets to 8.8.8.8, %d DNS queries",
			inet.Web.Load(), inet.QUIC.Load(), inet.DNS.Load())
	}

}
