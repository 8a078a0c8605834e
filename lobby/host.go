package lobby

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"time"

	"aeroplane/engine"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The creator's side of the loop: every decision about seats is the
// Table's; this file relays it to the guests and the screen.

// placeBots seats the creator's configured bots: by colour if BotSeats
// says, else at the end of the layout of Players+Bots seats, so players
// joining in turn sit where the lobby always seated them.
func placeBots(cfg Config) [engine.NumColours]string {
	if countBots(cfg.BotSeats) > 0 {
		return cfg.BotSeats
	}
	return LayoutBots(cfg.Players, cfg.Bots, cfg.BotKind, cfg.BotKinds)
}

func (l *runner) create() {
	l.log.Info("creating lobby", "lobby", l.cfg.Lobby, "players", l.cfg.Players, "bots", l.cfg.Bots)
	tb, err := New(TableConfig{Creator: Member{ID: l.self, Name: l.cfg.Player}, Players: l.cfg.Players,
		Bots: placeBots(l.cfg), Rules: l.cfg.Rules, Prefer: l.cfg.Prefer, ManualReady: l.cfg.ManualReady, Pace: l.cfg.BotPace})
	if err != nil {
		l.log.Error("cannot open the table", "err", err) // Run checked the config
		return
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	l.table, l.host, l.since = tb, l.self, time.Now()
	l.draw = binary.BigEndian.Uint64(b[:])
	l.addrs = map[peer.ID][]string{l.self: addrStrings(p2p.Advertisable(l.t.Host().Addrs()))}
	l.roster = l.rosterNow()
	l.updateView()
	l.changed()
}

// rosterNow is the table as the wire says it.
func (l *runner) rosterNow() []rosterEntry {
	var out []rosterEntry
	for _, m := range l.table.members {
		e := rosterEntry{ID: m.ID.String(), Name: m.Name, Addrs: l.addrs[m.ID], Colour: int(m.Colour), Ready: m.Ready}
		if m.Via != "" {
			e.Addrs, e.Via, e.Phone = nil, m.Via.String(), m.Phone
		}
		out = append(out, e)
	}
	return out
}

// guests are the programs at the table other than the creator's (a
// seat hosted by a program hears the table through it).
func (l *runner) guests() []peer.ID {
	var out []peer.ID
	for _, m := range l.table.members[1:] {
		if m.Via == "" {
			out = append(out, m.ID)
		}
	}
	return out
}

func (l *runner) nameOf(id peer.ID) string {
	for _, m := range l.table.members {
		if m.ID == id {
			return m.Name
		}
	}
	return ""
}

// publish shows the host's table here and to every guest.
func (l *runner) publish() {
	l.roster = l.rosterNow()
	l.updateView()
	l.sendRoster()
	l.changed()
}

func (l *runner) sendRoster() {
	m := lobbyMsg{T: lobbyRoster, Lobby: l.cfg.Lobby, Players: l.rosterNow(), Free: l.table.Free(),
		Rules: l.table.Rules().String(), Ver: l.table.Version(), Pace: l.table.Pace().wire()}
	for c, k := range l.table.Bots() {
		if k != "" {
			m.Bots = append(m.Bots, botEntry{Colour: c, Kind: k})
		}
	}
	msg := encodeLobbyMsg(m)
	for _, id := range l.guests() {
		_ = l.t.Send(id, p2p.KindLobby, msg)
	}
}

func (l *runner) onJoin(from peer.ID, m lobbyMsg) {
	if !l.hosting() {
		// A member points the joiner at the host.
		if l.host != "" && l.inRoster() && len(l.roster) > 0 {
			_ = l.t.Send(from, p2p.KindLobby, l.redirect(l.roster[0]))
		}
		return
	}
	if m.Seat != "" {
		l.onJoinVia(from, m)
		return
	}
	if l.removed.has(from, time.Now()) {
		_ = l.t.Send(from, p2p.KindLobby, encodeLobbyMsg(lobbyMsg{T: lobbyFull, Lobby: l.cfg.Lobby}))
		return
	}
	// What the host relays to the table is what it would dial itself: a
	// stranger's junk goes no further than here.
	h := l.t.Host()
	addrs := addrStrings(p2p.PeerAddrs(h, from, m.Addrs, "lobby join"))
	if len(m.Addrs) == 0 {
		addrs = addrStrings(p2p.FilterPeerAddrs(h, from, p2p.Advertisable(h.Peerstore().Addrs(from)), "peerstore"))
	}
	var want []engine.Colour
	if m.Want > 0 {
		want = []engine.Colour{engine.Colour(m.Want - 1)}
	}
	colour, changed, err := l.table.Join(from, m.Name, want)
	switch {
	case err != nil:
		_ = l.t.Send(from, p2p.KindLobby, encodeLobbyMsg(lobbyMsg{T: lobbyFull, Lobby: l.cfg.Lobby}))
	case !changed:
		l.sendRoster() // a repeated join: it missed the roster
	default:
		l.log.Info("player joined the lobby", "peer", p2p.ShortID(from), "name", m.Name, "colour", colour.String())
		l.addrs[from] = addrs
		l.publish()
	}
}

// onJoinVia seats a web player of program from (m.Seat), under the name
// the person gave: the table sees the person, not the laptop. Its key is
// checked here as the Setup will (an Ed25519 peer ID); that the program
// really serves that key is proven in the game, where every message of
// the seat is signed by it.
func (l *runner) onJoinVia(from peer.ID, m lobbyMsg) {
	id, _ := peer.Decode(m.Seat) // checked by decodeLobbyMsg
	if pub, err := id.ExtractPublicKey(); err != nil || pub.Type() != pb.KeyType_Ed25519 || l.removed.has(id, time.Now()) {
		l.log.Info("web player refused", "via", p2p.ShortID(from), "seat", p2p.ShortID(id))
		return
	}
	var want []engine.Colour
	if m.Want > 0 {
		want = []engine.Colour{engine.Colour(m.Want - 1)}
	}
	colour, changed, err := l.table.JoinVia(id, from, m.Name, want)
	if err == nil {
		l.table.SetPhone(id, m.Phone)
	}
	switch {
	case err != nil:
		l.log.Info("web player refused", "via", p2p.ShortID(from), "seat", p2p.ShortID(id), "err", err)
		l.sendRoster()
	case !changed:
		l.sendRoster()
	default:
		l.log.Info("web player joined the lobby", "via", p2p.ShortID(from), "seat", p2p.ShortID(id), "name", m.Name, "colour", colour.String())
		l.publish()
	}
}

// remove takes a guest's seat back (Table.Remove decides who may be
// removed), tells it the table is gone for it, and refuses its joins for
// removedFor.
func (l *runner) remove(id peer.ID) error {
	name := l.nameOf(id)
	if err := l.table.Remove(l.self, id); err != nil {
		return fmt.Errorf("lobby: %w", err)
	}
	l.log.Info("creator removed a player", "peer", p2p.ShortID(id), "name", name)
	l.removed.add(id, time.Now())
	delete(l.addrs, id)
	_ = l.t.Send(id, p2p.KindLobby, encodeLobbyMsg(lobbyMsg{T: lobbyLeave, Lobby: l.cfg.Lobby}))
	l.publish()
	return nil
}

// redirect points a joiner at host. Only who and where the host is go in
// it: a roster's seat and readiness are the host's to say, and a redirect
// carrying them is refused as malformed.
func (l *runner) redirect(host rosterEntry) []byte {
	return encodeLobbyMsg(lobbyMsg{T: lobbyRedirect, Lobby: l.cfg.Lobby,
		Players: []rosterEntry{{ID: host.ID, Name: host.Name, Addrs: host.Addrs}}})
}

// mayStart: the host starts when the table says it may, or when
// StartNow was closed and the table takes the creator's start.
func (l *runner) mayStart() bool {
	if !l.hosting() {
		return false
	}
	if l.early && !l.table.early {
		_ = l.startNow() // not yet: it starts once they are all ready
	}
	return l.table.MayStart()
}

// startNow is the creator's start (Table.StartNow): the creator is
// ready, shown to all if it was not, and the game starts once every
// member is.
func (l *runner) startNow() error {
	was := l.table.members[0].Ready
	err := l.table.StartNow()
	if !was {
		l.publish()
	}
	return err
}

func (l *runner) start() (Result, error) {
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return Result{}, fmt.Errorf("lobby: drawing the game nonce: %w", err)
	}
	setup, err := l.table.Setup(l.cfg.Lobby, nonce)
	if err != nil {
		return Result{}, fmt.Errorf("lobby: %w", err)
	}
	roster := l.rosterNow()
	msg := encodeLobbyMsg(lobbyMsg{T: lobbyStart, Lobby: l.cfg.Lobby, Players: roster, Setup: setup.Encode(), Pace: l.table.Pace().wire(), Quiet: l.cfg.NoWatchChat})
	for _, id := range l.guests() {
		if err := l.t.Send(id, p2p.KindLobby, msg); err != nil {
			l.log.Warn("start not sent", "peer", p2p.ShortID(id), "err", err)
		}
	}
	l.log.Info("game starting", "lobby", l.cfg.Lobby, "game", setup.GameID().String())
	res := l.result(setup, roster, l.table.Pace())
	res.NoWatchChat = l.cfg.NoWatchChat
	return res, nil
}
