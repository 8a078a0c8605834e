package p2p

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

func TestLanDialable(t *testing.T) {
	const id = "/p2p/12D3KooWGRUVh6PQnUVfkfTq4Gn9WFEsLJ5AW1ES6wX9VAmpfHWz"
	tests := []struct {
		addr string
		want bool
	}{
		// Every LAN range, both ends where it matters.
		{"/ip4/127.0.0.1/tcp/4001", true},
		{"/ip4/127.255.255.254/tcp/4001", true},
		{"/ip4/10.0.0.1/tcp/4001", true},
		{"/ip4/10.255.255.255/udp/4001/quic-v1", true},
		{"/ip4/172.16.0.1/tcp/1", true},
		{"/ip4/172.31.255.255/tcp/1", true},
		{"/ip4/172.15.255.255/tcp/1", false},
		{"/ip4/172.32.0.0/tcp/1", false},
		{"/ip4/192.168.0.1/tcp/1", true},
		{"/ip4/192.169.0.1/tcp/1", false},
		{"/ip4/169.254.1.1/tcp/1", true},
		{"/ip6/::1/tcp/4001", true},
		{"/ip6/fc00::1/tcp/4001", true},
		{"/ip6/fd12:3456::1/udp/4001/quic-v1", true},
		{"/ip6/fe80::1/tcp/4001", true},
		{"/ip6/febf::1/tcp/4001", true},
		{"/ip6/fec0::1/tcp/4001", false},
		{"/ip6/::ffff:10.0.0.1/tcp/4001", true},
		{"/ip6/::ffff:8.8.8.8/tcp/4001", false},
		// The internet, and addresses that are nobody's.
		{"/ip4/8.8.8.8/tcp/443", false},
		{"/ip4/8.8.8.8/udp/443/quic-v1", false},
		{"/ip4/100.64.0.1/tcp/443", false},
		{"/ip4/0.0.0.0/tcp/443", false},
		{"/ip4/255.255.255.255/tcp/443", false},
		{"/ip4/224.0.0.251/udp/5353/quic-v1", false},
		{"/ip6/2001:4860:4860::8888/tcp/443", false},
		{"/ip6/::/tcp/443", false},
		// Names are never dialled, whatever they would resolve to.
		{"/dns/localhost/tcp/4001", false},
		{"/dns4/leak.example.com/tcp/443", false},
		{"/dns6/leak.example.com/tcp/443", false},
		{"/dnsaddr/leak.example.com", false},
		{"/dnsaddr/leak.example.com" + id, false},
		// Only TCP and QUIC v1, with at most a peer ID after them.
		{"/ip4/10.0.0.1/tcp/4001" + id, true},
		{"/ip4/10.0.0.1/udp/4001/quic-v1" + id, true},
		{"/ip4/10.0.0.1/udp/4001", false},
		{"/ip4/10.0.0.1/udp/4001/quic", false},
		{"/ip4/10.0.0.1/udp/4001/quic-v1/webtransport", false},
		{"/ip4/10.0.0.1/tcp/4001/ws", false},
		{"/ip4/10.0.0.1/tcp/4001/tls/ws", false},
		{"/ip4/10.0.0.1/tcp/4001" + id + "/p2p-circuit" + id, false},
		{"/ip4/10.0.0.1/tcp/4001/tcp/4002", false},
		{"/ip4/10.0.0.1", false},
		{"/ip6zone/eth0/ip6/fe80::1/tcp/4001", false},
		{"/unix/tmp/sock", false},
		{id, false},
	}
	for _, tc := range tests {
		a, err := ma.NewMultiaddr(tc.addr)
		if err != nil {
			t.Fatalf("%s: %v", tc.addr, err)
		}
		if got := lanDialable(a); got != tc.want {
			t.Errorf("lanDialable(%s) = %v, want %v", tc.addr, got, tc.want)
		}
	}
	if lanDialable(nil) || lanDialable(ma.Multiaddr{}) {
		t.Error("the empty address is dialable")
	}
}

// lanDialable never panics, and what it accepts is a LAN IP with TCP or
// QUIC on it, whatever bytes the multiaddr came from.
func FuzzLanDialable(f *testing.F) {
	for _, s := range []string{"/ip4/10.0.0.1/tcp/1", "/ip4/8.8.8.8/udp/443/quic-v1", "/dns4/a.example/tcp/1",
		"/ip6/fe80::1/tcp/1/p2p/12D3KooWGRUVh6PQnUVfkfTq4Gn9WFEsLJ5AW1ES6wX9VAmpfHWz"} {
		f.Add(ma.StringCast(s).Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ma.NewMultiaddrBytes(b)
		if err != nil {
			return
		}
		if !lanDialable(a) {
			return
		}
		ip, ok := netip.AddrFromSlice(a[0].RawValue())
		if !ok || !lanIP(ip) {
			t.Fatalf("accepted %s, not a LAN IP", a)
		}
		if _, err := a.ValueForProtocol(ma.P_TCP); err != nil {
			if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err != nil {
				t.Fatalf("accepted %s, neither TCP nor QUIC v1", a)
			}
		}
	})
}

