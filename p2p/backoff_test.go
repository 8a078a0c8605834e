package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A non-member's stream that drops at once waits a heartbeat before it
// is opened again, then twice as long each time, up to backoffMax
// heartbeats; one that stayed up a heartbeat, or a member's, waits not.
func TestOpenBackoff(t *testing.T) {
	hb := time.Second
	tr := &Transport{cfg: TransportConfig{Heartbeat: hb}, backoff: map[peer.ID]*openBackoff{}}
	p, m := peer.ID("watched"), peer.ID("member")
	now := time.Unix(1000, 0)
	want := hb
	for i := range 10 {
		tr.noteDropLocked(p, now, now)
		if !tr.backoffLocked(p, now.Add(want-1)) || tr.backoffLocked(p, now.Add(want)) {
			t.Fatalf("drop %d: the wait is not %v", i, want)
		}
		want = min(2*want, backoffMax*hb)
	}
	tr.noteDropLocked(p, now.Add(-hb), now)
	if tr.backoffLocked(p, now) {
		t.Errorf("a stream that stayed up a heartbeat still backs off")
	}
	tr.members = map[peer.ID]bool{m: true}
	tr.noteDropLocked(m, now, now)
	if tr.backoffLocked(m, now) {
		t.Errorf("a member's stream backs off")
	}
	tr.noteDropLocked(p, now, now)
	tr.forgetBackoffsLocked(now.Add(hb + backoffMax*hb + 1))
	if len(tr.backoff) != 0 {
		t.Errorf("%d waits long over are remembered", len(tr.backoff))
	}
}
