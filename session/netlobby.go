package session

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// lobbyEvery gathers discovery's changes into one lobby view: a flood of
// adverts costs one view (and one redraw) per lobbyEvery, not one each.
const lobbyEvery = 200 * time.Millisecond

// maxNames bounds the names of players met in lobbies; past it they are
// forgotten (self kept), and a game's players are told by its start.
const maxNames = 1024

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
	var due <-chan time.Time
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-changes:
			if due == nil {
				due = time.After(lobbyEvery)
			}
			continue
		case <-due:
			due = nil
		case <-tick.C:
			s.askPeers()
		}
		s.emitLobby()
	}
}

// nameOf is a peer's name as far as this player knows it (s.mu held).
func (s *NetSession) nameOf(id peer.ID) string {
	if n := s.names[id]; n != "" {
		return n
	}
	return s.heard[id]
}

// askPeers asks every connected peer that no advert covers (reached by
// address, ours or theirs) which game it creates: mDNS lists the others.
// A peer that dialled us to offer its game is remembered like one we
// dialled, so joining it asks it directly, and the player is told.
func (s *NetSession) askPeers() {
	s.mu.Lock()
	idle := s.mode == modeIdle && !s.closed
	s.mu.Unlock()
	if !idle {
		return
	}
	advertised := map[peer.ID]bool{s.self: true}
	if s.d != nil {
		for _, ad := range s.d.Peers() {
			advertised[ad.ID] = true
		}
	}
	s.proveAdverts()
	running := s.askRunning()
	found := map[peer.ID]lobby.Info{}
	for _, id := range s.h.Network().Peers() {
		if advertised[id] {
			continue
		}
		if info, err := lobby.Query(s.ctx, s.h, id); err == nil && info.Free > 0 {
			found[id] = info
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, info := range found {
		if info.Name != "" {
			s.heard[id] = info.Name
		}
		if slices.ContainsFunc(s.manual, func(a peer.AddrInfo) bool { return a.ID == id }) {
			continue
		}
		s.manual = append(s.manual, peer.AddrInfo{ID: id, Addrs: s.h.Peerstore().Addrs(id)})
		s.log.Info("a peer that connected to us offers its game", "peer", id, "lobby", info.Lobby)
		s.q.push(ui.Notice{Msg: ui.M("note.offer", info.Name, info.Lobby)})
	}
	s.peerGames = found
	s.running = running
}

// maxRunningAsked bounds the peers asked each second which game they
// play, so a LAN full of adverts costs a few questions, not one each.
const maxRunningAsked = 8

// askRunning asks the peers whose adverts name a lobby with no seat free
// (a game in play, or a full table) which game they play, one per lobby: the lobby's list
// of running games, to watch. A host's word is a hint; a watcher
// verifies the game itself.
func (s *NetSession) askRunning() map[string]lobby.Running {
	out := map[string]lobby.Running{}
	if s.d == nil {
		return out
	}
	asked := 0
	for _, ad := range s.d.Peers() {
		if ad.Lobby == "" || ad.Free != 0 || ad.ID == s.self || asked == maxRunningAsked {
			continue
		}
		if _, ok := out[ad.Lobby]; ok {
			continue
		}
		asked++
		ctx, cancel := context.WithTimeout(s.ctx, time.Second)
		s.reach(ctx, ad.ID)
		r, err := lobby.QueryRunning(ctx, s.h, ad.ID)
		cancel()
		if err == nil && r.Lobby == ad.Lobby {
			out[r.Lobby] = r
		}
	}
	return out
}

// Proving adverts: each second at most proveAtOnce unverified hosts of the
// list are dialled, each at most once per proveEvery, so a flood of ghost
// adverts costs a few failed dials a second, and a real host's line loses
// its "unverified" mark within about a second.
const (
	proveAtOnce = 4
	proveEvery  = 10 * time.Second
	proveKept   = 256 // dial times remembered; past it they are forgotten
)

// proveAdverts dials unverified hosts of the list: a Noise handshake with
// the advert's peer ID is what proves it (lobby.Listing).
func (s *NetSession) proveAdverts() {
	if s.d == nil {
		return
	}
	now := time.Now()
	list := lobby.Listing(s.d.Peers(), s.d.Proven)
	s.mu.Lock()
	if len(s.proveTried) > proveKept {
		clear(s.proveTried)
	}
	ids := lobby.ToProve(list, proveAtOnce, func(id peer.ID) bool { return now.Sub(s.proveTried[id]) < proveEvery })
	for _, id := range ids {
		s.proveTried[id] = now
	}
	s.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	// On a goroutine of its own: a ghost's dial may take its whole timeout,
	// and the lobby's views must not wait for it.
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
				defer cancel()
				// The advert's addresses are in the peerstore, filtered.
				if err := s.h.Connect(ctx, peer.AddrInfo{ID: id}); err != nil {
					s.log.Debug("an advert's host could not be proven", "peer", p2p.ShortID(id), "err", err)
				}
			}()
		}
		wg.Wait()
		s.emitLobby()
	}()
}

