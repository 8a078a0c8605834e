package lockstep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/peer"
)

// SeatLink is the network of a program that holds several seats (hot
// seat: several people at one laptop): a Link that sends a frame as one
// of the program's seats, so the receiving program can tell which seat
// spoke and which seat it is for. to is a seat ("" every other player).
// A link without it (a program of one seat) is sent to with Send.
type SeatLink interface {
	Link
	SendAs(from, to peer.ID, data []byte) error
}

// Hub runs the links of the several seats one program holds: each seat
// is a Node of its own (its own key, its own hash chain, its own Driver),
// exactly as if it sat at a laptop of its own, and the Hub is the wire
// between them. Frames between the program's own seats never leave the
// process; everything else goes to the outer link (as the sending seat,
// when it is a SeatLink), and what the outer link receives goes to the
// seat it is for, or to every seat of the program.
//
// The Hub decides nothing about the game and vouches for nothing: every
// frame, a local seat's too, reaches the Node as any other and is
// verified there, so a seat is never trusted because it sits in the same
// process. A local queue never blocks a sender: it holds at most
// hubQueueCap frames (the nodes re-send what a peer lacks) and counts
// what it drops.
type Hub struct {
	outer Link
	// mu guards links and order, which AddSeat and RemoveSeat change
	// while the hub runs (a web player's seat moved to or away from this
	// program mid-game), and run, the pumps' context and wait group while
	// Run runs (nil before and after).
	mu    sync.RWMutex
	links map[peer.ID]*hubLink
	order []peer.ID
	run   *hubRun
	// Dropped counts frames a full local queue refused.
	Dropped atomic.Int64
}

// hubQueueCap bounds a local seat's queue of frames not yet read.
const hubQueueCap = 4096

// ErrHubSeats is returned by NewHub for a list of seats it cannot run.
var ErrHubSeats = errors.New("hub: bad seats")

// NewHub makes the links of seats (distinct, at least one) over outer.
func NewHub(outer Link, seats ...peer.ID) (*Hub, error) {
	if len(seats) == 0 {
		return nil, fmt.Errorf("%w: no seat", ErrHubSeats)
	}
	h := &Hub{outer: outer, links: map[peer.ID]*hubLink{}}
	for _, id := range seats {
		if id == "" {
			return nil, fmt.Errorf("%w: a seat without a peer ID", ErrHubSeats)
		}
		if h.links[id] != nil {
			return nil, fmt.Errorf("%w: seat %s twice", ErrHubSeats, ShortID(id))
		}
		h.links[id] = h.newLink(id)
		h.order = append(h.order, id)
	}
	return h, nil
}

// Link is the link of seat id (nil for a seat the hub does not hold).
func (h *Hub) Link(id peer.ID) Link {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if l := h.links[id]; l != nil {
		return l
	}
	return nil
}

// Run moves frames until ctx ends: the outer link's to the seats they are
// for, each local queue to its seat's driver.
func (h *Hub) Run(ctx context.Context) {
	var wg sync.WaitGroup
	h.mu.Lock()
	h.run = &hubRun{ctx: ctx, wg: &wg}
	for _, id := range h.order {
		l := h.links[id]
		wg.Go(func() { l.pump(ctx) })
	}
	h.mu.Unlock()
	defer wg.Wait()
	defer func() {
		h.mu.Lock()
		h.run = nil // no pump starts once Wait may have begun
		h.mu.Unlock()
	}()
	frames, reach := h.outer.Frames(), h.outer.Reach()
	for {
		select {
		case <-ctx.Done():
			return
		case f, ok := <-frames:
			if !ok {
				frames = nil
				continue
			}
			seats := h.seats()
			if l := h.seat(f.To); l != nil {
				l.enqueue(f)
				continue
			}
			for _, l := range seats {
				l.enqueue(Frame{From: f.From, Data: f.Data})
			}
		case r, ok := <-reach:
			if !ok {
				reach = nil
				continue
			}
			for _, l := range h.seats() {
				select {
				case l.reach <- r:
				case <-l.stop: // removed meanwhile: nobody reads it
				case <-ctx.Done():
					return
				}
			}
		}
	}
}

// hubLink is one local seat's end of the hub.
type hubLink struct {
	h     *Hub
	self  peer.ID
	mu    sync.Mutex
	q     []Frame
	wake  chan struct{}
	out   chan Frame
	reach chan Reach
	stop  chan struct{} // closed when the seat is removed
}

// Send implements Link: to a local seat in memory, to the others through
// the outer link; a frame for everyone goes both ways.
func (l *hubLink) Send(to peer.ID, data []byte) error {
	if dst := l.h.seat(to); dst != nil && to != l.self {
		dst.enqueue(Frame{From: l.self, Data: bytes.Clone(data)})
		return nil
	}
	if to == "" {
		for _, dst := range l.h.seats() {
			if dst.self != l.self {
				dst.enqueue(Frame{From: l.self, Data: bytes.Clone(data)})
			}
		}
	}
	if sl, ok := l.h.outer.(SeatLink); ok {
		return sl.SendAs(l.self, to, data)
	}
	return l.h.outer.Send(to, data)
}

// Frames implements Link.
func (l *hubLink) Frames() <-chan Frame { return l.out }

// Reach implements Link.
func (l *hubLink) Reach() <-chan Reach { return l.reach }

func (l *hubLink) enqueue(f Frame) {
	l.mu.Lock()
	if len(l.q) >= hubQueueCap {
		l.mu.Unlock()
		l.h.Dropped.Add(1)
		return
	}
	l.q = append(l.q, f)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// pump hands the queue to the seat's driver in order until ctx ends.
func (l *hubLink) pump(ctx context.Context) {
	for {
		l.mu.Lock()
		var f Frame
		ok := len(l.q) > 0
		if ok {
			f, l.q[0] = l.q[0], Frame{}
			l.q = l.q[1:]
		}
		l.mu.Unlock()
		if !ok {
			select {
			case <-l.wake:
				continue
			case <-l.stop:
				return
			case <-ctx.Done():
				return
			}
		}
		select {
		case l.out <- f:
		case <-l.stop:
			return
		case <-ctx.Done():
			return
		}
	}
}
