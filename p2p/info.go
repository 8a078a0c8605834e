package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// InfoProtocolID is a one-shot stream on which a peer says what game it
// offers, so that a peer reached only by address (multicast blocked, or
// the creator dialled it) can list the game as mDNS would, and so that a
// peer named in an advert proves, by answering over a connection Noise
// authenticated, that it is there at all. p2p moves the bytes; what they
// mean is the lobby's (package lobby).
const InfoProtocolID = "/aeroplane/lobby-info/" + ProtocolVersion

// MaxInfo bounds an info answer: a name, a lobby name and rules.
const MaxInfo = 1024

// ErrNoInfo says a peer offers nothing now.
var ErrNoInfo = errors.New("the peer hosts no game")

// ServeInfo answers InfoProtocolID on h with what cur returns at the time
// of each question (nil or empty: nothing, which the asker reads as no
// game; more than MaxInfo bytes are not sent) until stop is called.
func ServeInfo(h host.Host, cur func(asker peer.ID) []byte) (stop func()) {
	h.SetStreamHandler(protocol.ID(InfoProtocolID), func(s network.Stream) {
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(2 * time.Second))
		if b := cur(s.Conn().RemotePeer()); len(b) > 0 && len(b) <= MaxInfo {
			_, _ = s.Write(b)
		}
	})
	return func() { h.RemoveStreamHandler(protocol.ID(InfoProtocolID)) }
}

// QueryInfo asks a connected peer what it offers (ErrNoInfo when
// nothing). The answer is at most MaxInfo bytes, read within 2 s; it is
// the peer's word, for the caller to parse as such.
func QueryInfo(ctx context.Context, h host.Host, id peer.ID) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := h.NewStream(network.WithNoDial(ctx, "only peers already connected"), id, protocol.ID(InfoProtocolID))
	if err != nil {
		return nil, fmt.Errorf("p2p: asking %s for its game: %w", short(id), err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	b, err := io.ReadAll(io.LimitReader(s, MaxInfo+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("p2p: reading %s's game: %w", short(id), err)
	case len(b) == 0:
		return nil, ErrNoInfo
	case len(b) > MaxInfo:
		return nil, fmt.Errorf("p2p: %s's game info is over %d bytes", short(id), MaxInfo)
	}
	return b, nil
}
