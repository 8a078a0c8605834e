package netlab

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// Internet stands in for the internet inside the test's namespace: a
// "public" web server at 8.8.8.8:443 (TCP and UDP, for QUIC), a "public"
// DNS server at 8.8.4.4:53 that this namespace's resolver uses, and a
// canary TCP listener at a private address. Every one counts what reaches
// it. The addresses are on the namespace's own loopback: nothing leaves.
type Internet struct {
	Web, QUIC, DNS, Canary atomic.Int64 // what reached each
	canaryAddr             ma.Multiaddr
}

func (n *Internet) Reset() {
	n.Web.Store(0)
	n.QUIC.Store(0)
	n.DNS.Store(0)
	n.Canary.Store(0)
}

// Leaks counts what reached the internet: connections, packets, lookups.
func (n *Internet) Leaks() int64 { return n.Web.Load() + n.QUIC.Load() + n.DNS.Load() }

// BadAddrs is what a stranger hands its victims: the internet by IP, by
// name and by dnsaddr, then the canary, a private address every version
// dials (so that its being reached says the dial has happened).
func (n *Internet) BadAddrs() []ma.Multiaddr {
	return []ma.Multiaddr{
		ma.StringCast("/ip4/8.8.8.8/tcp/443"),
		ma.StringCast("/ip4/8.8.8.8/udp/443/quic-v1"),
		ma.StringCast("/dns4/leak.example.com/tcp/443"),
		ma.StringCast("/dnsaddr/leak.example.com"),
		n.canaryAddr,
	}
}

// StartInternet makes the stand-in in this namespace (only inside Enter)
// and checks it can see a name lookup.
func StartInternet(t *testing.T) *Internet {
	t.Helper()
	if !Inside() {
		t.Fatal("StartInternet outside netlab.Enter: refusing to touch this machine")
	}
	// The resolver is pointed at the stand-in by mounting over
	// /etc/resolv.conf, which is only safe in a mount namespace whose
	// mounts do not propagate back to the machine's.
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(mi), "\n") {
		if f := strings.Fields(l); len(f) > 6 && f[4] == "/" && strings.Contains(l, " shared:") {
			t.Fatalf("the root mount propagates to the machine's namespace: not mounting over resolv.conf (%s)", l)
		}
	}
	for _, ip := range []string{"8.8.8.8/32", "8.8.4.4/32", "10.77.0.1/32"} {
		if out, err := exec.Command("ip", "addr", "add", ip, "dev", "lo").CombinedOutput(); err != nil {
			t.Fatalf("ip addr add %s: %v %s", ip, err, out)
		}
	}
	conf := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(conf, []byte("nameserver 8.8.4.4\noptions timeout:1 attempts:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "--bind", conf, "/etc/resolv.conf").CombinedOutput(); err != nil {
		t.Fatalf("mount resolv.conf: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "/etc/resolv.conf").Run() })

	n := &Internet{}
	accept := func(addr string, count *atomic.Int64) net.Listener {
		l, err := net.Listen("tcp4", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				count.Add(1)
				c.Close()
			}
		}()
		return l
	}
	accept("8.8.8.8:443", &n.Web)
	canary := accept("10.77.0.1:0", &n.Canary)
	n.canaryAddr = ma.StringCast("/ip4/10.77.0.1/tcp/" + strings.TrimPrefix(canary.Addr().String(), "10.77.0.1:"))
	udp, err := net.ListenPacket("udp4", "8.8.8.8:443")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			n.QUIC.Add(1)
		}
	}()
	srv := &dns.Server{Addr: "8.8.4.4:53", Net: "udp", Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		n.DNS.Add(1)
		m := new(dns.Msg)
		m.SetRcode(r, dns.RcodeNameError)
		_ = w.WriteMsg(m)
	})}
	up := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(up) }
	go func() { _ = srv.ListenAndServe() }()
	<-up
	t.Cleanup(func() { _ = srv.Shutdown() })

	// The stand-in must see a lookup, or its silence below proves nothing.
	if _, err := net.DefaultResolver.LookupHost(context.Background(), "probe.example.com"); err == nil {
		t.Fatal("the stand-in DNS server answered a name")
	}
	if n.DNS.Load() == 0 {
		t.Fatal("a lookup did not reach the stand-in DNS server: the test cannot see name lookups")
	}
	n.Reset()
	return n
}

// WaitCanary waits until the canary has been dialled, then gives the
// other dials of the same batch time to happen too: libp2p dials a
// peer's public addresses a few hundred ms after its private ones.
func (n *Internet) WaitCanary(t *testing.T, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a speed claim
	for n.Canary.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the private address was never dialled", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
}
