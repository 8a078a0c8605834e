package p2p_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"
)

// A stranger that never joined sends chat lines over the rate limit for
// seconds: it is struck and disconnected, and the victim's log holds O(1)
// lines for it, not one per line.
func TestChatFloodStruckAndQuiet(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	out := p2ptest.NewCapture()
	cfg := p2ptest.FastConfig(t)
	cfg.Logger = slog.New(out)
	victim := p2ptest.NewTransport(t, cfg)
	evil := p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	chat := p2p.NewChat(victim)
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
	p2ptest.ConnectPair(t, evil, victim)
	seq := uint64(0)
	sent := p2ptest.KeepSending(t, evil, victim, 3*time.Second, func() error {
		seq++
		return evil.Send(victim.Host().ID(), p2p.KindChat, p2p.EncodeChat(seq, "flood"))
	})
	if evil.Connected(victim.Host().ID()) {
		t.Fatalf("after %d chat lines over the limit the stranger is still connected", sent)
	}
	lines := out.Len()
	if lines > 20 {
		t.Errorf("%d log lines for %d chat lines from one stranger", lines, sent)
	}
	if n := accepted.Load(); n > p2p.ChatBurst+1 {
		t.Errorf("%d of the flood's lines were accepted", n)
	}
	t.Logf("%d lines sent, %d accepted, %d log lines", sent, accepted.Load(), lines)
}
