package p2p

// Copies of internal/p2ptest's helpers, for the tests that must stay in
// package p2p because they reach its unexported parts (sockets, limits,
// tables, hooks): p2ptest imports p2p, so an in-package test cannot
// import it. Tests that need only the exported API live in package
// p2p_test and use p2ptest (abuse_test.go, transport_test.go,
// connect_test.go, session_test.go).

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// testLogger is p2ptest.Logger (see above).
func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("P2P_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

// newTestHost is p2ptest.NewHost (see above).
func newTestHost(t testing.TB) host.Host {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// fastConfig is p2ptest.FastConfig (see above).
func fastConfig(t testing.TB) TransportConfig {
	return TransportConfig{Heartbeat: 100 * time.Millisecond, DeadAfter: 500 * time.Millisecond, Logger: testLogger(t)}
}

// newTestTransport is p2ptest.NewTransport (see above).
func newTestTransport(t testing.TB, cfg TransportConfig) *Transport {
	tr := NewTransport(newTestHost(t), cfg)
	t.Cleanup(func() { tr.Close() })
	return tr
}

// connectPair is p2ptest.ConnectPair (see above).
func connectPair(t testing.TB, a, b *Transport) {
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

// recvInbound is p2ptest.RecvInbound (see above).
func recvInbound(t testing.TB, tr *Transport) Inbound {
	t.Helper()
	select {
	case in := <-tr.Inbox():
		return in
	case <-time.After(10 * time.Second):
		t.Fatal("no frame arrived")
	}
	return Inbound{}
}

// waitEvent is p2ptest.WaitEvent (see above).
func waitEvent(t testing.TB, tr *Transport, up bool) PeerEvent {
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
