package p2p

import (
	"bytes"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// fakeClock is the gater's clock in tests: it moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// burst is n attempts from ip, step apart, each expected to be allowed or
// refused as want says (the first `allowed` of them allowed).
type burst struct {
	ip      string
	n       int
	step    time.Duration
	allowed int
	after   time.Duration // clock advance after the burst
}

func TestGaterFloodLimit(t *testing.T) {
	const a, b = "10.0.0.5", "10.0.0.6"
	tests := []struct {
		name   string
		bursts []burst
		warns  int
	}{
		{"a reconnect burst at the limit is taken",
			[]burst{{ip: a, n: floodLimit, allowed: floodLimit}}, 0},
		{"one past the limit is refused, and the rest of the ban",
			[]burst{{ip: a, n: floodLimit + 5, allowed: floodLimit}}, 1},
		{"attempts spread over more than the window never ban",
			[]burst{{ip: a, n: 5 * floodLimit, step: floodWindow / floodLimit, allowed: 5 * floodLimit}}, 0},
		{"the window slides: old attempts stop counting",
			[]burst{
				{ip: a, n: floodLimit, allowed: floodLimit, after: floodWindow},
				{ip: a, n: floodLimit, allowed: floodLimit},
			}, 0},
		{"the window slides by attempt, not by bucket",
			[]burst{
				{ip: a, n: floodLimit, allowed: floodLimit, after: floodWindow - time.Second},
				{ip: a, n: 1, allowed: 0},
			}, 1},
		{"each IP has its own count",
			[]burst{
				{ip: a, n: floodLimit + 1, allowed: floodLimit},
				{ip: b, n: floodLimit, allowed: floodLimit},
			}, 1},
		{"still refused just before the ban ends",
			[]burst{
				{ip: a, n: floodLimit + 1, allowed: floodLimit, after: floodBan - time.Millisecond},
				{ip: a, n: 1, allowed: 0},
			}, 1},
		{"after the ban the count starts afresh",
			[]burst{
				{ip: a, n: floodLimit + 1, allowed: floodLimit, after: floodBan},
				{ip: a, n: floodLimit, allowed: floodLimit},
			}, 1},
		{"a flood after the ban is banned and named again",
			[]burst{
				{ip: a, n: floodLimit + 1, allowed: floodLimit, after: floodBan},
				{ip: a, n: floodLimit + 1, allowed: floodLimit},
			}, 2},
		{"refused attempts during a ban do not extend it or warn again",
			[]burst{
				{ip: a, n: floodLimit + 1, allowed: floodLimit},
				{ip: a, n: 1000, step: floodBan / 2000, allowed: 0, after: floodBan / 2},
				{ip: a, n: 1, allowed: 1},
			}, 1},
		{"loopback is counted against a limit sized for a table on one machine",
			[]burst{{ip: "127.0.0.1", n: floodLoopbackLimit + 5, allowed: floodLoopbackLimit}, {ip: "::1", n: floodLoopbackLimit + 1, allowed: floodLoopbackLimit}}, 2},
		{"the loopback limit is above a LAN address's",
			[]burst{{ip: "127.0.0.1", n: 2 * floodLimit, allowed: 2 * floodLimit}}, 0},
		{"an IPv4-mapped address counts as its IPv4 address",
			[]burst{
				{ip: a, n: floodLimit, allowed: floodLimit},
				{ip: "::ffff:" + a, n: 1, allowed: 0},
			}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			clk := &fakeClock{t: time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)}
			g := newFloodGater(slog.New(slog.NewTextHandler(&buf, nil)), clk.now)
			for bi, bu := range tt.bursts {
				ip := netip.MustParseAddr(bu.ip)
				got := 0
				for i := range bu.n {
					ok := g.allow(ip)
					if ok {
						got++
					}
					if ok != (i < bu.allowed) {
						t.Fatalf("burst %d attempt %d from %s: allowed=%v, want %v", bi, i, ip, ok, i < bu.allowed)
					}
					clk.t = clk.t.Add(bu.step)
				}
				clk.t = clk.t.Add(bu.after)
			}
			if n := strings.Count(buf.String(), "level=WARN"); n != tt.warns {
				t.Errorf("%d warnings, want %d:\n%s", n, tt.warns, buf.String())
			}
		})
	}
}

// The warning names the IP and the ban in words a player can read.
func TestGaterWarningNamesIP(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0)}
	g := newFloodGater(slog.New(slog.NewTextHandler(&buf, nil)), clk.now)
	for range floodLimit + 1 {
		g.allow(netip.MustParseAddr("192.168.1.7"))
	}
	want := `level=WARN msg="connection flood from 192.168.1.7: refusing for 30 s" ip=192.168.1.7`
	if !strings.Contains(buf.String(), want) {
		t.Errorf("log %q lacks %q", buf.String(), want)
	}
}

// connAddrs is a network.ConnMultiaddrs for InterceptAccept.
type connAddrs struct{ local, remote ma.Multiaddr }

func (c connAddrs) LocalMultiaddr() ma.Multiaddr  { return c.local }
func (c connAddrs) RemoteMultiaddr() ma.Multiaddr { return c.remote }

var _ network.ConnMultiaddrs = connAddrs{}

// InterceptAccept reads the IP from TCP and QUIC addresses alike, so the
// two transports share one count.
func TestGaterInterceptAccept(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	g := newFloodGater(slog.New(slog.DiscardHandler), clk.now)
	local := ma.StringCast("/ip4/10.0.0.1/tcp/4001")
	remotes := []string{"/ip4/10.0.0.9/tcp/5000", "/ip4/10.0.0.9/udp/5000/quic-v1"}
	for i := range floodLimit {
		if !g.InterceptAccept(connAddrs{local, ma.StringCast(remotes[i%2])}) {
			t.Fatalf("attempt %d refused under the limit", i)
		}
	}
	for _, r := range remotes {
		if g.InterceptAccept(connAddrs{local, ma.StringCast(r)}) {
			t.Errorf("accept from %s allowed past the limit", r)
		}
	}
	if !g.InterceptAccept(connAddrs{local, ma.StringCast("/ip4/10.0.0.10/tcp/5000")}) {
		t.Error("another IP was refused")
	}
	if !g.InterceptAccept(connAddrs{local, ma.StringCast("/dns4/example.lan/tcp/5000")}) {
		t.Error("an address without an IP was refused")
	}
}

// Past floodTracked IPs, idle records are forgotten; a banned one is kept.
func TestGaterForgetsIdleIPs(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	g := newFloodGater(slog.New(slog.DiscardHandler), clk.now)
	banned := netip.MustParseAddr("10.1.0.1")
	for range floodLimit + 1 {
		g.allow(banned)
	}
	for i := range floodTracked {
		g.allow(netip.AddrFrom4([4]byte{10, 2, byte(i >> 8), byte(i)}))
	}
	clk.t = clk.t.Add(floodWindow)
	g.allow(netip.MustParseAddr("10.3.0.1"))
	if len(g.ips) != 2 {
		t.Errorf("%d IPs remembered after the sweep, want 2 (the banned one and the new one)", len(g.ips))
	}
	if g.allow(banned) {
		t.Error("the sweep lifted a ban")
	}
}
