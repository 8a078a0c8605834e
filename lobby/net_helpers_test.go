package lobby

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Helpers for the LAN tests of the loop, as p2p's tests have them. Every
// test that uses them enters a namespace first (netlab.Enter).

type Transport = p2p.Transport

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("P2P_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

func newTestHost(t testing.TB) host.Host {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return newTestHostKey(t, key)
}

func newTestHostKey(t testing.TB, key crypto.PrivKey) host.Host {
	t.Helper()
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func fastConfig(t testing.TB) p2p.TransportConfig {
	return p2p.TransportConfig{Heartbeat: 100 * time.Millisecond, DeadAfter: 500 * time.Millisecond, Logger: testLogger(t)}
}

func newTestTransport(t testing.TB, cfg p2p.TransportConfig) *Transport {
	tr := p2p.NewTransport(newTestHost(t), cfg)
	t.Cleanup(func() { tr.Close() })
	return tr
}

func startTestDiscovery(t testing.TB, h host.Host, ad p2p.Advert) *p2p.Discovery {
	t.Helper()
	d, err := p2p.StartDiscovery(h, ad, p2p.DiscoveryConfig{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func connectPair(t testing.TB, a, b *Transport) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.Host().ID(), Addrs: b.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	for !b.Connected(a.Host().ID()) {
		select {
		case <-ctx.Done():
			t.Fatal("stream never came up on the other side")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func randomID(t testing.TB) peer.ID {
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

func testID(t testing.TB) peer.ID { return randomID(t) }

// captureHandler keeps every log record.
type captureHandler struct {
	mu   *sync.Mutex
	recs *[]slog.Record
}

func newCapture() captureHandler { return captureHandler{&sync.Mutex{}, &[]slog.Record{}} }

func (h captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h captureHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	*h.recs = append(*h.recs, r)
	h.mu.Unlock()
	return nil
}
func (h captureHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h captureHandler) WithGroup(string) slog.Handler      { return h }

// keepSending calls send for d, re-dialling victim while banned.
func keepSending(t *testing.T, evil, victim *Transport, d time.Duration, send func() error) (sent int) {
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
