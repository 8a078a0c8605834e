package p2p

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

func TestTransportRoundTripInOrder(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a, b := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	// b has the larger ID in half the runs: connect from both ends in turn
	// so both the opener and the acceptor path are used.
	connectPair(t, a, b)
	connectPair(t, b, a)
	const n = 200
	for i := range n {
		if err := a.Send(b.Host().ID(), KindGame, fmt.Appendf(nil, "a%d", i)); err != nil {
			t.Fatal(err)
		}
		if err := b.Send(a.Host().ID(), KindChat, fmt.Appendf(nil, "b%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		in := recvInbound(t, b)
		if in.From != a.Host().ID() || in.Kind != KindGame || string(in.Data) != fmt.Sprintf("a%d", i) {
			t.Fatalf("b got %v %v %q, want a%d", in.From, in.Kind, in.Data, i)
		}
		in = recvInbound(t, a)
		if in.Kind != KindChat || string(in.Data) != fmt.Sprintf("b%d", i) {
			t.Fatalf("a got %v %q, want b%d", in.Kind, in.Data, i)
		}
	}
	if got := len(a.Peers()); got != 1 {
		t.Errorf("a has %d streams, want exactly 1", got)
	}
}

func TestTransportOrderlyShutdown(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a, b := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	connectPair(t, a, b)
	waitEvent(t, b, true)
	// Frames queued before Close still arrive, then the goodbye.
	if err := a.Send(b.Host().ID(), KindGame, []byte("last words")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if in := recvInbound(t, b); string(in.Data) != "last words" {
		t.Fatalf("got %q", in.Data)
	}
	if ev := waitEvent(t, b, false); ev.Reason != "left" {
		t.Errorf("reason %q, want left", ev.Reason)
	}
}

// A peer that opens the stream and then says nothing is declared absent
// after DeadAfter, long before a transport keepalive would notice; over TCP
// (yamux) and QUIC alike, which report the deadline differently.
func TestTransportHeartbeatTimeout(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	for _, proto := range []int{ma.P_TCP, ma.P_QUIC_V1} {
		t.Run(ma.ProtocolWithCode(proto).Name, func(t *testing.T) {
			a := newTestTransport(t, fastConfig(t))
			mute := newTestHost(t)
			for _, addr := range a.Host().Addrs() {
				if _, err := addr.ValueForProtocol(proto); err == nil {
					mute.Peerstore().AddAddr(a.Host().ID(), addr, time.Hour)
				}
			}
			s, err := mute.NewStream(context.Background(), a.Host().ID(), protocol.ID(ProtocolID))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Reset()
			// One ping so the lazily negotiated stream reaches a; then silence.
			hello, _ := AppendFrame(nil, Frame{Kind: KindPing, Body: make([]byte, 8)})
			if _, err := s.Write(hello); err != nil {
				t.Fatal(err)
			}
			waitEvent(t, a, true)
			start := time.Now()
			ev := waitEvent(t, a, false)
			if ev.Reason != "heartbeat timeout" {
				t.Fatalf("reason %q", ev.Reason)
			}
			// Generous bound: the point is seconds, not the 30-40 s of keepalives.
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("noticed after %v", d)
			}
		})
	}
}

// Bad frames are dropped and logged; a peer that keeps sending them is
// disconnected and refused. A frame from a non-member is the transport's
// own check, behind the gater that refuses non-members outright on a host
// NewHost built: here the host is wrapped, so the gater does not see it.
func TestTransportStrikes(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	cases := []struct {
		name  string
		write func(s network.Stream)
		want  string
	}{
		{"unknown kinds", func(s network.Stream) {
			for range 20 {
				s.Write([]byte{0, 0, 0, 2, 99, 0})
			}
		}, "too many bad frames"},
		{"oversized", func(s network.Stream) {
			s.Write([]byte{0x7f, 0, 0, 0, 16})
		}, "unreadable stream"},
		{"not a member", func(s network.Stream) {
			for range 20 {
				b, _ := AppendFrame(nil, Frame{Kind: KindGame, Body: []byte("hi")})
				s.Write(b)
			}
		}, "too many bad frames"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := fastConfig(t)
			cfg.DeadAfter = 5 * time.Second
			a := NewTransport(struct{ host.Host }{newTestHost(t)}, cfg)
			t.Cleanup(func() { a.Close() })
			a.SetMembers([]peer.ID{})
			evil := newTestHost(t)
			evil.Peerstore().AddAddrs(a.Host().ID(), a.Host().Addrs(), time.Hour)
			s, err := evil.NewStream(context.Background(), a.Host().ID(), protocol.ID(ProtocolID))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Reset()
			c.write(s)
			ev := waitEvent(t, a, false)
			if !strings.HasPrefix(ev.Reason, c.want) {
				t.Fatalf("reason %q, want %q", ev.Reason, c.want)
			}
			select {
			case in := <-a.Inbox():
				t.Fatalf("a bad frame was delivered: %v", in)
			default:
			}
		})
	}
}

// A member whose connection died comes back by itself even when libp2p
// alone would not bring it back: its addresses have left the peerstore
// (adverts expired while its cable was out) and the swarm holds its
// addresses on a long dial backoff from the failed dials of the outage.
func TestTransportRedialsAwayMember(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a, b := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	ids := []peer.ID{a.Host().ID(), b.Host().ID()}
	a.SetMembers(ids)
	b.SetMembers(ids)
	connectPair(t, a, b)
	waitEvent(t, a, true)
	waitEvent(t, b, true)
	forget := func(x, y *Transport) {
		addrs := append(x.Host().Peerstore().Addrs(y.Host().ID()), y.Host().Addrs()...)
		x.Host().Peerstore().ClearAddrs(y.Host().ID())
		sw, ok := x.Host().Network().(*swarm.Swarm)
		if !ok {
			t.Fatalf("network is a %T, not a swarm", x.Host().Network())
		}
		for _, addr := range addrs {
			for range 10 { // ten failures: the next dial is 105 s away
				sw.Backoff().AddBackoff(y.Host().ID(), addr)
			}
		}
	}
	forget(a, b)
	forget(b, a)
	if err := a.Host().Network().ClosePeer(b.Host().ID()); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, a, false)
	waitEvent(t, b, false)
	// Identify may have put the addresses back as the connection closed.
	forget(a, b)
	forget(b, a)
	waitEvent(t, a, true)
	waitEvent(t, b, true)
	if err := a.Send(b.Host().ID(), KindGame, []byte("back")); err != nil {
		t.Fatal(err)
	}
	if in := recvInbound(t, b); string(in.Data) != "back" {
		t.Fatalf("got %q", in.Data)
	}
}

