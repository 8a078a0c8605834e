package netsession

import (
	"reflect"
	"sort"
	"time"

	"aeroplane/engine"
	"aeroplane/p2p"
	"aeroplane/ui"
	"github.com/libp2p/go-libp2p/core/peer"
)

// watchLobby turns discovery's changes (and, every second, manual
// connections) into LobbyUpdates.
func (s *NetSession) watchLobby() {
	defer s.wg.Done()
	var changes <-chan struct{}
	if s.d != nil {
		changes = s.d.Changes()
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-changes:
		case <-tick.C:
		}
		s.emitLobby()
	}
}

// emitLobby sends the lobby as it is now, if it changed.
func (s *NetSession) emitLobby() {
	var ads []p2p.Advert
	if s.d != nil {
		ads = s.d.Peers()
	}
	addrs := p2p.DialableAddrs(s.h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	u := ui.LobbyUpdate{Me: ui.Peer{ID: s.self.String(), Name: s.name}}
	if len(addrs) > 0 {
		u.Me.Addr = addrs[0]
	}
	seen := map[peer.ID]bool{}
	members := map[string]int{}
	for _, ad := range ads {
		if ad.Lobby != "" {
			members[ad.Lobby]++
		}
	}
	for _, ad := range ads {
		if ad.ID == s.self {
			continue
		}
		s.names[ad.ID] = ad.Name
		p := ui.Peer{ID: ad.ID.String(), Name: ad.Name}
		if len(ad.Addrs) > 0 {
			p.Addr = ad.Addrs[0].String() + "/p2p/" + ad.ID.String()
		}
		seen[ad.ID] = true
		u.Players = append(u.Players, p)
		if ad.Host && ad.Lobby != "" && ad.Free > 0 {
			// Adverts carry neither the rules nor the bot seats: Taken
			// counts the players who advertise the lobby, and the rules
			// show once the game starts.
			u.Games = append(u.Games, ui.Game{ID: ad.Lobby, Host: p, Taken: members[ad.Lobby], Rules: engine.DefaultRules()})
		}
	}
	for _, info := range s.manual {
		if seen[info.ID] || info.ID == s.self || !s.t.Connected(info.ID) {
			continue
		}
		p := ui.Peer{ID: info.ID.String(), Name: s.names[info.ID]}
		if p.Name == "" {
			p.Name = shortID(info.ID)
		}
		if len(info.Addrs) > 0 {
			p.Addr = info.Addrs[0].String() + "/p2p/" + info.ID.String()
		}
		seen[info.ID] = true
		u.Players = append(u.Players, p)
	}
	sort.Slice(u.Games, func(i, j int) bool { return u.Games[i].ID < u.Games[j].ID })
	if s.lastLobby != nil && reflect.DeepEqual(*s.lastLobby, u) {
		return
	}
	s.lastLobby = &u
	s.q.push(u)
}
