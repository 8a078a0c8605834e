package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Socket is a message socket to the serving program: the browser's
// WebSocket (web/wasm) or a test's. Send must not wait on the other end
// for long; Recv is closed when the socket closes.
type Socket interface {
	Send(msg []byte) error
	Recv() <-chan []byte
}

// p2p's frame kinds (p2p.KindGame, KindChat): client imports no network
// package, the numbers are the wire's.
const (
	KindGame byte = 16
	KindChat byte = 17
)

// Join answers the server's hello on s with the identity's proof; the
// server then relays frames under that peer ID.
func Join(ctx context.Context, s Socket, id *Identity) error {
	select {
	case msg, ok := <-s.Recv():
		if !ok {
			return errors.New("the serving program closed the game socket before its hello")
		}
		nonce, err := ParseHello(msg)
		if err != nil {
			return err
		}
		auth, err := id.Auth(nonce)
		if err != nil {
			return err
		}
		return s.Send(auth)
	case <-ctx.Done():
		return fmt.Errorf("waiting for the serving program's hello: %w", ctx.Err())
	}
}

// Link is a lockstep.Link over the game socket: the browser player's
// node talks to the table through the program that served the page. Every
// frame it gets is checked by the node like any other (signature, hash
// link, roll), so the relay can drop or delay, never forge.
type Link struct {
	mu      sync.Mutex
	s       Socket // nil while the socket is down and being dialled again
	frames  chan lockstep.Frame
	onChat  func(from peer.ID, data []byte)
	dropped atomic.Uint64 // undecodable messages from the relay
	// redial, if set, makes a new socket joined to the same game when
	// one closes (Rejoin); without it the link ends with its socket.
	redial func(ctx context.Context) (Socket, error)
}

// errSocketDown is Send's answer while the socket is being dialled again
// (lockstep re-sends what the others lack once it is back).
var errSocketDown = errors.New("the game socket is down: dialling the serving program again")

// NewLink makes the link (after Join); onChat, if set, gets chat frames.
func NewLink(s Socket, onChat func(from peer.ID, data []byte)) *Link {
	return &Link{s: s, frames: make(chan lockstep.Frame, 64), onChat: onChat}
}

// Send implements lockstep.Link.
func (l *Link) Send(to peer.ID, data []byte) error {
	msg, err := EncodeFrame(nil, Frame{Kind: KindGame, Peer: to, Data: data})
	if err != nil {
		return err
	}
	l.mu.Lock()
	sock := l.s
	l.mu.Unlock()
	if sock == nil {
		return errSocketDown
	}
	return sock.Send(msg)
}

// Frames implements lockstep.Link.
func (l *Link) Frames() <-chan lockstep.Frame { return l.frames }

// Reach implements lockstep.Link: the relay's word on who is reachable is
// not needed (absence is voted from signed messages).
func (l *Link) Reach() <-chan lockstep.Reach { return nil }

// Dropped counts messages from the relay that were not frames.
func (l *Link) Dropped() uint64 { return l.dropped.Load() }

// Run routes the socket's frames until it closes (and cannot be dialled
// again) or ctx ends; then Frames is closed.
func (l *Link) Run(ctx context.Context) {
	defer close(l.frames)
	l.mu.Lock()
	recv := l.s.Recv()
	l.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-recv:
			if !ok {
				if l.redial == nil {
					return
				}
				l.mu.Lock()
				l.s = nil
				l.mu.Unlock()
				s, err := l.redial(ctx)
				if err != nil {
					return
				}
				l.mu.Lock()
				l.s, recv = s, s.Recv()
				l.mu.Unlock()
				continue
			}
			f, err := DecodeFrame(msg)
			if err != nil || f.Peer == "" {
				l.dropped.Add(1)
				continue
			}
			switch f.Kind {
			case KindGame:
				select {
				case l.frames <- lockstep.Frame{From: f.Peer, Data: f.Data}:
				case <-ctx.Done():
					return
				}
			case KindChat:
				if l.onChat != nil {
					l.onChat(f.Peer, f.Data)
				}
			default:
				l.dropped.Add(1)
			}
		}
	}
}

// NewNode makes the browser player's lockstep node for setup: its key
// signs, its chain's entropy comes from crypto/rand (getRandomValues).
// The entropy is returned so the page can keep it for a resume.
func (i *Identity) NewNode(setup lockstep.Setup, autoRoll bool) (*lockstep.Node, [32]byte, error) {
	var cfg lockstep.Config
	cfg.Setup, cfg.Self, cfg.Key, cfg.AutoRoll = setup, i.ID, i.key, autoRoll
	if err := readRandom(cfg.Entropy[:]); err != nil {
		return nil, cfg.Entropy, err
	}
	n, err := lockstep.NewNode(cfg)
	return n, cfg.Entropy, err
}
