// Package p2ptest is the test support for code above p2p's transport:
// hosts, transports and discovery on loopback with fast heartbeats, a log
// capture, a stranger that keeps sending past its ban, and forged mDNS
// adverts. Package lobby's tests and p2p's external tests (package
// p2p_test) use it; p2p's internal tests, which reach p2p's unexported
// parts, cannot (it imports p2p), and keep copies in
// p2p/helpers_test.go. Product code never imports it. Everything that
// starts a host or sends mDNS runs inside a private network namespace
// (netlab.Enter) first.
package p2ptest

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/p2p"

	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/miekg/dns"
)

// Logger is the tests' network log: nil (discarded) unless P2P_TEST_LOG
// is set, then debug lines on stderr.
func Logger(t testing.TB) *slog.Logger {
	if os.Getenv("P2P_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

// NewHost is a host on 127.0.0.1 under a fresh identity, closed with t.
func NewHost(t testing.TB) host.Host {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return NewHostKey(t, key)
}

// NewHostKey is a host on 127.0.0.1 under key, closed with t.
func NewHostKey(t testing.TB, key crypto.PrivKey) host.Host {
	t.Helper()
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// FastConfig is a transport that notices a dead peer in half a second.
func FastConfig(t testing.TB) p2p.TransportConfig {
	return p2p.TransportConfig{Heartbeat: 100 * time.Millisecond, DeadAfter: 500 * time.Millisecond, Logger: Logger(t)}
}

// NewTransport is a transport on a NewHost, closed with t.
func NewTransport(t testing.TB, cfg p2p.TransportConfig) *p2p.Transport {
	tr := p2p.NewTransport(NewHost(t), cfg)
	t.Cleanup(func() { tr.Close() })
	return tr
}

// StartDiscovery advertises ad from h, closed with t.
func StartDiscovery(t testing.TB, h host.Host, ad p2p.Advert) *p2p.Discovery {
	t.Helper()
	d, err := p2p.StartDiscovery(h, ad, p2p.DiscoveryConfig{Logger: Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// ConnectPair connects a to b and waits until both have the stream.
func ConnectPair(t testing.TB, a, b *p2p.Transport) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.Host().ID(), Addrs: b.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	// The other side may adopt the stream a moment later.
	for !b.Connected(a.Host().ID()) {
		select {
		case <-ctx.Done():
			t.Fatal("stream never came up on the other side")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// RecvInbound is the next frame tr receives; it fails t after 10 s.
func RecvInbound(t testing.TB, tr *p2p.Transport) p2p.Inbound {
	t.Helper()
	select {
	case in := <-tr.Inbox():
		return in
	case <-time.After(10 * time.Second):
		t.Fatal("no frame arrived")
	}
	return p2p.Inbound{}
}

// WaitEvent is tr's next peer event that says up (a peer came up, or
// went down); it fails t after 10 s.
func WaitEvent(t testing.TB, tr *p2p.Transport, up bool) p2p.PeerEvent {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-tr.Events():
			if ev.Up == up {
				return ev
			}
		case <-deadline:
			t.Fatalf("no peer event up=%v", up)
		}
	}
}

// RandomID is a fresh peer ID with no host behind it.
func RandomID(t testing.TB) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Capture is a slog.Handler that keeps every record.
type Capture struct {
	mu   *sync.Mutex
	recs *[]slog.Record
}

// NewCapture is an empty Capture.
func NewCapture() Capture { return Capture{&sync.Mutex{}, &[]slog.Record{}} }

func (h Capture) Enabled(context.Context, slog.Level) bool { return true }
func (h Capture) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	*h.recs = append(*h.recs, r)
	h.mu.Unlock()
	return nil
}
func (h Capture) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h Capture) WithGroup(string) slog.Handler      { return h }

// Len is how many records were kept.
func (h Capture) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(*h.recs)
}

// AtLeast is what the records at level or above say, in order.
func (h Capture) AtLeast(level slog.Level) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var msgs []string
	for _, r := range *h.recs {
		if r.Level >= level {
			msgs = append(msgs, r.Message)
		}
	}
	return msgs
}

// Count is how many records say msg, and the sum of the "suppressed"
// counts of p2p's "log lines suppressed" summaries.
func (h Capture) Count(msg string) (n, sum int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range *h.recs {
		if r.Message == msg {
			n++
		}
		if r.Message == "log lines suppressed" {
			r.Attrs(func(a slog.Attr) bool {
				if a.Key == "suppressed" {
					sum += int(a.Value.Int64())
				}
				return true
			})
		}
	}
	return n, sum
}

// KeepSending calls send until the stranger evil has been disconnected
// and has kept trying for the whole of d, re-dialling victim whenever it
// is cut off (refused while banned): a ban holds, and what evil tried
// while banned leaves no trace in the victim's log. It returns the sends
// that went out.
func KeepSending(t *testing.T, evil, victim *p2p.Transport, d time.Duration, send func() error) (sent int) {
	t.Helper()
	info := peer.AddrInfo{ID: victim.Host().ID(), Addrs: victim.Host().Addrs()}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if err := send(); err == nil {
			sent++
		} else if !evil.Connected(victim.Host().ID()) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			_ = evil.Connect(ctx, info) // refused while banned
			cancel()
		}
		time.Sleep(2 * time.Millisecond)
	}
	return sent
}

// ForgeAdvert sends, every 500 ms until t ends, an mDNS answer in ad's
// name from no host at all (127.0.0.1, port 1): anyone on a LAN can. It
// fails the test outside a private network namespace.
func ForgeAdvert(t *testing.T, ad p2p.Advert) {
	t.Helper()
	if !netlab.Inside() {
		t.Fatal("forged adverts go out only inside a private network namespace")
	}
	txt, err := p2p.EncodeTXT(ad)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := mdns.NewMDNSService(ad.ID.String(), p2p.ServiceName, "local.", "ghost.local.", 1, []net.IP{net.IPv4(127, 0, 0, 1)}, txt)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353})
	if err != nil {
		t.Fatal(err)
	}
	m := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true,
		Answer: svc.Records(dns.Question{Name: p2p.ServiceName + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET})}
	b, err := m.Pack()
	if err != nil {
		t.Fatal(err)
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(done); <-stopped; c.Close() })
	go func() {
		defer close(stopped)
		for {
			_, _ = c.Write(b)
			select {
			case <-done:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
}
