package lobby

import (
	"time"

	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A peer's joins and leaves each can change the table and send the roster
// to every member, so they are held to a burst of churnBurst, then one per
// churnEvery (an honest joiner asks once a second at most); past that they
// are dropped and count as transport strikes, which soon disconnect and
// refuse the churner.
const (
	churnBurst = 8
	churnEvery = 500 * time.Millisecond
	maxChurn   = 256 // peers tracked; a full bucket is forgotten first
)

type churn struct{ b map[peer.ID]*p2p.Bucket }

// allow takes one join or leave of p at now.
func (c *churn) allow(p peer.ID, now time.Time) bool {
	if c.b == nil {
		c.b = map[peer.ID]*p2p.Bucket{}
	}
	if _, ok := c.b[p]; !ok && len(c.b) >= maxChurn {
		for id, b := range c.b {
			if now.Sub(b.Last()) >= churnBurst*churnEvery {
				delete(c.b, id) // full again: the same as a new one
			}
		}
		if len(c.b) >= maxChurn {
			clear(c.b) // strangers need connections, so this is rare
		}
	}
	b := c.b[p]
	if b == nil {
		b = &p2p.Bucket{}
		c.b[p] = b
	}
	return b.TakeAt(now, churnBurst, churnEvery)
}

// A peer the creator removed from its table may not sit down again for
// removedFor; at most maxRemoved are remembered (the oldest goes first),
// so a creator removing strangers all evening holds a bounded list.
const (
	removedFor = 5 * time.Minute
	maxRemoved = 64
)

type removedList struct {
	ids []peer.ID
	at  []time.Time
}

// add remembers p as removed at now.
func (r *removedList) add(p peer.ID, now time.Time) {
	r.expire(now)
	if len(r.ids) == maxRemoved {
		r.ids, r.at = r.ids[1:], r.at[1:]
	}
	r.ids, r.at = append(r.ids, p), append(r.at, now)
}

// has reports whether p was removed less than removedFor before now.
func (r *removedList) has(p peer.ID, now time.Time) bool {
	r.expire(now)
	for _, id := range r.ids {
		if id == p {
			return true
		}
	}
	return false
}

func (r *removedList) expire(now time.Time) {
	n := 0
	for n < len(r.at) && now.Sub(r.at[n]) >= removedFor {
		n++
	}
	r.ids, r.at = r.ids[n:], r.at[n:]
}
