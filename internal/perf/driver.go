package perf

import (
	"context"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Sync is the log policy a measured game's drivers run with: the real
// loop, lockstep.Driver, with one of its sync policies (see
// docs/PERFORMANCE.md).
type Sync = lockstep.SyncPolicy

// The log policies RunTurns compares.
const (
	// SyncLazy is the product's: the setup at once, the rest once a tick
	// and at the end.
	SyncLazy = lockstep.SyncLazy
	// SyncEveryMessage syncs before every Ready that sends (the product
	// until 30 Nov): what the lazy policy saves.
	SyncEveryMessage = lockstep.SyncEveryMessage
	// SyncNone never syncs: what the disk costs at all.
	SyncNone = lockstep.SyncNone
)

// gameLink is a lockstep.Link over one transport: game frames only (a
// measured game has no chat and no lobby).
type gameLink struct {
	t      *p2p.Transport
	frames chan lockstep.Frame
}

func newGameLink(t *p2p.Transport) *gameLink {
	return &gameLink{t: t, frames: make(chan lockstep.Frame, 64)}
}

func (l *gameLink) Send(to peer.ID, data []byte) error {
	if to == "" {
		return l.t.Broadcast(p2p.KindGame, data)
	}
	return l.t.Send(to, p2p.KindGame, data)
}

func (l *gameLink) Frames() <-chan lockstep.Frame { return l.frames }
func (l *gameLink) Reach() <-chan lockstep.Reach  { return nil }

// run reads the transport's inbox until ctx ends.
func (l *gameLink) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case in := <-l.t.Inbox():
			if in.Kind != p2p.KindGame {
				continue
			}
			select {
			case l.frames <- lockstep.Frame{From: in.From, Data: in.Data}:
			case <-ctx.Done():
				return
			}
		case <-l.t.Events():
		}
	}
}

// measuredLinger is how long a measured peer answers after the end.
const measuredLinger = 100 * time.Millisecond
