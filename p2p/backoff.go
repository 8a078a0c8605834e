package p2p

import (
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Backing off from a peer that resets our stream.
//
// A player in a game resets the game stream of anyone not in it (a
// watcher, watchers.go) and counts the streams it opens. So a stream to a
// peer that is not one of our members and that drops within a heartbeat
// of coming up is not re-opened at once: the next try waits a heartbeat,
// then twice as long each time up to backoffMax heartbeats, and a stream
// that stays up clears the wait. Members are always re-opened at once.
const backoffMax = 64

type openBackoff struct {
	wait time.Duration
	next time.Time
}

// backoffLocked says whether p's stream is not to be opened yet. Called
// with t.mu held.
func (t *Transport) backoffLocked(p peer.ID, now time.Time) bool {
	b := t.backoff[p]
	return b != nil && now.Before(b.next) && !t.members[p]
}

// noteDrop records that p's link, up since up, is gone. Called with t.mu
// held.
func (t *Transport) noteDropLocked(p peer.ID, up, now time.Time) {
	if t.members[p] || now.Sub(up) >= t.cfg.Heartbeat {
		delete(t.backoff, p)
		return
	}
	b := t.backoff[p]
	if b == nil {
		b = &openBackoff{}
		t.backoff[p] = b
	}
	b.wait = min(max(2*b.wait, t.cfg.Heartbeat), backoffMax*t.cfg.Heartbeat)
	b.next = now.Add(b.wait)
}

// forgetBackoffsLocked drops waits long over (maintain). Called with
// t.mu held.
func (t *Transport) forgetBackoffsLocked(now time.Time) {
	for p, b := range t.backoff {
		if now.Sub(b.next) > backoffMax*t.cfg.Heartbeat {
			delete(t.backoff, p)
		}
	}
}
