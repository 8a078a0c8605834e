package lockstep

import (
	"context"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// hubRun is what a running hub starts a seat's pump with.
type hubRun struct {
	ctx context.Context
	wg  *sync.WaitGroup
}

func (h *Hub) newLink(id peer.ID) *hubLink {
	return &hubLink{h: h, self: id, wake: make(chan struct{}, 1), out: make(chan Frame), reach: make(chan Reach, 16), stop: make(chan struct{})}
}

// seat is the local link of seat id, nil if the hub holds none.
func (h *Hub) seat(id peer.ID) *hubLink {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.links[id]
}

// seats are the local links now, in order (a copy: nothing blocks under
// the lock).
func (h *Hub) seats() []*hubLink {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := make([]*hubLink, 0, len(h.order))
	for _, id := range h.order {
		out = append(out, h.links[id])
	}
	return out
}

// AddSeat makes the link of seat id while the hub runs (or before): the
// seat of a web player moved to this program mid-game. From then on the
// outer link's frames for id, and every frame for everyone, reach it, and
// the program's other seats send to it in memory. A frame that came for
// it before it was added is not kept: its node asks again for what it
// lacks, as a player who returns does.
func (h *Hub) AddSeat(id peer.ID) (Link, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: a seat without a peer ID", ErrHubSeats)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.links[id] != nil {
		return nil, fmt.Errorf("%w: seat %s twice", ErrHubSeats, ShortID(id))
	}
	l := h.newLink(id)
	h.links[id] = l
	h.order = append(h.order, id)
	if r := h.run; r != nil {
		r.wg.Go(func() { l.pump(r.ctx) })
	}
	return l, nil
}

// RemoveSeat lets go of seat id (its web player now plays through another
// program): its link's Frames stop, and frames for it go to the outer
// link from then on. It never removes the last seat: the hub's own.
func (h *Hub) RemoveSeat(id peer.ID) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.links[id]
	if l == nil {
		return fmt.Errorf("%w: seat %s is not here", ErrHubSeats, ShortID(id))
	}
	if len(h.order) == 1 {
		return fmt.Errorf("%w: seat %s is the hub's last", ErrHubSeats, ShortID(id))
	}
	delete(h.links, id)
	for i, o := range h.order {
		if o == id {
			h.order = append(h.order[:i:i], h.order[i+1:]...)
			break
		}
	}
	close(l.stop)
	return nil
}
