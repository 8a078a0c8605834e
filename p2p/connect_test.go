package p2p_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

func TestResolveAddrAndConnect(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	var tcp ma.Multiaddr
	for _, addr := range a.Host().Addrs() {
		if _, err := addr.ValueForProtocol(ma.P_TCP); err == nil {
			tcp = addr
		}
	}
	na, err := manet.ToNetAddr(tcp)
	if err != nil {
		t.Fatal(err)
	}
	full := p2p.DialableAddrs(a.Host())
	cases := []struct{ name, input string }{
		{"full multiaddr", full[0]},
		{"multiaddr without id", tcp.String()},
		{"host:port", na.String()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
			key := b.Host().Peerstore().PrivKey(b.Host().ID())
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			info, err := p2p.ResolveAddr(ctx, key, c.input)
			if err != nil {
				t.Fatal(err)
			}
			if info.ID != a.Host().ID() {
				t.Fatalf("resolved %s, want %s", info.ID, a.Host().ID())
			}
			if err := b.Connect(ctx, info); err != nil {
				t.Fatal(err)
			}
			if err := b.Send(a.Host().ID(), p2p.KindGame, []byte(c.name)); err != nil {
				t.Fatal(err)
			}
			if in := p2ptest.RecvInbound(t, a); string(in.Data) != c.name {
				t.Fatalf("got %q", in.Data)
			}
		})
	}
}

func TestResolveAddrErrors(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	key, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	cases := []struct{ input, want string }{
		{"nonsense", "neither"},
		{"/ip4/1.2.3", "not a multiaddr"},
		{"/ip4/127.0.0.1/udp/9/quic-v1", "only a TCP address"},
		{"127.0.0.1:9", "connecting to"},
		{"/dnsaddr/example.com", "/dnsaddr is not followed"},
		// A typed name is resolved by ResolveAddr (the user vouches),
		// here from /etc/hosts, and then probed at its IP.
		{"/dns4/localhost/tcp/9", "connecting to /ip4/127.0.0.1/tcp/9"},
	}
	for _, c := range cases {
		_, err := p2p.ResolveAddr(context.Background(), key, c.input)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ResolveAddr(%q) = %v, want error containing %q", c.input, err, c.want)
		}
	}
}