// emitLobby sends the lobby as it is now, if it changed.
func (s *NetSession) emitLobby() {
	var ads []p2p.Advert
	proven := map[peer.ID]bool{}
	if s.d != nil {
		ads = s.d.Peers()
		for _, ad := range ads {
			proven[ad.ID] = s.d.Proven(ad.ID)
		}
	}
	games := map[peer.ID]lobby.Listed{}
	for _, l := range lobby.Listing(ads, func(id peer.ID) bool { return proven[id] }) {
		games[l.Host.ID] = l
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
	heard := map[peer.ID]string{}
	for id := range s.peerGames {
		heard[id] = s.heard[id]
	}
	for _, info := range s.manual {
		if n := s.heard[info.ID]; n != "" {
			heard[info.ID] = n
		}
	}
	for _, ad := range ads {
		if ad.ID == s.self {
			continue
		}
		heard[ad.ID] = ad.Name
		p := ui.Peer{ID: ad.ID.String(), Name: ad.Name, Unverified: !proven[ad.ID]}
		if len(ad.Addrs) > 0 {
			p.Addr = ad.Addrs[0].String() + "/p2p/" + ad.ID.String()
		}
		seen[ad.ID] = true
		u.Players = append(u.Players, p)
		if l, ok := games[ad.ID]; ok {
			u.Games = append(u.Games, ui.Game{ID: ad.Lobby, Host: p, Taken: ad.Taken, Seats: ad.Taken + ad.Free, Rules: l.Rules})
		}
	}
	for _, info := range s.manual {
		if seen[info.ID] || info.ID == s.self || !s.t.Connected(info.ID) {
			continue
		}
		p := ui.Peer{ID: info.ID.String(), Name: s.nameOf(info.ID)}
		if p.Name == "" {
			p.Name = shortID(info.ID)
		}
		if len(info.Addrs) > 0 {
			p.Addr = info.Addrs[0].String() + "/p2p/" + info.ID.String()
		}
		seen[info.ID] = true
		u.Players = append(u.Players, p)
	}
	for id, info := range s.peerGames {
		if slices.ContainsFunc(u.Games, func(g ui.Game) bool { return g.ID == info.Lobby }) {
			continue
		}
		host := ui.Peer{ID: id.String(), Name: info.Name}
		if i := slices.IndexFunc(u.Players, func(p ui.Peer) bool { return p.ID == id.String() }); i >= 0 {
			host = u.Players[i]
		}
		g := ui.Game{ID: info.Lobby, Host: host, Taken: info.Taken, Seats: info.Taken + info.Free, Rules: info.Rules}
		if info.Taken == 0 {
			// An older creator tells only its open seats: count the
			// rest of the four as taken.
			g.Taken, g.Seats = engine.NumColours-info.Free, 0
		}
		u.Games = append(u.Games, g)
	}
	sort.Slice(u.Games, func(i, j int) bool { return u.Games[i].ID < u.Games[j].ID })
	for _, r := range s.running {
		g := ui.RunningGame{Lobby: r.Lobby, Roll: r.Roll, Leader: r.Leader, Watchers: r.Watchers, Free: len(r.Bots)}
		for _, p := range r.Players {
			g.Players = append(g.Players, p.Name)
		}
		u.Running = append(u.Running, g)
	}
	sort.Slice(u.Running, func(i, j int) bool { return u.Running[i].Lobby < u.Running[j].Lobby })
	u.Continue = s.continuable(ads)
	s.heard = heard
	if s.lastLobby != nil && reflect.DeepEqual(*s.lastLobby, u) {
		return
	}
	s.lastLobby = &u
	s.q.push(u)
}

// showLobby shows the creator's table as the lobby last said: each
// player at its colour with its ready flag, the bots, the open seats, and
// the free colours nobody will sit at unless a player moves there. It
// follows onLobbyView, whose layout predates colour choice, so this table
// is the one the interface keeps.
func (s *NetSession) showLobby(p lobbyPlan, v lobby.View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.gen != s.gen || s.closed {
		return // a lobby already left
	}
	switch hv := s.hostView; {
	case p.hosting || v.Host == s.self:
		s.hostView = &v // Enter may have created the table
	case hv != nil && hv.Lobby == v.Lobby:
		s.hostView = nil // another's table now: its rematch is theirs to open
	}
	if len(s.names) > maxNames {
		clear(s.names)
		s.names[s.self] = s.name
	}
	for _, pl := range v.Players {
		if pl.ID != s.self {
			s.names[pl.ID] = pl.Name
		}
	}
	s.q.push(s.lobbyTable(v, p.hosting))
	s.showWebs(v)
	s.seatPeople(p, v)
}

// lobbyTable turns a lobby view into the interface's table (s.mu held).
func (s *NetSession) lobbyTable(v lobby.View, hosting bool) ui.TableUpdate {
	t := lobbyTable(v, s.self, hosting)
	t.SetupBot = hosting && s.setupBot
	s.markOurs(&t)
	return t
}

// lobbyTable turns a lobby view into the interface's table.
func lobbyTable(v lobby.View, self peer.ID, hosting bool) ui.TableUpdate {
	t := ui.TableUpdate{GameID: v.Lobby, Host: hosting, Rules: v.Rules, BotPace: v.Pace.Delay, BotPaceSet: v.Pace.Set}
	for c := range t.Seats {
		t.Seats[c] = ui.Seat{Kind: ui.SeatUnused}
	}
	for _, c := range v.Open {
		t.Seats[c] = ui.Seat{Kind: ui.SeatOpen}
	}
	for c, k := range v.Bots {
		if k != "" {
			t.Seats[c] = ui.Seat{Kind: ui.SeatBot, Name: k, Present: true, Ready: true}
		}
	}
	for _, pl := range v.Players {
		if pl.Colour < engine.NumColours {
			t.Seats[pl.Colour] = ui.Seat{Kind: ui.SeatHuman, Name: pl.Name, PeerID: pl.ID.String(),
				You: pl.ID == self, Present: true, Ready: pl.Ready, Web: pl.Phone}
		}
	}
	return t
}
