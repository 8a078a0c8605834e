package lobby

import (
	"encoding/json"
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Lobby message types.
const (
	lobbyJoin     = "join"     // joiner -> host: let me in (Name, Addrs)
	lobbyRoster   = "roster"   // host -> members: who is in, free seats
	lobbyStart    = "start"    // host -> members: the Setup, and everyone's addresses
	lobbyFull     = "full"     // host -> joiner: no free seat
	lobbyRedirect = "redirect" // member -> joiner: the host is Players[0]
	lobbyColour   = "colour"   // member -> host: seat me at colour C if it is free
	lobbyReady    = "ready"    // member -> host: I am (R) or am not ready for table version V
	lobbyInfo     = "info"     // host -> asker, on p2p.InfoProtocolID: my game (Name, Free, Taken, Rules, Draw)
	lobbyLeave    = "leave"    // member -> host: I left (my seat is free); host -> members: the lobby is gone
	lobbyRunning  = "running"  // player -> asker, on p2p.InfoProtocolID: the game I play now (running.go)
)

// lobbyMsg is a KindLobby frame body (JSON: small, rare, easy to debug).
type lobbyMsg struct {
	T       string        `json:"t"`
	Lobby   string        `json:"l"`
	Name    string        `json:"n,omitempty"`
	Addrs   []string      `json:"a,omitempty"`
	Players []rosterEntry `json:"p,omitempty"`
	Free    int           `json:"f,omitempty"`
	Setup   []byte        `json:"s,omitempty"`
	// In a roster: the bot seats, the rules (engine.Rules.String) and the
	// table's version, which bumps on every change of seats or rules; a
	// ready is for one version, so a change clears everyone's ready.
	Bots  []botEntry `json:"b,omitempty"`
	Rules string     `json:"ru,omitempty"`
	Ver   uint32     `json:"v,omitempty"`
	// In a colour or ready request.
	Colour int  `json:"c,omitempty"`
	Ready  bool `json:"r,omitempty"`
	// In an info: the seats taken by players and bots.
	Taken int `json:"k,omitempty"`
	// In a join: the colour the joiner would like, plus one (0: none).
	// A host that predates it ignores it, as JSON does unknown fields.
	Want int `json:"w,omitempty"`
	// In an info: the table's draw, a random number its creator drew,
	// which breaks ties between tables of one name (find.go).
	Draw uint64 `json:"d,omitempty"`
	// In a running: the game's ID (hex), the roll it is at, the colour
	// that leads plus one, how many watch this player, and whether
	// watchers may chat.
	Game     string `json:"g,omitempty"`
	Roll     uint64 `json:"ro,omitempty"`
	Lead     int    `json:"ld,omitempty"`
	Watchers int    `json:"wa,omitempty"`
	Chat     bool   `json:"wc,omitempty"`
	// In a start: the game's watchers may not chat (the creator's choice).
	Quiet bool `json:"q,omitempty"`
	// In a roster or start: the bots' pace the creator set (Pace.wire:
	// milliseconds plus one; left out when each player keeps its own).
	Pace int `json:"bp,omitempty"`
	// In a join, colour, ready or leave: the seat the sending program
	// speaks for, one it hosts (a web player), instead of its own.
	Seat string `json:"st,omitempty"`
	// In a join with Seat: the seat is a browser's (a phone), not a
	// person at the program's keyboard.
	Phone bool `json:"ph,omitempty"`
}

type rosterEntry struct {
	ID     string   `json:"id"`
	Name   string   `json:"n"`
	Addrs  []string `json:"a,omitempty"`
	Colour int      `json:"c,omitempty"`
	Ready  bool     `json:"r,omitempty"`
	// Via is the program hosting the seat (Member.Via); such a seat has
	// no addresses of its own. Phone: it is a browser's (Member.Phone).
	Via   string `json:"via,omitempty"`
	Phone bool   `json:"ph,omitempty"`
}

// botEntry is a bot seat: its colour and kind.
type botEntry struct {
	Colour int    `json:"c,omitempty"`
	Kind   string `json:"k"`
}

var errLobbyMsg = errors.New("bad lobby message")

// maxSetupBytes bounds an encoded lockstep.Setup: 4 seats of peer IDs and
// bot names, rules, a nonce.
const maxSetupBytes = 4096

func encodeLobbyMsg(m lobbyMsg) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // only plain strings, ints and bytes: cannot fail
	}
	return b
}

