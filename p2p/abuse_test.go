package p2p

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/peer"
)

// keepSending calls send until the stranger has been disconnected and has
// kept trying for the whole of d more: a ban holds, and what it tried
// while banned leaves no trace in the log.
func keepSending(t *testing.T, evil, victim *Transport, d time.Duration, send func() error) (sent int) {
	t.Helper()
	info := peer.AddrInfo{ID: victim.Host().ID(), Addrs: victim.Host().Addrs()}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if err := send(); err == nil {
			sent++
		} else if !evil.Connected(victim.Host().ID()) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			_ = evil.Connect(ctx, info) // refused while banned
			cancel()
		}
		time.Sleep(2 * time.Millisecond)
	}
	return sent
}

// A stranger that never joined sends chat lines over the rate limit for
// seconds: it is struck and disconnected, and the victim's log holds O(1)
// lines for it, not one per line.
func TestChatFloodStruckAndQuiet(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	out := newCapture()
	cfg := fastConfig(t)
	cfg.Logger = slog.New(out)
	victim := newTestTransport(t, cfg)
	evil := newTestTransport(t, fastConfig(t))
	chat := NewChat(victim)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var accepted atomic.Int64
	go func() {
		for {
			select {
			case in := <-victim.Inbox():
				if _, err := chat.Receive(in); err == nil {
					accepted.Add(1)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	connectPair(t, evil, victim)
	seq := uint64(0)
	sent := keepSending(t, evil, victim, 3*time.Second, func() error {
		seq++
		return evil.Send(victim.Host().ID(), KindChat, EncodeChat(seq, "flood"))
	})
	if evil.Connected(victim.Host().ID()) {
		t.Fatalf("after %d chat lines over the limit the stranger is still connected", sent)
	}
	lines := len(*out.recs)
	if lines > 20 {
		t.Errorf("%d log lines for %d chat lines from one stranger", lines, sent)
	}
	if n := accepted.Load(); n > chatBurst+1 {
		t.Errorf("%d of the flood's lines were accepted", n)
	}
	t.Logf("%d lines sent, %d accepted, %d log lines", sent, accepted.Load(), lines)
}
