package p2p

import (
	"context"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
)

// BenchmarkDiscoverNewPeer: from a new peer starting discovery until an
// existing peer lists it (in a private namespace, multicast on loopback).
func BenchmarkDiscoverNewPeer(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	old := startTestDiscovery(b, newTestHost(b), Advert{Name: "old"})
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		h := newTestHost(b)
		b.StartTimer()
		d, err := StartDiscovery(h, Advert{Name: "new"}, DiscoveryConfig{})
		if err != nil {
			b.Fatal(err)
		}
		waitPeers(b, old, "the new peer", hasPeer(h.ID(), nil))
		b.StopTimer()
		d.Close()
		h.Close()
		// Let the old peer forget it, so the next round is a new peer again.
		waitPeers(b, old, "expiry", func(ps []Advert) bool { return len(ps) == 0 })
		b.StartTimer()
	}
}

// BenchmarkFrameRoundTrip: a game frame to a peer and its echo back, over
// the transport's long-lived stream.
func BenchmarkFrameRoundTrip(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	a, c := newTestTransport(b, TransportConfig{}), newTestTransport(b, TransportConfig{})
	connectPair(b, a, c)
	go func() {
		for in := range c.Inbox() {
			_ = c.Send(in.From, KindGame, in.Data)
		}
	}()
	payload := make([]byte, 200) // about one signed lockstep message
	for b.Loop() {
		if err := a.Send(c.Host().ID(), KindGame, payload); err != nil {
			b.Fatal(err)
		}
		<-a.Inbox()
	}
}

// BenchmarkLibp2pPing: libp2p's own ping on the same kind of connection,
// for comparison with BenchmarkFrameRoundTrip.
func BenchmarkLibp2pPing(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	a, c := newTestTransport(b, TransportConfig{}), newTestTransport(b, TransportConfig{})
	connectPair(b, a, c)
	benchPing(b, a.Host(), c.Host())
}

func benchPing(b *testing.B, from, to host.Host) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := ping.Ping(ctx, from, to.ID())
	var total time.Duration
	n := 0
	for b.Loop() {
		r := <-results
		if r.Error != nil {
			b.Fatal(r.Error)
		}
		total += r.RTT
		n++
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n), "µs-rtt")
}
