// Package memnet is an in-memory network of lockstep.Links: every frame
// sent reaches its receivers whole and in order, with no sockets, so that
// in-process tables of Drivers (perf's dice table, tests) measure and
// check the real driving loop. Drop lets a test lose frames by predicate;
// faults.go adds the rafttest-style fault network (drop, delay and
// duplicate rates, partitions, crashes) that tests outside lockstep use
// instead of hand-rolling one. (lockstep's own TestSim* keep their
// deterministic in-package harness: memnet imports lockstep, so lockstep's
// internal tests cannot import memnet.)
//
// memnet must never block a sender on a receiver (queues are unbounded:
// only trusted, in-process nodes send on it) and is imported by no package
// of the product.
package memnet

import (
	"bytes"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Net connects a fixed set of players.
type Net struct {
	links map[peer.ID]*Link
	order []peer.ID
	// Drop, if set before the first Send, loses the frames it returns
	// true for.
	Drop func(from, to peer.ID, data []byte) bool
	// Frames and Bytes count what reached a receiver's queue (a
	// broadcast counts once per receiver, as a transport sends it).
	Frames, Bytes atomic.Int64
	done          chan struct{}
	closeOnce     sync.Once
	f             faults
}

// New makes a network among ids; Close it when done.
func New(ids ...peer.ID) *Net {
	n := &Net{links: map[peer.ID]*Link{}, order: ids, done: make(chan struct{})}
	n.f.init()
	for _, id := range ids {
		l := &Link{net: n, self: id, wake: make(chan struct{}, 1), reset: make(chan struct{}, 1), out: make(chan lockstep.Frame)}
		n.links[id] = l
		go l.pump()
	}
	return n
}

// Link is id's end of the network.
func (n *Net) Link(id peer.ID) *Link { return n.links[id] }

// Close stops delivering.
func (n *Net) Close() { n.closeOnce.Do(func() { close(n.done) }) }

// Link is one player's end; it implements lockstep.Link.
type Link struct {
	net  *Net
	self peer.ID
	mu   sync.Mutex
	q    []lockstep.Frame
	wake chan struct{}
	out  chan lockstep.Frame
	// down is set by Crash, which also counts epoch up; reset tells pump
	// to drop the frame it holds if it was taken before the crash.
	down  bool
	epoch int
	reset chan struct{}
}

var errUnknown = errors.New("memnet: no such player")

// Send implements lockstep.Link.
func (l *Link) Send(to peer.ID, data []byte) error {
	if to != "" {
		dst, ok := l.net.links[to]
		if !ok {
			return errUnknown
		}
		l.deliver(dst, data)
		return nil
	}
	for _, id := range l.net.order {
		if id != l.self {
			l.deliver(l.net.links[id], data)
		}
	}
	return nil
}

func (l *Link) deliver(dst *Link, data []byte) {
	if d := l.net.Drop; d != nil && d(l.self, dst.self, data) {
		return
	}
	l.mu.Lock()
	down := l.down
	l.mu.Unlock()
	if down {
		return
	}
	copies, delay := l.net.fate(l.self, dst.self)
	for range copies {
		f := lockstep.Frame{From: l.self, Data: bytes.Clone(data)}
		if delay > 0 {
			time.AfterFunc(delay, func() { dst.enqueue(f) })
		} else {
			dst.enqueue(f)
		}
	}
}

// enqueue puts f on l's queue unless l is down (a crashed player receives
// nothing), and counts it.
func (l *Link) enqueue(f lockstep.Frame) {
	l.mu.Lock()
	if l.down {
		l.mu.Unlock()
		return
	}
	l.q = append(l.q, f)
	l.mu.Unlock()
	l.net.Frames.Add(1)
	l.net.Bytes.Add(int64(len(f.Data)))
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Frames implements lockstep.Link.
func (l *Link) Frames() <-chan lockstep.Frame { return l.out }

// Reach implements lockstep.Link: everybody is always reachable.
func (l *Link) Reach() <-chan lockstep.Reach { return nil }

// pump moves the queue onto the channel, so a sender never waits.
func (l *Link) pump() {
	for {
		l.mu.Lock()
		var f lockstep.Frame
		epoch := l.epoch
		ok := len(l.q) > 0
		if ok {
			f = l.q[0]
			l.q[0] = lockstep.Frame{}
			l.q = l.q[1:]
		}
		l.mu.Unlock()
		if !ok {
			select {
			case <-l.wake:
				continue
			case <-l.net.done:
				return
			}
		}
	hold:
		select {
		case l.out <- f:
		case <-l.reset:
			// A crash after f was taken loses f with the queue; a signal
			// left over from an earlier crash does not.
			l.mu.Lock()
			stale := l.epoch == epoch
			l.mu.Unlock()
			if stale {
				goto hold
			}
		case <-l.net.done:
			return
		}
	}
}
