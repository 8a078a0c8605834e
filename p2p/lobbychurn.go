package p2p

import (
	"time"

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

type churn struct{ b map[peer.ID]*bucket }

// allow takes one join or leave of p at now.
func (c *churn) allow(p peer.ID, now time.Time) bool {
	if c.b == nil {
		c.b = map[peer.ID]*bucket{}
	}
	if _, ok := c.b[p]; !ok && len(c.b) >= maxChurn {
		for id, b := range c.b {
			if now.Sub(b.at) >= churnBurst*churnEvery {
				delete(c.b, id) // full again: the same as a new one
			}
		}
		if len(c.b) >= maxChurn {
			clear(c.b) // strangers need connections, so this is rare
		}
	}
	b := c.b[p]
	if b == nil {
		b = &bucket{}
		c.b[p] = b
	}
	return b.takeAt(now, churnBurst, churnEvery)
}