// decodeLobbyMsg parses and validates a lobby message from a peer.
func decodeLobbyMsg(b []byte) (lobbyMsg, error) {
	var m lobbyMsg
	if err := json.Unmarshal(b, &m); err != nil {
		return lobbyMsg{}, fmt.Errorf("%w: %w", errLobbyMsg, err)
	}
	// Empty and missing lists mean the same; keep one form.
	if len(m.Addrs) == 0 {
		m.Addrs = nil
	}
	if len(m.Players) == 0 {
		m.Players = nil
	}
	if len(m.Setup) == 0 {
		m.Setup = nil
	}
	if len(m.Bots) == 0 {
		m.Bots = nil
	}
	for i := range m.Players {
		if len(m.Players[i].Addrs) == 0 {
			m.Players[i].Addrs = nil
		}
	}
	bad := func(f string, a ...any) (lobbyMsg, error) {
		return lobbyMsg{}, fmt.Errorf("%w: %s", errLobbyMsg, fmt.Sprintf(f, a...))
	}
	switch m.T {
	case lobbyJoin, lobbyRoster, lobbyStart, lobbyFull, lobbyRedirect, lobbyColour, lobbyReady, lobbyInfo, lobbyLeave, lobbyRunning:
	default:
		return bad("type %q", m.T)
	}
	if !p2p.ValidName(m.Lobby) || m.Lobby == "" || !p2p.ValidName(m.Name) {
		return bad("lobby %q or name %q", m.Lobby, m.Name)
	}
	if err := checkAddrs(m.Addrs); err != nil {
		return bad("%v", err)
	}
	if len(m.Players) > engine.NumColours || m.Free < 0 || m.Free > engine.NumColours || len(m.Setup) > maxSetupBytes {
		return bad("%d players, %d free, %d setup bytes", len(m.Players), m.Free, len(m.Setup))
	}
	if len(m.Players)+len(m.Bots) > engine.NumColours {
		return bad("%d players and %d bots", len(m.Players), len(m.Bots))
	}
	if m.Want != 0 && (m.T != lobbyJoin || m.Want < 1 || m.Want > engine.NumColours) {
		return bad("wanted colour %d in a %s", m.Want, m.T)
	}
	if (m.Game != "" || m.Roll != 0 || m.Lead != 0 || m.Watchers != 0 || m.Chat) && m.T != lobbyRunning {
		return bad("a running game's fields in a %s", m.T)
	}
	if m.T == lobbyRunning {
		if err := checkRunning(m); err != nil {
			return bad("%v", err)
		}
	}
	if m.Quiet && m.T != lobbyStart {
		return bad("watchers' chat in a %s", m.T)
	}
	if m.Pace != 0 && (m.Pace < 0 || m.Pace > maxPaceWire || m.T != lobbyRoster && m.T != lobbyStart) {
		return bad("bots' pace %d in a %s", m.Pace, m.T)
	}
	if m.Draw != 0 && m.T != lobbyInfo {
		return bad("draw in a %s", m.T)
	}
	if m.Taken != 0 && (m.T != lobbyInfo || m.Taken < 0 || m.Free+m.Taken > engine.NumColours) {
		return bad("%d taken and %d free seats in a %s", m.Taken, m.Free, m.T)
	}
	if m.Colour < 0 || m.Colour >= engine.NumColours || (m.Colour != 0 && m.T != lobbyColour) || (m.Ready && m.T != lobbyReady) {
		return bad("colour %d or ready in a %s", m.Colour, m.T)
	}
	if m.Rules != "" {
		r, err := engine.ParseRules(m.Rules)
		if err != nil || r.String() != m.Rules || (m.T != lobbyRoster && m.T != lobbyInfo) {
			return bad("rules %q in a %s", m.Rules, m.T)
		}
	}
	if (m.Ver != 0 || len(m.Bots) > 0) && m.T != lobbyRoster && m.T != lobbyReady && m.T != lobbyStart && m.T != lobbyRunning {
		return bad("table version or bots in a %s", m.T)
	}
	// Every seat has its own colour.
	var taken [engine.NumColours]bool
	seat := func(c int) bool {
		if c < 0 || c >= engine.NumColours || taken[c] {
			return false
		}
		taken[c] = true
		return true
	}
	for _, b := range m.Bots {
		if !seat(b.Colour) || !ValidBotKind(b.Kind) {
			return bad("bot seat %d %q", b.Colour, b.Kind)
		}
	}
	if m.Seat != "" {
		if _, err := peer.Decode(m.Seat); err != nil || (m.T != lobbyJoin && m.T != lobbyColour && m.T != lobbyReady && m.T != lobbyLeave) {
			return bad("seat %q in a %s", m.Seat, m.T)
		}
	}
	if m.Phone && (m.Seat == "" || m.T != lobbyJoin) {
		return bad("a phone mark without a seat joining, in a %s", m.T)
	}
	seen := map[string]bool{}
	for _, p := range m.Players {
		if p.Via != "" {
			if _, err := peer.Decode(p.Via); err != nil || p.Via == p.ID || len(p.Addrs) > 0 || (m.T != lobbyRoster && m.T != lobbyStart) {
				return bad("player %q hosted via %q in a %s", p.ID, p.Via, m.T)
			}
		}
		if p.Phone && p.Via == "" {
			return bad("player %q marked a phone, hosted by no program", p.ID)
		}
		if _, err := peer.Decode(p.ID); err != nil || seen[p.ID] {
			return bad("player ID %q", p.ID)
		}
		seen[p.ID] = true
		if !seat(p.Colour) {
			return bad("player colour %d", p.Colour)
		}
		if p.Ready && m.T != lobbyRoster && m.T != lobbyStart {
			return bad("ready player in a %s", m.T)
		}
		if !p2p.ValidName(p.Name) {
			return bad("player name %q", p.Name)
		}
		if err := checkAddrs(p.Addrs); err != nil {
			return bad("%v", err)
		}
	}
	if (m.T == lobbyStart) != (len(m.Setup) > 0) {
		return bad("setup only in start")
	}
	if (m.T == lobbyRedirect || m.T == lobbyStart || m.T == lobbyRoster || m.T == lobbyRunning) && len(m.Players) == 0 {
		return bad("%s without players", m.T)
	}
	return m, nil
}

func checkAddrs(as []string) error {
	if len(as) > p2p.MaxAddrs {
		return fmt.Errorf("%d addresses", len(as))
	}
	for _, a := range as {
		if _, err := ma.NewMultiaddr(a); err != nil {
			return fmt.Errorf("address %q: %w", a, err)
		}
	}
	return nil
}

// addrStrings encodes at most p2p.MaxAddrs addresses.
func addrStrings(as []ma.Multiaddr) []string {
	var out []string
	for i, a := range as {
		if i == p2p.MaxAddrs {
			break
		}
		out = append(out, a.String())
	}
	return out
}