func TestRedialDelayIsCapped(t *testing.T) {
	tr := &Transport{cfg: TransportConfig{Heartbeat: time.Second}}
	for _, c := range []struct {
		fails int
		want  time.Duration
	}{{0, time.Second}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {4, 4 * time.Second}, {100, 4 * time.Second}} {
		if got := tr.redialDelay(c.fails); got != c.want {
			t.Errorf("redialDelay(%d) = %v, want %v", c.fails, got, c.want)
		}
	}
}

// A peer opens one stream to another however its maintain ticks and
// Connect calls interleave: one that looked in after the stream was opened
// but before it was adopted used to open a second, which replaced the
// first, and the other side saw the peer go down and up again.
func TestTransportOpensOneStream(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a, b := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	opener, other := a, b
	if b.Host().ID() < a.Host().ID() {
		opener, other = b, a
	}
	opened := make(chan struct{}, 8)
	opener.opened = func(p peer.ID) {
		opened <- struct{}{}
		if len(opened) == 1 {
			opener.maybeOpen(p) // a maintain tick looks in right now
		}
	}
	connectPair(t, other, opener)
	waitEvent(t, other, true)
	// Another stream, were one opened, would be adopted well within this.
	select {
	case ev := <-other.Events():
		t.Fatalf("the other side saw %+v after the first up", ev)
	case <-time.After(500 * time.Millisecond):
	}
	if n := len(opened); n != 1 {
		t.Fatalf("%d streams opened to one peer, want 1", n)
	}
}
