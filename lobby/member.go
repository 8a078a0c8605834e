package lobby

import (
	"context"
	"fmt"
	"slices"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
)

// The guest's side of the loop: joining, the host's roster and start.

// askManualPeers sends a join to every peer dialled by hand: the host
// takes it, a member redirects us to the host.
func (l *runner) askManualPeers() {
	l.joinAt = time.Now()
	for _, info := range l.cfg.Connect {
		l.sendJoin(info.ID)
	}
}

func (l *runner) sendJoin(to peer.ID) {
	msg := lobbyMsg{T: lobbyJoin, Lobby: l.cfg.Lobby, Name: l.cfg.Player, Addrs: addrStrings(p2p.Advertisable(l.t.Host().Addrs()))}
	if len(l.cfg.Prefer) > 0 && l.cfg.Prefer[0] < engine.NumColours {
		msg.Want = int(l.cfg.Prefer[0]) + 1
	}
	if !l.t.Connected(to) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := l.t.Connect(ctx, peer.AddrInfo{ID: to})
		cancel()
		if err != nil {
			l.log.Debug("cannot reach lobby peer", "peer", p2p.ShortID(to), "err", err)
			return
		}
	}
	if err := l.t.Send(to, p2p.KindLobby, encodeLobbyMsg(msg)); err != nil {
		l.log.Debug("join not sent", "peer", p2p.ShortID(to), "err", err)
	}
}

func (l *runner) join(h peer.ID) {
	l.log.Info("joining lobby", "lobby", l.cfg.Lobby, "host", p2p.ShortID(h))
	l.host, l.joinAt = h, time.Now()
	l.sendJoin(h)
}

// onRedirect follows a redirect from the peer we tried to join (it
// stopped hosting), or one of a peer we dialled by hand.
func (l *runner) onRedirect(from peer.ID, m lobbyMsg) {
	if l.hosting() || (l.host != "" && l.host != from) {
		return
	}
	h := m.Players[0]
	id, _ := peer.Decode(h.ID)
	if id == l.self || id == l.host {
		return
	}
	l.t.Host().Peerstore().AddAddrs(id, p2p.PeerAddrs(l.t.Host(), id, h.Addrs, "lobby redirect"), peerstore.RecentlyConnectedAddrTTL)
	l.roster, l.view = nil, View{}
	l.join(id)
}

func (l *runner) onRoster(from peer.ID, m lobbyMsg) {
	if from != l.host || l.hosting() {
		return
	}
	l.roster, l.free, l.ver = m.Players, m.Free, m.Ver
	l.bots = [engine.NumColours]string{}
	for _, b := range m.Bots {
		l.bots[b.Colour] = b.Kind
	}
	l.rules, _ = engine.ParseRules(m.Rules) // checked by decodeLobbyMsg
	l.pace = paceOf(m.Pace)
	l.readyAt = time.Time{}
	l.updateView()
	l.changed()
	l.meetRoster()
}

// updateView shows the table: the host's own, or the host's last roster.
func (l *runner) updateView() {
	if l.hosting() {
		l.view = View{Lobby: l.cfg.Lobby, Host: l.self, Free: l.table.Free(), Bots: l.table.Bots(), Rules: l.table.Rules(), Open: l.table.Open(), Pace: l.table.Pace()}
		for _, m := range l.table.members {
			l.view.Players = append(l.view.Players, Player(m))
		}
		return
	}
	l.view = View{Lobby: l.cfg.Lobby, Host: l.host, Free: l.free, Bots: l.bots, Rules: l.rules, Pace: l.pace}
	for _, r := range l.roster {
		id, _ := peer.Decode(r.ID)
		via, _ := peer.Decode(r.Via) // "" for a program's own seat
		l.view.Players = append(l.view.Players, Player{ID: id, Name: r.Name, Colour: engine.Colour(r.Colour), Ready: r.Ready, Via: via, Phone: r.Phone && via != ""})
	}
	var open []engine.Colour
	for _, c := range handOutOrder(len(l.roster) + l.free + countBots(l.bots)) {
		if l.holder(c) == "" {
			open = append(open, c)
		}
	}
	l.view.Open = open[:min(l.free, len(open))]
}

// holder names who holds colour c in the roster the host sent.
func (l *runner) holder(c engine.Colour) string {
	if l.bots[c] != "" {
		return "a bot (" + l.bots[c] + ")"
	}
	for _, r := range l.roster {
		if r.Colour == int(c) {
			return r.Name
		}
	}
	return ""
}

