package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"aeroplane/engine"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// InfoProtocolID is a one-shot stream on which a peer that creates a
// lobby names it, so that a peer reached only by address (multicast
// blocked, or the creator dialled it) can list the game as mDNS would.
const InfoProtocolID = "/aeroplane/lobby-info/" + ProtocolVersion

// LobbyInfo is what a lobby's creator says about it: the Advert of a
// peer reached by address.
type LobbyInfo struct {
	Lobby string // the game's name, for LobbyConfig.Lobby
	Name  string // the creator's name
	Free  int    // player seats still open
	Taken int    // seats taken by players and bots (0 from an older peer)
	Rules engine.Rules
}

// maxInfoBytes bounds an answer: a name, a lobby name and rules.
const maxInfoBytes = 1024

// serveInfo answers InfoProtocolID on h with *cur while RunLobby runs;
// nil (not hosting) answers nothing, which the asker reads as no game.
func serveInfo(h host.Host, cur *atomic.Pointer[lobbyMsg]) (stop func()) {
	h.SetStreamHandler(protocol.ID(InfoProtocolID), func(s network.Stream) {
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(2 * time.Second))
		if m := cur.Load(); m != nil {
			_, _ = s.Write(encodeLobbyMsg(*m))
		}
	})
	return func() { h.RemoveStreamHandler(protocol.ID(InfoProtocolID)) }
}

// ErrNoLobby says a peer creates no lobby now.
var ErrNoLobby = errors.New("the peer hosts no game")

// QueryLobby asks a connected peer which lobby it creates, if any
// (ErrNoLobby when none). Its answer goes through the lobby message
// parser like any frame from a peer.
func QueryLobby(ctx context.Context, h host.Host, id peer.ID) (LobbyInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := h.NewStream(network.WithNoDial(ctx, "only peers already connected"), id, protocol.ID(InfoProtocolID))
	if err != nil {
		return LobbyInfo{}, fmt.Errorf("p2p: asking %s for its game: %w", short(id), err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	b, err := io.ReadAll(io.LimitReader(s, maxInfoBytes+1))
	switch {
	case err != nil:
		return LobbyInfo{}, fmt.Errorf("p2p: reading %s's game: %w", short(id), err)
	case len(b) == 0:
		return LobbyInfo{}, ErrNoLobby
	case len(b) > maxInfoBytes:
		return LobbyInfo{}, fmt.Errorf("p2p: %s's game: %w: too long", short(id), errLobbyMsg)
	}
	return decodeLobbyInfo(b)
}

func decodeLobbyInfo(b []byte) (LobbyInfo, error) {
	m, err := decodeLobbyMsg(b)
	if err != nil {
		return LobbyInfo{}, err
	}
	if m.T != lobbyInfo {
		return LobbyInfo{}, fmt.Errorf("%w: a %s is no game info", errLobbyMsg, m.T)
	}
	r, _ := engine.ParseRules(m.Rules) // checked by decodeLobbyMsg
	return LobbyInfo{Lobby: m.Lobby, Name: m.Name, Free: m.Free, Taken: m.Taken, Rules: r}, nil
}

// infoMsg is the lobby's answer to QueryLobby now (nil: not hosting).
func (l *lobby) infoMsg() *lobbyMsg {
	if !l.hosting {
		return nil
	}
	return &lobbyMsg{T: lobbyInfo, Lobby: l.cfg.Lobby, Name: l.cfg.Player, Free: l.capacity - len(l.roster),
		Taken: len(l.roster) + countBots(l.bots), Rules: l.rules.String()}
}
