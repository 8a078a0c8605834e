package web

import (
	"context"
	"errors"
	"sync"

	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Link is the serving program's side of its browser players as a
// lockstep.Link: its own node sends to and hears from every browser it
// serves, each under the peer ID its socket proved. Game frames only; a
// frame a browser addresses to another player is not this node's.
type Link struct {
	self   peer.ID
	ctx    context.Context
	mu     sync.Mutex
	conns  map[peer.ID]*Conn
	frames chan lockstep.Frame
	reach  chan lockstep.Reach
}

// NewLink makes the link for the node of self; it reads each Conn given
// to Add until ctx ends.
func NewLink(ctx context.Context, self peer.ID) *Link {
	return &Link{self: self, ctx: ctx, conns: map[peer.ID]*Conn{},
		frames: make(chan lockstep.Frame, 64), reach: make(chan lockstep.Reach, 16)}
}

// Add takes a browser player's socket; one that comes back replaces its
// old socket.
func (l *Link) Add(c *Conn) {
	l.mu.Lock()
	old := l.conns[c.Peer()]
	l.conns[c.Peer()] = c
	l.mu.Unlock()
	if old != nil {
		old.Close()
	}
	go l.pump(c)
}

func (l *Link) pump(c *Conn) {
	l.tell(lockstep.Reach{Peer: c.Peer(), Up: true, Reason: "web socket"})
	defer func() {
		l.mu.Lock()
		gone := l.conns[c.Peer()] == c
		if gone {
			delete(l.conns, c.Peer())
		}
		l.mu.Unlock()
		if gone {
			l.tell(lockstep.Reach{Peer: c.Peer(), Up: false, Reason: "web socket closed"})
		}
	}()
	for {
		select {
		case <-l.ctx.Done():
			return
		case in, ok := <-c.Inbox():
			if !ok {
				return
			}
			if in.Kind != p2p.KindGame || (in.To != "" && in.To != l.self) {
				continue
			}
			select {
			case l.frames <- lockstep.Frame{From: in.From, Data: in.Data}:
			case <-l.ctx.Done():
				return
			}
		}
	}
}

func (l *Link) tell(r lockstep.Reach) {
	select {
	case l.reach <- r:
	case <-l.ctx.Done():
	}
}

// Send implements lockstep.Link.
func (l *Link) Send(to peer.ID, data []byte) error {
	l.mu.Lock()
	var targets []*Conn
	if to == "" {
		for _, c := range l.conns {
			targets = append(targets, c)
		}
	} else if c := l.conns[to]; c != nil {
		targets = append(targets, c)
	}
	l.mu.Unlock()
	var errs []error
	for _, c := range targets {
		errs = append(errs, c.Send(l.self, p2p.KindGame, data))
	}
	return errors.Join(errs...)
}

// Frames implements lockstep.Link.
func (l *Link) Frames() <-chan lockstep.Frame { return l.frames }

// Reach implements lockstep.Link.
func (l *Link) Reach() <-chan lockstep.Reach { return l.reach }