// autoReady says ready by itself for a player without ManualReady, each
// time the table changed (a lost ready is said again after a second).
func (l *runner) autoReady() {
	if l.cfg.ManualReady || l.hosting() || l.host == "" {
		return
	}
	i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.ID == l.self.String() })
	if i < 0 || l.roster[i].Ready || time.Since(l.readyAt) < time.Second {
		return
	}
	l.readyAt = time.Now()
	_ = l.sendHost(lobbyMsg{T: lobbyReady, Lobby: l.cfg.Lobby, Ready: true, Ver: l.ver})
}

// learnManualHost adopts as our host a peer dialled by hand that answers
// our join as the lobby's host: without mDNS we never saw its advert, so
// join was never called, yet its roster, start or "full" is the answer to
// the join askManualPeers sent it. Only the host sends those, and it
// lists itself first in a roster or start.
func (l *runner) learnManualHost(from peer.ID, m lobbyMsg) {
	if l.hosting() || l.host != "" || l.joinAt.IsZero() ||
		!slices.ContainsFunc(l.cfg.Connect, func(i peer.AddrInfo) bool { return i.ID == from }) {
		return
	}
	switch m.T {
	case lobbyRoster, lobbyStart:
		if len(m.Players) == 0 || m.Players[0].ID != from.String() {
			return
		}
	case lobbyFull:
	default:
		return
	}
	l.log.Info("a peer dialled by hand hosts the lobby", "lobby", l.cfg.Lobby, "host", p2p.ShortID(from))
	l.host = from
}

// meetRoster connects to the lobby's other players in the background, so
// lobby chat reaches all of them and the game starts on a full mesh.
func (l *runner) meetRoster() {
	for _, r := range l.roster {
		id, err := peer.Decode(r.ID)
		if err != nil || id == l.self || r.Via != "" || l.t.Connected(id) {
			continue
		}
		info := peer.AddrInfo{ID: id, Addrs: p2p.PeerAddrs(l.t.Host(), id, r.Addrs, "lobby roster")}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = l.t.Connect(ctx, info)
		}()
	}
}

func (l *runner) started(m lobbyMsg) (Result, bool, error) {
	setup, err := lockstep.DecodeSetup(m.Setup)
	if err == nil {
		err = setup.Validate()
	}
	if err != nil {
		l.t.Strike(l.host, "bad setup: "+err.Error())
		return Result{}, false, nil
	}
	players := setup.Players()
	if setup.Name != l.cfg.Lobby || !slices.Contains(players, l.self) || !slices.Contains(players, l.host) {
		l.log.Warn("ignoring a start that does not seat us or its host", "host", p2p.ShortID(l.host))
		return Result{}, false, nil
	}
	l.log.Info("game starting", "lobby", l.cfg.Lobby, "game", setup.GameID().String())
	res := l.result(setup, m.Players, paceOf(m.Pace))
	res.NoWatchChat = m.Quiet
	return res, true, nil
}

// result admits exactly the game's players to the transport and gives it
// their addresses, so every pair connects (the transport re-dials members).
func (l *runner) result(setup lockstep.Setup, roster []rosterEntry, pace Pace) Result {
	names := map[peer.ID]string{}
	var hosts map[peer.ID]peer.ID
	phones := map[peer.ID]bool{}
	for _, r := range roster {
		id, err := peer.Decode(r.ID)
		if err != nil {
			continue
		}
		names[id] = r.Name
		if via, err := peer.Decode(r.Via); err == nil && slices.Contains(setup.Players(), id) {
			if hosts == nil {
				hosts = map[peer.ID]peer.ID{}
			}
			hosts[id] = via
			if r.Phone {
				phones[id] = true
			}
			continue
		}
		if id != l.self {
			l.t.Host().Peerstore().AddAddrs(id, p2p.PeerAddrs(l.t.Host(), id, r.Addrs, "lobby start"), peerstore.PermanentAddrTTL)
		}
	}
	// The transport's members are the programs: a hosted seat is
	// reached through its program, never dialled.
	var programs []peer.ID
	for _, id := range setup.Players() {
		if _, hosted := hosts[id]; !hosted {
			programs = append(programs, id)
		}
	}
	l.t.SetMembers(programs)
	// Frames that arrived early from now-members are the game's.
	var pending []p2p.Inbound
	for _, in := range l.pending {
		if slices.Contains(programs, in.From) {
			pending = append(pending, in)
		}
	}
	if l.d != nil {
		_ = l.d.Update(p2p.Advert{Name: l.cfg.Player, Lobby: l.cfg.Lobby})
	}
	return Result{Setup: setup, Names: names, Pending: pending, Pace: pace, SeatHosts: hosts, Phones: phones}
}

func (l *runner) sendHost(m lobbyMsg) error {
	if err := l.t.Send(l.host, p2p.KindLobby, encodeLobbyMsg(m)); err != nil {
		return fmt.Errorf("lobby: %w: %w", ErrUnreachable, err)
	}
	return nil
}
