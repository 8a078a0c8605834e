package p2p

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net"
	"os/exec"
	"slices"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// An mDNS advert that puts a peer we are connected to at another address
// is a forgery (the connection's peer ID is proven, the advert's is not):
// it is ignored and logged, so its address never reaches the peerstore
// and the re-dials. An advert that agrees with the connection is taken.
func TestDiscoveryIgnoresAdvertContradictingConnection(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	// Loopback connections prove nothing about LAN addresses: give the
	// test's private namespace a LAN of its own.
	for _, args := range [][]string{
		{"link", "add", "lan0", "type", "veth", "peer", "name", "lan1"},
		{"addr", "add", "10.9.0.1/24", "dev", "lan0"},
		{"addr", "add", "10.9.0.2/24", "dev", "lan1"},
		{"link", "set", "lan0", "up"},
		{"link", "set", "lan1", "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	a := hostOn(t, net.IPv4(10, 9, 0, 1))
	b := hostOn(t, net.IPv4(10, 9, 0, 2))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
	var logged []string
	d := &Discovery{h: a, log: slog.New(recordHandler{&logged}), seen: newAdTable(DefaultMaxStrangers, time.Second, 3*time.Second),
		warned: map[peer.ID]time.Time{}, changes: make(chan struct{}, 1)}
	forged := ma.StringCast("/ip4/10.9.0.66/tcp/4001")
	entry := func(addrs ...ma.Multiaddr) *mdns.ServiceEntry {
		txt, err := EncodeTXT(Advert{Version: ProtocolVersion, ID: b.ID(), Name: "b", Addrs: addrs})
		if err != nil {
			t.Fatal(err)
		}
		return &mdns.ServiceEntry{Name: b.ID().String() + "." + ServiceName + ".local.", InfoFields: txt}
	}
	for range 3 {
		d.saw(entry(forged))
	}
	if slices.ContainsFunc(a.Peerstore().Addrs(b.ID()), forged.Equal) {
		t.Errorf("the forged address reached the peerstore: %v", a.Peerstore().Addrs(b.ID()))
	}
	if len(d.Peers()) != 0 {
		t.Errorf("the forged advert was listed: %v", d.Peers())
	}
	if len(logged) != 1 {
		t.Errorf("logged %d warnings for 3 forged answers, want 1 (rate-limited): %q", len(logged), logged)
	}
	d.saw(entry(b.Addrs()...))
	if ps := d.Peers(); len(ps) != 1 || ps[0].ID != b.ID() {
		t.Errorf("the true advert was not listed: %v", ps)
	}
}

func hostOn(t *testing.T, ip net.IP) host.Host {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(HostConfig{Identity: key, ListenIPs: []net.IP{ip}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// recordHandler keeps the messages of warnings and errors.
type recordHandler struct{ msgs *[]string }

func (h recordHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	*h.msgs = append(*h.msgs, r.Message)
	return nil
}
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordHandler) WithGroup(string) slog.Handler      { return h }
