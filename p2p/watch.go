package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// WatchProtocolID is a one-shot stream on which a peer that plays a game
// answers a peer watching it: one request, one answer, both opaque bytes
// to p2p (what they mean is package session's). It is a stream of its
// own, beside the game's transport, so watchers are never members of a
// game: nothing they send reaches the players' protocol, and a watcher
// costs the player only the answers it chooses to give.
const WatchProtocolID = "/aeroplane/watch/" + ProtocolVersion

// Limits of the watch stream: a request is small (a position in a log,
// a name, perhaps a chat line), an answer a batch of log records; an
// answer may wait up to WatchWait for something new (a long poll); at
// most MaxWatchStreams are served at once, more are reset unanswered.
const (
	MaxWatchRequest = 1024
	MaxWatchAnswer  = 512 << 10
	WatchWait       = 2 * time.Second
	MaxWatchStreams = 32
)

// ErrWatchRefused says a peer answered a watch request with nothing.
var ErrWatchRefused = errors.New("the peer serves nothing to watch")

// ServeWatch answers WatchProtocolID on h with what answer returns for
// each request (nil: nothing, which the asker reads as a refusal; more
// than MaxWatchAnswer bytes are not sent) until stop is called. answer
// runs on the stream's goroutine and may wait, at most until its ctx ends
// (WatchWait after the request).
func ServeWatch(h host.Host, answer func(ctx context.Context, asker peer.ID, req []byte) []byte) (stop func()) {
	var busy atomic.Int32
	h.SetStreamHandler(protocol.ID(WatchProtocolID), func(s network.Stream) {
		if busy.Add(1) > MaxWatchStreams {
			busy.Add(-1)
			_ = s.Reset()
			return
		}
		defer busy.Add(-1)
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(2 * time.Second))
		req, err := io.ReadAll(io.LimitReader(s, MaxWatchRequest+1))
		if err != nil || len(req) == 0 || len(req) > MaxWatchRequest {
			_ = s.Reset()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), WatchWait)
		b := answer(ctx, s.Conn().RemotePeer(), req)
		cancel()
		if len(b) == 0 || len(b) > MaxWatchAnswer {
			return
		}
		_ = s.SetDeadline(time.Now().Add(5 * time.Second))
		_, _ = s.Write(b)
	})
	return func() { h.RemoveStreamHandler(protocol.ID(WatchProtocolID)) }
}

// QueryWatch sends req to a connected peer on WatchProtocolID and returns
// its answer (ErrWatchRefused when it says nothing): at most
// MaxWatchAnswer bytes, the peer's word, for the caller to check.
func QueryWatch(ctx context.Context, h host.Host, id peer.ID, req []byte) ([]byte, error) {
	if len(req) == 0 || len(req) > MaxWatchRequest {
		return nil, fmt.Errorf("p2p: a watch request of %d bytes (1 to %d)", len(req), MaxWatchRequest)
	}
	ctx, cancel := context.WithTimeout(ctx, WatchWait+5*time.Second)
	defer cancel()
	s, err := h.NewStream(network.WithNoDial(ctx, "only peers already connected"), id, protocol.ID(WatchProtocolID))
	if err != nil {
		return nil, fmt.Errorf("p2p: asking %s for its game: %w", short(id), err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	if _, err := s.Write(req); err != nil {
		_ = s.Reset()
		return nil, fmt.Errorf("p2p: watching %s: %w", short(id), err)
	}
	if err := s.CloseWrite(); err != nil {
		_ = s.Reset()
		return nil, fmt.Errorf("p2p: watching %s: %w", short(id), err)
	}
	b, err := io.ReadAll(io.LimitReader(s, MaxWatchAnswer+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("p2p: reading %s's game: %w", short(id), err)
	case len(b) == 0:
		return nil, ErrWatchRefused
	case len(b) > MaxWatchAnswer:
		return nil, fmt.Errorf("p2p: %s's watch answer is over %d bytes", short(id), MaxWatchAnswer)
	}
	return b, nil
}

// ClosePeer drops every connection to id: what a watcher that floods or
// lies gets, beside the refusals its owner keeps for it.
func ClosePeer(h host.Host, id peer.ID) { _ = h.Network().ClosePeer(id) }
