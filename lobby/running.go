package lobby

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Running is what a player of a game in play says about it on
// p2p.InfoProtocolID, for the lobby's list of running games and for a
// peer that wants to watch it: the peer's word, a hint like an advert;
// a watcher trusts only what it verifies itself (the game's log, whose
// Setup must have ID Game).
type Running struct {
	Lobby    string // the lobby's name
	Name     string // the answering player's name
	Game     lockstep.GameID
	Players  []RunningSeat // the seats people hold, in colour order
	Bots     []RunningSeat // the seats bots fly (Name: the bot's kind)
	Roll     uint64        // the roll the game is at
	Leader   engine.Colour // the colour ahead (engine.NoColour: none yet)
	Watchers int           // peers watching the answering player
	Chat     bool          // watchers may chat (the creator's choice)
}

// RunningSeat is one seat of a running game.
type RunningSeat struct {
	ID     peer.ID // empty for a bot
	Name   string
	Colour engine.Colour
}

// maxWatchersShown bounds the watcher count a player states.
const maxWatchersShown = 1000

// EncodeRunning is r as a player answers Ask with it.
func EncodeRunning(r Running) []byte {
	m := lobbyMsg{T: lobbyRunning, Lobby: r.Lobby, Name: r.Name, Game: hex.EncodeToString(r.Game[:]),
		Roll: r.Roll, Watchers: min(r.Watchers, maxWatchersShown), Chat: r.Chat}
	if r.Leader < engine.NumColours {
		m.Lead = int(r.Leader) + 1
	}
	for _, p := range r.Players {
		m.Players = append(m.Players, rosterEntry{ID: p.ID.String(), Name: p.Name, Colour: int(p.Colour)})
	}
	for _, b := range r.Bots {
		m.Bots = append(m.Bots, botEntry{Colour: int(b.Colour), Kind: b.Name})
	}
	return encodeLobbyMsg(m)
}

func checkRunning(m lobbyMsg) error {
	if b, err := hex.DecodeString(m.Game); err != nil || len(b) != len(lockstep.GameID{}) {
		return fmt.Errorf("game ID %q", m.Game)
	}
	if m.Lead < 0 || m.Lead > engine.NumColours || m.Watchers < 0 || m.Watchers > maxWatchersShown || m.Free != 0 {
		return fmt.Errorf("leader %d, %d watchers, %d free", m.Lead, m.Watchers, m.Free)
	}
	return nil
}

// ErrNotRunning says a peer plays no game now.
var ErrNotRunning = errors.New("the peer plays no game now")

// Ask asks a connected peer what it offers: a table (Info), or the game
// it plays now (Running); exactly one of them is set, or the error says
// why neither (ErrNoLobby: nothing at all).
func Ask(ctx context.Context, h host.Host, id peer.ID) (*Info, *Running, error) {
	b, err := p2p.QueryInfo(ctx, h, id)
	if errors.Is(err, p2p.ErrNoInfo) {
		return nil, nil, ErrNoLobby
	}
	if err != nil {
		return nil, nil, fmt.Errorf("lobby: %w", err)
	}
	return decodeAnswer(b)
}

func decodeAnswer(b []byte) (*Info, *Running, error) {
	m, err := decodeLobbyMsg(b)
	if err != nil {
		return nil, nil, err
	}
	switch m.T {
	case lobbyInfo:
		info, err := decodeInfo(b)
		return &info, nil, err
	case lobbyRunning:
		r := &Running{Lobby: m.Lobby, Name: m.Name, Roll: m.Roll, Watchers: m.Watchers, Chat: m.Chat, Leader: engine.NoColour}
		_, _ = hex.Decode(r.Game[:], []byte(m.Game)) // checked by decodeLobbyMsg
		if m.Lead > 0 {
			r.Leader = engine.Colour(m.Lead - 1)
		}
		for _, p := range m.Players {
			id, _ := peer.Decode(p.ID)
			r.Players = append(r.Players, RunningSeat{ID: id, Name: p.Name, Colour: engine.Colour(p.Colour)})
		}
		for _, bt := range m.Bots {
			r.Bots = append(r.Bots, RunningSeat{Name: bt.Kind, Colour: engine.Colour(bt.Colour)})
		}
		return nil, r, nil
	}
	return nil, nil, fmt.Errorf("%w: a %s is no answer to a question", errLobbyMsg, m.T)
}

// Running asks a connected peer which game it plays now (ErrNotRunning
// when it plays none).
func QueryRunning(ctx context.Context, h host.Host, id peer.ID) (Running, error) {
	_, r, err := Ask(ctx, h, id)
	switch {
	case errors.Is(err, ErrNoLobby):
		return Running{}, ErrNotRunning
	case err != nil:
		return Running{}, err
	case r == nil:
		return Running{}, ErrNotRunning
	}
	return *r, nil
}