func randomID(t testing.TB) peer.ID {
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

// A peer's public addresses are dropped and counted, and named in the log
// once per peer however often it repeats them; what the user typed for a
// peer is dialled, for that peer only.
func TestAddrPolicyFilter(t *testing.T) {
	var logged []string
	p := newAddrPolicy(slog.New(recordHandler{&logged}))
	stranger, other, typed := randomID(t), randomID(t), randomID(t)
	lan, pub := ma.StringCast("/ip4/192.168.1.5/tcp/4001"), ma.StringCast("/ip4/8.8.8.8/tcp/443")
	name := ma.StringCast("/dns4/leak.example.com/tcp/443")
	for range 100 {
		got := p.filter(stranger, []ma.Multiaddr{pub, lan, name}, "test")
		if len(got) != 1 || !got[0].Equal(lan) {
			t.Fatalf("filter kept %v, want only %s", got, lan)
		}
	}
	if n := p.dropped.Load(); n != 200 {
		t.Errorf("dropped %d, want 200", n)
	}
	if len(logged) != 1 {
		t.Errorf("%d log lines for one peer's 200 bad addresses, want 1", len(logged))
	}
	p.filter(other, []ma.Multiaddr{pub}, "test")
	if len(logged) != 2 {
		t.Errorf("a second peer's bad address: %d log lines, want 2", len(logged))
	}
	p.vouch(peer.AddrInfo{ID: typed, Addrs: []ma.Multiaddr{pub.Encapsulate(ma.StringCast("/p2p/" + typed.String()))}})
	if !p.allowed(typed, pub) {
		t.Error("an address the user typed is refused")
	}
	if p.allowed(stranger, pub) {
		t.Error("an address vouched for one peer is allowed for another")
	}
	for range 2 * maxVouched {
		p.vouch(peer.AddrInfo{ID: randomID(t), Addrs: []ma.Multiaddr{pub}})
	}
	if len(p.vouched) != maxVouched {
		t.Errorf("%d vouches kept, want at most %d", len(p.vouched), maxVouched)
	}
	for range 2 * maxWarned {
		p.filter(randomID(t), []ma.Multiaddr{pub}, "test")
	}
	if len(p.warned) > maxWarned || len(logged) > maxWarned {
		t.Errorf("%d peers remembered, %d lines logged: want at most %d", len(p.warned), len(logged), maxWarned)
	}
}

// The host's resolver answers no name, and says so.
func TestRefusingResolver(t *testing.T) {
	p := newAddrPolicy(slog.New(slog.DiscardHandler))
	r := refusingResolver{p}
	ctx := context.Background()
	if as, err := r.ResolveDNSAddr(ctx, "", ma.StringCast("/dnsaddr/leak.example.com"), 32, 32); err == nil || len(as) != 0 {
		t.Errorf("ResolveDNSAddr = %v, %v", as, err)
	}
	if as, err := r.ResolveDNSComponent(ctx, ma.StringCast("/dns4/localhost/tcp/1"), 32); err == nil || len(as) != 0 {
		t.Errorf("ResolveDNSComponent = %v, %v", as, err)
	}
	if n := p.resolves.Load(); n != 2 {
		t.Errorf("%d refusals counted, want 2", n)
	}
}

// fakeNet has live connections to some peers, from given addresses.
type fakeNet struct {
	network.Network
	conns map[peer.ID][]ma.Multiaddr
}

type fakeConn struct {
	network.Conn
	remote ma.Multiaddr
}

func (c fakeConn) RemoteMultiaddr() ma.Multiaddr { return c.remote }

func (n fakeNet) ConnsToPeer(p peer.ID) []network.Conn {
	var cs []network.Conn
	for _, a := range n.conns[p] {
		cs = append(cs, fakeConn{remote: a})
	}
	return cs
}

// The gater refuses every dial a peer-given address would make outside
// the LAN (identify's addresses meet nothing else), except back to the
// exact address a live connection from that peer comes from.
func TestGaterInterceptAddrDial(t *testing.T) {
	var logged []string
	g := newFloodGater(slog.New(slog.DiscardHandler), time.Now)
	g.pol = newAddrPolicy(slog.New(recordHandler{&logged}))
	a, b := randomID(t), randomID(t)
	from := ma.StringCast("/ip4/203.0.113.7/udp/4001/quic-v1")
	g.pol.setNetwork(fakeNet{conns: map[peer.ID][]ma.Multiaddr{a: {from}}})
	tests := []struct {
		id   peer.ID
		addr string
		want bool
	}{
		{a, "/ip4/192.168.1.2/tcp/4001", true},
		{a, "/ip4/203.0.113.7/udp/4001/quic-v1", true},
		{a, "/ip4/203.0.113.7/udp/4002/quic-v1", false},
		{a, "/ip4/203.0.113.7/tcp/4001", false},
		{b, "/ip4/203.0.113.7/udp/4001/quic-v1", false},
		{b, "/ip4/8.8.8.8/tcp/443", false},
		{b, "/dns4/leak.example.com/tcp/443", false},
	}
	for _, tc := range tests {
		if got := g.InterceptAddrDial(tc.id, ma.StringCast(tc.addr)); got != tc.want {
			t.Errorf("InterceptAddrDial(%s, %s) = %v, want %v", short(tc.id), tc.addr, got, tc.want)
		}
	}
	if n := g.pol.dropped.Load(); n != 5 {
		t.Errorf("%d refused dials counted, want 5", n)
	}
	if len(logged) != 2 {
		t.Errorf("%d log lines for two peers' refused dials, want 2", len(logged))
	}
}

// The check runs for every address of every dial and advert.
func BenchmarkAddrPolicyFilter(b *testing.B) {
	p := newAddrPolicy(slog.New(slog.DiscardHandler))
	id := randomID(b)
	as := []ma.Multiaddr{ma.StringCast("/ip4/192.168.1.5/tcp/4001"), ma.StringCast("/ip4/192.168.1.5/udp/4001/quic-v1"),
		ma.StringCast("/ip4/8.8.8.8/tcp/443"), ma.StringCast("/dns4/leak.example.com/tcp/443")}
	b.ReportAllocs()
	for b.Loop() {
		p.filter(id, as, "bench")
	}
}
