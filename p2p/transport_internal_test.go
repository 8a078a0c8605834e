package p2p

import (
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/peer"
)

// These reach into the transport (its redial delay, its opener hook), so
// they stay in package p2p; transport_test.go is the outside view.

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
	t.Parallel()
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
