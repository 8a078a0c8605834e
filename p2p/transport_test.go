package p2p_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

func TestTransportRoundTripInOrder(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	// b has the larger ID in half the runs: connect from both ends in turn
	// so both the opener and the acceptor path are used.
	p2ptest.ConnectPair(t, a, b)
	p2ptest.ConnectPair(t, b, a)
	const n = 200
	for i := range n {
		if err := a.Send(b.Host().ID(), p2p.KindGame, fmt.Appendf(nil, "a%d", i)); err != nil {
			t.Fatal(err)
		}
		if err := b.Send(a.Host().ID(), p2p.KindChat, fmt.Appendf(nil, "b%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		in := p2ptest.RecvInbound(t, b)
		if in.From != a.Host().ID() || in.Kind != p2p.KindGame || string(in.Data) != fmt.Sprintf("a%d", i) {
			t.Fatalf("b got %v %v %q, want a%d", in.From, in.Kind, in.Data, i)
		}
		in = p2ptest.RecvInbound(t, a)
		if in.Kind != p2p.KindChat || string(in.Data) != fmt.Sprintf("b%d", i) {
			t.Fatalf("a got %v %q, want b%d", in.Kind, in.Data, i)
		}
	}
	if got := len(a.Peers()); got != 1 {
		t.Errorf("a has %d streams, want exactly 1", got)
	}
}

func TestTransportOrderlyShutdown(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	p2ptest.ConnectPair(t, a, b)
	p2ptest.WaitEvent(t, b, true)
	// Frames queued before Close still arrive, then the goodbye.
	if err := a.Send(b.Host().ID(), p2p.KindGame, []byte("last words")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if in := p2ptest.RecvInbound(t, b); string(in.Data) != "last words" {
		t.Fatalf("got %q", in.Data)
	}
	if ev := p2ptest.WaitEvent(t, b, false); ev.Reason != "left" {
		t.Errorf("reason %q, want left", ev.Reason)
	}
}

// A peer that opens the stream and then says nothing is declared absent
// after DeadAfter, long before a transport keepalive would notice; over TCP
// (yamux) and QUIC alike, which report the deadline differently.
func TestTransportHeartbeatTimeout(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	for _, proto := range []int{ma.P_TCP, ma.P_QUIC_V1} {
		t.Run(ma.ProtocolWithCode(proto).Name, func(t *testing.T) {
			a := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
			mute := p2ptest.NewHost(t)
			for _, addr := range a.Host().Addrs() {
				if _, err := addr.ValueForProtocol(proto); err == nil {
					mute.Peerstore().AddAddr(a.Host().ID(), addr, time.Hour)
				}
			}
			s, err := mute.NewStream(context.Background(), a.Host().ID(), protocol.ID(p2p.ProtocolID))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Reset()
			// One ping so the lazily negotiated stream reaches a; then silence.
			hello, _ := p2p.AppendFrame(nil, p2p.Frame{Kind: p2p.KindPing, Body: make([]byte, 8)})
			if _, err := s.Write(hello); err != nil {
				t.Fatal(err)
			}
			p2ptest.WaitEvent(t, a, true)
			start := time.Now()
			ev := p2ptest.WaitEvent(t, a, false)
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
	t.Parallel()
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
				b, _ := p2p.AppendFrame(nil, p2p.Frame{Kind: p2p.KindGame, Body: []byte("hi")})
				s.Write(b)
			}
		}, "too many bad frames"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := p2ptest.FastConfig(t)
			cfg.DeadAfter = 5 * time.Second
			a := p2p.NewTransport(struct{ host.Host }{p2ptest.NewHost(t)}, cfg)
			t.Cleanup(func() { a.Close() })
			a.SetMembers([]peer.ID{})
			evil := p2ptest.NewHost(t)
			evil.Peerstore().AddAddrs(a.Host().ID(), a.Host().Addrs(), time.Hour)
			s, err := evil.NewStream(context.Background(), a.Host().ID(), protocol.ID(p2p.ProtocolID))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Reset()
			c.write(s)
			ev := p2ptest.WaitEvent(t, a, false)
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
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	ids := []peer.ID{a.Host().ID(), b.Host().ID()}
	a.SetMembers(ids)
	b.SetMembers(ids)
	p2ptest.ConnectPair(t, a, b)
	p2ptest.WaitEvent(t, a, true)
	p2ptest.WaitEvent(t, b, true)
	forget := func(x, y *p2p.Transport) {
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
	p2ptest.WaitEvent(t, a, false)
	p2ptest.WaitEvent(t, b, false)
	// Identify may have put the addresses back as the connection closed.
	forget(a, b)
	forget(b, a)
	p2ptest.WaitEvent(t, a, true)
	p2ptest.WaitEvent(t, b, true)
	if err := a.Send(b.Host().ID(), p2p.KindGame, []byte("back")); err != nil {
		t.Fatal(err)
	}
	if in := p2ptest.RecvInbound(t, b); string(in.Data) != "back" {
		t.Fatalf("got %q", in.Data)
	}
}
