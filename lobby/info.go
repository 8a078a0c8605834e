package lobby

import (
	"context"
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Info is what a lobby's creator says about its table, on
// p2p.InfoProtocolID: the Advert of a peer reached by address, and the
// proof that a host named in an advert is really there.
type Info struct {
	Lobby string // the game's name, for Config.Lobby
	Name  string // the creator's name
	Free  int    // player seats still open
	Taken int    // seats taken by players and bots
	Rules engine.Rules
	// Draw is the creator's random draw for its table: of two tables of
	// one name with as many seats taken, the higher draw is the one
	// peers gather at (find.go).
	Draw uint64
}

// ErrNoLobby says a peer creates no lobby now.
var ErrNoLobby = errors.New("the peer hosts no game")

// Query asks a connected peer which lobby it creates, if any (ErrNoLobby
// when none). Its answer goes through the lobby message parser like any
// message from a peer.
func Query(ctx context.Context, h host.Host, id peer.ID) (Info, error) {
	b, err := p2p.QueryInfo(ctx, h, id)
	if errors.Is(err, p2p.ErrNoInfo) {
		return Info{}, ErrNoLobby
	}
	if err != nil {
		return Info{}, fmt.Errorf("lobby: %w", err)
	}
	return decodeInfo(b)
}

func decodeInfo(b []byte) (Info, error) {
	m, err := decodeLobbyMsg(b)
	if err != nil {
		return Info{}, err
	}
	if m.T != lobbyInfo {
		return Info{}, fmt.Errorf("%w: a %s is no game info", errLobbyMsg, m.T)
	}
	r, _ := engine.ParseRules(m.Rules) // checked by decodeLobbyMsg
	return Info{Lobby: m.Lobby, Name: m.Name, Free: m.Free, Taken: m.Taken, Rules: r, Draw: m.Draw}, nil
}

// infoKey is what the answer to Query is made of: the table (its
// version bumps on every change of seats or rules) and what the creator
// says of itself.
type infoKey struct {
	table         *Table
	version       uint32
	lobby, player string
	draw          uint64
}

// refreshInfo rebuilds the answer to Query if the table changed since
// the last one, and reports whether it did: the loop calls it every turn,
// and most turns change nothing.
func (l *runner) refreshInfo() bool {
	k := infoKey{table: l.table, lobby: l.cfg.Lobby, player: l.cfg.Player, draw: l.draw}
	if l.table != nil {
		k.version = l.table.Version()
	}
	if l.infoBuilt && k == l.infoKey {
		return false
	}
	l.infoKey, l.infoBuilt = k, true
	l.info.store(l.infoMsg())
	return true
}

// infoMsg is the lobby's answer to Query now (nil: not hosting).
func (l *runner) infoMsg() infoAnswer {
	if l.table == nil {
		return infoAnswer{}
	}
	msg := lobbyMsg{T: lobbyInfo, Lobby: l.cfg.Lobby, Name: l.cfg.Player, Free: l.table.Free(),
		Taken: l.table.Taken(), Rules: l.table.Rules().String(), Draw: l.draw}
	a := infoAnswer{any: encodeLobbyMsg(msg), members: map[peer.ID]bool{}}
	for _, m := range l.table.Members()[1:] {
		a.members[m.ID] = true
	}
	msg.Free, msg.Taken = msg.Free+1, msg.Taken-1 // its own seat is free for it
	a.seated = encodeLobbyMsg(msg)
	return a
}
