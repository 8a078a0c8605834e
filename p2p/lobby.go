package p2p

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
)

// LobbyConfig says which game to join or create.
type LobbyConfig struct {
	Player string // this player's name (CleanName applied)
	Lobby  string // the game's name (CleanName applied)
	// For the creator: Players peers (default 2) and Bots bot seats
	// (default 0), Players+Bots <= 4; the game starts when Players peers
	// are in. BotKind flies the bot seats (default lockstep.DefaultBot).
	Players int
	Bots    int
	BotKind string
	// BotKinds, if set, names the kind of each bot seat in turn (at most
	// Bots of them); BotKind flies the rest. The bots sit at the end of
	// the layout of Players+Bots seats (two seats sit opposite).
	BotKinds []string
	// BotSeats, if any entry is set, seats the creator's bots by colour
	// instead (the kind at each colour, "" for none); Bots and BotKinds
	// are then ignored.
	BotSeats [engine.NumColours]string
	// ManualReady makes this player say it is ready with
	// Control.SetReady (or Control.Start, for the creator). Without it the
	// player is ready at once, and again after every change of the table.
	// The creator's game starts when every seat is taken and every player
	// is ready.
	ManualReady bool
	// Control, if set, changes the lobby while it runs (colour, ready,
	// bot seats, rules, start).
	Control *LobbyControl
	// Prefer lists colours this player would like, best first (a rematch
	// asks for the one it had): the creator sits at the first of them
	// that is free, and a joiner asks for the first one, which it gets if
	// free when its join arrives. Otherwise the next free colour is given.
	Prefer []engine.Colour
	// Create creates the lobby at once, without looking for it first
	// (its name is known to be new).
	Create bool
	// StartNow, when it is closed, makes the creator start with the
	// players already in (or as soon as two seats, players or bots, are
	// filled) once they are all ready: the seats still open are left out.
	// Joiners ignore it.
	StartNow <-chan struct{}
	Rules    engine.Rules
	// Connect lists peers dialled by hand (multicast blocked): they are
	// asked for the lobby as well as the mDNS adverts. Their addresses are
	// what the user typed (ResolveAddr), dialled whatever they are: the
	// user vouches for them (Transport.ConnectByHand).
	Connect []peer.AddrInfo
	// FindFor is how long to look for the lobby before creating it
	// (default 2 s).
	FindFor time.Duration
	// OnChange, if set, is called with the lobby as it changes; OnChat
	// with chat lines received in the lobby.
	OnChange func(LobbyView)
	OnChat   func(ChatLine)
	Logger   *slog.Logger
}

// LobbyView is what a lobby screen shows: the table as the creator's lobby
// last said.
type LobbyView struct {
	Lobby   string
	Host    peer.ID       // the creator; it starts the game
	Players []LobbyPlayer // the creator first, then in joining order
	Free    int           // player seats still open
	// Bots is the bot kind at each colour ("" for none); Open the free
	// colours a new player would get, Free of them in the order they are
	// given (the others are out of the game unless a player moves there).
	Bots  [engine.NumColours]string
	Open  []engine.Colour
	Rules engine.Rules
}

// LobbyPlayer is one player in a lobby.
type LobbyPlayer struct {
	ID     peer.ID
	Name   string
	Colour engine.Colour
	Ready  bool
}

// LobbyResult is what the lobby hands to the session.
type LobbyResult struct {
	Setup   lockstep.Setup
	Names   map[peer.ID]string
	Pending []Inbound // game frames that arrived before the lobby ended
}

// Errors of RunLobby.
var ErrLobbyFull = errors.New("the lobby is full")

// RunLobby joins cfg.Lobby if a peer hosts it, or creates it, and returns
// when the game starts. The creator builds the lockstep Setup (seats in
// joining order, then bots; rules; a fresh nonce) and sends it to the
// others; lockstep's setup phase then makes every player confirm it. It
// owns t's inbox until it returns; d and chat may be nil.
func RunLobby(ctx context.Context, t *Transport, d *Discovery, chat *Chat, cfg LobbyConfig) (LobbyResult, error) {
	cfg.Player, cfg.Lobby = CleanName(cfg.Player), CleanName(cfg.Lobby)
	if cfg.Lobby == "" {
		return LobbyResult{}, errors.New("p2p: a lobby needs a name")
	}
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.BotKind == "" {
		cfg.BotKind = lockstep.DefaultBot
	}
	if n := countBots(cfg.BotSeats); n > 0 {
		cfg.Bots, cfg.BotKinds = n, nil
		for _, k := range cfg.BotSeats {
			if k != "" && !validBotKind(k) {
				_, err := engine.NewBot(k)
				return LobbyResult{}, fmt.Errorf("p2p: bot seats: %w", err)
			}
		}
	}
	if cfg.Players < 1 || cfg.Bots < 0 || cfg.Players+cfg.Bots < 2 || cfg.Players+cfg.Bots > engine.NumColours {
		return LobbyResult{}, fmt.Errorf("p2p: %d players and %d bots: want 2 to 4 seats in all, at least one player", cfg.Players, cfg.Bots)
	}
	if _, err := engine.NewBot(cfg.BotKind); err != nil && cfg.Bots > len(cfg.BotKinds) {
		return LobbyResult{}, fmt.Errorf("p2p: bot seats: %w", err)
	}
	if len(cfg.BotKinds) > cfg.Bots {
		return LobbyResult{}, fmt.Errorf("p2p: %d bot kinds for %d bot seats", len(cfg.BotKinds), cfg.Bots)
	}
	for _, k := range cfg.BotKinds {
		if _, err := engine.NewBot(k); err != nil {
			return LobbyResult{}, fmt.Errorf("p2p: bot seats: %w", err)
		}
	}
	if cfg.FindFor <= 0 {
		cfg.FindFor = 2 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	var ctl <-chan lobbyCmd
	if c := cfg.Control; c != nil {
		if !c.used.CompareAndSwap(false, true) {
			return LobbyResult{}, errors.New("p2p: a LobbyControl serves one lobby: make a new one")
		}
		defer c.close()
		ctl = c.cmds
	}
	l := &lobby{t: t, d: d, chat: chat, cfg: cfg, self: t.Host().ID(), log: t.peerLog(cfg.Logger), ctl: ctl}
	defer serveInfo(t.Host(), &l.info)()
	return l.run(ctx)
}

type lobby struct {
	t    *Transport
	d    *Discovery
	chat *Chat
	cfg  LobbyConfig
	self peer.ID
	log  *slog.Logger

	ctl  <-chan lobbyCmd
	info atomic.Pointer[lobbyMsg] // what QueryLobby is told

	hosting bool
	early   bool          // StartNow closed: start with whoever is in
	host    peer.ID       // the host we joined (when not hosting)
	joinAt  time.Time     // when we last asked host to let us in
	roster  []rosterEntry // who is in, host first (the host's word)
	view    LobbyView
	pending []Inbound
	churn   churn // joins and leaves per peer (lobbychurn.go)

	// The table, decided by the host; a member keeps the last roster's.
	capacity int // host: player seats (taken or open)
	free     int // member: player seats still open
	bots     [engine.NumColours]string
	rules    engine.Rules
	ver      uint32    // bumps on every change of seats or rules
	readyAt  time.Time // member: when it last said ready by itself
}

func (l *lobby) run(ctx context.Context) (LobbyResult, error) {
	t := l.t
	t.SetMembers(nil)
	for _, info := range l.cfg.Connect {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := t.ConnectByHand(cctx, info)
		cancel()
		if err != nil {
			l.log.Warn("manual connect failed", "peer", short(info.ID), "err", err)
		}
	}
	searchUntil := time.Now().Add(l.cfg.FindFor)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var changes <-chan struct{}
	if l.d != nil {
		changes = l.d.Changes()
	}
	l.advertise()
	startNow := l.cfg.StartNow
	if l.cfg.Create {
		searchUntil = time.Time{}
	}
	for {
		// Decide what to do next from what we know.
		switch {
		case l.hosting:
			l.yieldToSmallerHost()
		case l.host == "":
			if h := l.findHost(); h != "" {
				l.join(h)
			} else if time.Now().After(searchUntil) {
				l.create()
			} else if time.Since(l.joinAt) > time.Second {
				l.askManualPeers()
			}
		case time.Since(l.joinAt) > 2*time.Second && !l.inRoster():
			if l.hostVanished() {
				l.log.Info("the lobby's host is gone; looking again", "host", short(l.host))
				l.host = ""
				searchUntil = time.Now().Add(l.cfg.FindFor)
			} else {
				l.join(l.host) // our join may have been lost: ask again
			}
		}
		select {
		case <-ctx.Done():
			l.leave()
			return LobbyResult{}, ctx.Err()
		case <-tick.C:
		case <-changes:
		case <-startNow:
			// Closed: once is enough. Still looking for the lobby, we
			// start as soon as we create it.
			startNow, l.early = nil, true
		case ev := <-t.Events():
			l.peerEvent(ev)
		case in := <-t.Inbox():
			res, done, err := l.frame(in)
			if err != nil || done {
				return res, err
			}
		case cmd := <-l.ctl:
			cmd.reply <- cmd.f(l)
		}
		l.info.Store(l.infoMsg())
		l.autoReady()
		if l.mayStart() {
			if open := l.capacity - len(l.roster); open > 0 {
				l.log.Info("starting early", "players", len(l.roster), "open", open)
			}
			return l.start()
		}
	}
}

// hostVanished reports that the host we try to join is neither connected
// nor advertised any more (manual peers are never given up on).
func (l *lobby) hostVanished() bool {
	if l.d == nil || l.t.Connected(l.host) || slices.ContainsFunc(l.cfg.Connect, func(i peer.AddrInfo) bool { return i.ID == l.host }) {
		return false
	}
	return !slices.ContainsFunc(l.d.Peers(), func(a Advert) bool { return a.ID == l.host })
}

func (l *lobby) inRoster() bool {
	return slices.ContainsFunc(l.view.Players, func(p LobbyPlayer) bool { return p.ID == l.self })
}

func (l *lobby) advertise() {
	l.info.Store(l.infoMsg())
	if l.d == nil {
		return
	}
	ad := Advert{Name: l.cfg.Player}
	switch {
	case l.hosting:
		ad.Lobby, ad.Host, ad.Free = l.cfg.Lobby, true, l.capacity-len(l.roster)
		ad.Taken, ad.Rules = len(l.roster)+countBots(l.bots), l.rules.String()
	case l.host != "" && l.inRoster():
		ad.Lobby, ad.Free = l.cfg.Lobby, l.view.Free
	}
	if err := l.d.Update(ad); err != nil {
		l.log.Warn("advert update failed", "err", err)
	}
}

func (l *lobby) changed() {
	l.advertise()
	if l.cfg.OnChange != nil {
		l.cfg.OnChange(l.view)
	}
	if l.cfg.Control != nil && l.cfg.Control.onChange != nil {
		l.cfg.Control.onChange(l.view)
	}
}

// findHost looks for a host of our lobby with a free seat in the adverts.
func (l *lobby) findHost() peer.ID {
	if l.d == nil {
		return ""
	}
	for _, ad := range l.d.Peers() {
		if ad.Host && ad.Lobby == l.cfg.Lobby && ad.Free > 0 {
			return ad.ID
		}
	}
	return ""
}

// askManualPeers sends a join to every peer dialled by hand: the host
// takes it, a member redirects us to the host.
func (l *lobby) askManualPeers() {
	l.joinAt = time.Now()
	for _, info := range l.cfg.Connect {
		l.sendJoin(info.ID)
	}
}

func (l *lobby) sendJoin(to peer.ID) {
	msg := lobbyMsg{T: lobbyJoin, Lobby: l.cfg.Lobby, Name: l.cfg.Player, Addrs: addrStrings(advertisable(l.t.Host().Addrs()))}
	if len(l.cfg.Prefer) > 0 && l.cfg.Prefer[0] < engine.NumColours {
		msg.Want = int(l.cfg.Prefer[0]) + 1
	}
	if !l.t.Connected(to) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := l.t.Connect(ctx, peer.AddrInfo{ID: to})
		cancel()
		if err != nil {
			l.log.Debug("cannot reach lobby peer", "peer", short(to), "err", err)
			return
		}
	}
	if err := l.t.Send(to, KindLobby, encodeLobbyMsg(msg)); err != nil {
		l.log.Debug("join not sent", "peer", short(to), "err", err)
	}
}

func (l *lobby) join(h peer.ID) {
	l.log.Info("joining lobby", "lobby", l.cfg.Lobby, "host", short(h))
	l.host, l.joinAt = h, time.Now()
	l.sendJoin(h)
}

func (l *lobby) create() {
	l.log.Info("creating lobby", "lobby", l.cfg.Lobby, "players", l.cfg.Players, "bots", l.cfg.Bots)
	l.hosting, l.host = true, l.self
	l.capacity, l.bots, l.rules = l.cfg.Players, placeBots(l.cfg), l.cfg.Rules
	l.roster = nil // an old table (this peer yielded a lobby before) holds no seat
	colour := l.seatFor(l.cfg.Prefer)
	l.roster = []rosterEntry{{ID: l.self.String(), Name: l.cfg.Player, Addrs: addrStrings(advertisable(l.t.Host().Addrs())),
		Colour: int(colour), Ready: !l.cfg.ManualReady}}
	l.updateView()
	l.changed()
}

// yieldToSmallerHost settles two peers creating the same lobby at once:
// the host with the larger ID hands over to the other if its players fit
// there, and redirects its joiners to it, so one lobby remains.
func (l *lobby) yieldToSmallerHost() {
	if l.d == nil {
		return
	}
	for _, ad := range l.d.Peers() {
		if !ad.Host || ad.Lobby != l.cfg.Lobby || ad.ID >= l.self || ad.Free < len(l.roster) {
			continue
		}
		l.yieldTo(ad)
		return
	}
}

// yieldTo hands our lobby over to ad's host: our joiners are redirected
// there and we join it ourselves. Our own table is gone with it, view and
// advert included: a view still seating us would read as "in the roster",
// and we would never ask again if our join crossed the new host's own
// hand-over (a four-peer LAN test stalled on exactly that).
func (l *lobby) yieldTo(ad Advert) {
	l.log.Info("another peer hosts the same lobby; moving there", "host", short(ad.ID), "players", len(l.roster))
	redirect := l.redirect(rosterEntry{ID: ad.ID.String(), Name: ad.Name, Addrs: addrStrings(ad.Addrs)})
	for _, r := range l.roster[1:] {
		id, _ := peer.Decode(r.ID)
		_ = l.t.Send(id, KindLobby, redirect)
	}
	l.hosting, l.roster, l.view = false, nil, LobbyView{}
	l.join(ad.ID)
	l.advertise() // no longer a host
}

// redirect points a joiner at host. Only who and where the host is go in
// it: a roster's seat and readiness are the host's to say, and a redirect
// carrying them is refused as malformed (a member once forwarded the
// host's roster entry, ready flag and all, and the joiner never got in).
func (l *lobby) redirect(host rosterEntry) []byte {
	return encodeLobbyMsg(lobbyMsg{T: lobbyRedirect, Lobby: l.cfg.Lobby,
		Players: []rosterEntry{{ID: host.ID, Name: host.Name, Addrs: host.Addrs}}})
}

func (l *lobby) updateView() {
	if l.hosting {
		l.free = l.capacity - len(l.roster)
	}
	l.view = LobbyView{Lobby: l.cfg.Lobby, Host: l.host, Free: l.free, Bots: l.bots, Rules: l.rules}
	for _, r := range l.roster {
		id, _ := peer.Decode(r.ID)
		l.view.Players = append(l.view.Players, LobbyPlayer{ID: id, Name: r.Name, Colour: engine.Colour(r.Colour), Ready: r.Ready})
	}
	open := freeColours(l.roster, l.bots, len(l.roster)+l.free+countBots(l.bots))
	l.view.Open = open[:min(l.free, len(open))]
}

// autoReady says ready by itself for a player without ManualReady, each
// time the table changed (a lost ready is said again after a second).
func (l *lobby) autoReady() {
	if l.cfg.ManualReady || l.hosting || l.host == "" {
		return
	}
	i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.ID == l.self.String() })
	if i < 0 || l.roster[i].Ready || time.Since(l.readyAt) < time.Second {
		return
	}
	l.readyAt = time.Now()
	_ = l.sendHost(lobbyMsg{T: lobbyReady, Lobby: l.cfg.Lobby, Ready: true, Ver: l.ver})
}

func (l *lobby) peerEvent(ev PeerEvent) {
	if ev.Up {
		return
	}
	switch {
	case l.hosting:
		i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.ID == ev.Peer.String() })
		if i > 0 {
			l.log.Info("player left the lobby", "peer", short(ev.Peer), "name", l.roster[i].Name)
			l.roster = slices.Delete(l.roster, i, i+1)
			l.tableChanged()
		}
	case ev.Peer == l.host:
		l.log.Info("lobby host left; looking again", "host", short(ev.Peer))
		l.host, l.view = "", LobbyView{}
		l.changed()
	}
}

// leave tells the others that this player left the lobby while staying
// connected (it joins or creates another game): the host frees its seat;
// a host's members look for the lobby again.
func (l *lobby) leave() {
	msg := encodeLobbyMsg(lobbyMsg{T: lobbyLeave, Lobby: l.cfg.Lobby})
	switch {
	case l.hosting:
		for _, r := range l.roster[1:] {
			id, _ := peer.Decode(r.ID)
			_ = l.t.Send(id, KindLobby, msg)
		}
	case l.host != "" && l.inRoster():
		_ = l.t.Send(l.host, KindLobby, msg)
	}
}

func (l *lobby) sendRoster() {
	m := lobbyMsg{T: lobbyRoster, Lobby: l.cfg.Lobby, Players: l.roster, Free: l.capacity - len(l.roster),
		Rules: l.rules.String(), Ver: l.ver}
	for c, k := range l.bots {
		if k != "" {
			m.Bots = append(m.Bots, botEntry{Colour: c, Kind: k})
		}
	}
	msg := encodeLobbyMsg(m)
	for _, r := range l.roster[1:] {
		id, _ := peer.Decode(r.ID)
		_ = l.t.Send(id, KindLobby, msg)
	}
}

// frame handles one inbound frame; done means the game starts.
func (l *lobby) frame(in Inbound) (LobbyResult, bool, error) {
	switch in.Kind {
	case KindGame:
		if len(l.pending) < 256 {
			l.pending = append(l.pending, in)
		}
		return LobbyResult{}, false, nil
	case KindChat:
		if l.chat != nil {
			if line, err := l.chat.Receive(in); err == nil && l.cfg.OnChat != nil {
				l.cfg.OnChat(line)
			}
		}
		return LobbyResult{}, false, nil
	case KindLobby:
	default:
		return LobbyResult{}, false, nil
	}
	m, err := decodeLobbyMsg(in.Data)
	if err != nil {
		l.t.strike(in.From, err.Error())
		return LobbyResult{}, false, nil
	}
	if m.Lobby != l.cfg.Lobby {
		return LobbyResult{}, false, nil // another game's traffic
	}
	if (m.T == lobbyJoin || m.T == lobbyLeave) && !l.churn.allow(in.From, time.Now()) {
		l.t.strike(in.From, "lobby joins and leaves too fast")
		return LobbyResult{}, false, nil
	}
	l.learnManualHost(in.From, m)
	switch m.T {
	case lobbyJoin:
		l.onJoin(in.From, m)
	case lobbyRedirect:
		// From the peer we tried to join (it stopped hosting), or while we
		// look for the lobby by hand.
		if !l.hosting && (l.host == "" || l.host == in.From) {
			h := m.Players[0]
			id, _ := peer.Decode(h.ID)
			if id == l.self || id == l.host {
				return LobbyResult{}, false, nil
			}
			l.t.Host().Peerstore().AddAddrs(id, policyOf(l.t.Host()).parse(id, h.Addrs, "lobby redirect"), peerstore.RecentlyConnectedAddrTTL)
			l.roster, l.view = nil, LobbyView{}
			l.join(id)
		}
	case lobbyRoster:
		if in.From != l.host || l.hosting {
			return LobbyResult{}, false, nil
		}
		l.roster, l.free, l.ver = m.Players, m.Free, m.Ver
		l.bots = [engine.NumColours]string{}
		for _, b := range m.Bots {
			l.bots[b.Colour] = b.Kind
		}
		l.rules, _ = engine.ParseRules(m.Rules) // checked by decodeLobbyMsg
		l.readyAt = time.Time{}
		l.updateView()
		l.changed()
		l.meetRoster()
	case lobbyColour:
		if l.hosting {
			if err := l.setColour(in.From, engine.Colour(m.Colour)); err != nil {
				l.log.Info("colour refused", "peer", short(in.From), "err", err)
				l.sendRoster() // the asker sees it kept its seat
			}
		}
	case lobbyReady:
		if l.hosting {
			l.setReady(in.From, m.Ready, m.Ver)
		}
	case lobbyFull:
		if in.From == l.host && !l.inRoster() {
			return LobbyResult{}, true, fmt.Errorf("p2p: %w: %q has no free seat (pick another lobby name)", ErrLobbyFull, l.cfg.Lobby)
		}
	case lobbyStart:
		if in.From != l.host || l.hosting {
			return LobbyResult{}, false, nil
		}
		return l.started(m)
	case lobbyLeave:
		l.peerEvent(PeerEvent{Peer: in.From}) // as if it went down
	}
	return LobbyResult{}, false, nil
}

// learnManualHost adopts as our host a peer dialled by hand that answers
// our join as the lobby's host: without mDNS we never saw its advert, so
// join was never called, yet its roster, start or "full" is the answer to
// the join askManualPeers sent it. Only the host sends those, and it
// lists itself first in a roster or start.
func (l *lobby) learnManualHost(from peer.ID, m lobbyMsg) {
	if l.hosting || l.host != "" || l.joinAt.IsZero() ||
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
	l.log.Info("a peer dialled by hand hosts the lobby", "lobby", l.cfg.Lobby, "host", short(from))
	l.host = from
}

// meetRoster connects to the lobby's other players in the background, so
// lobby chat reaches all of them and the game starts on a full mesh.
func (l *lobby) meetRoster() {
	for _, r := range l.roster {
		id, err := peer.Decode(r.ID)
		if err != nil || id == l.self || l.t.Connected(id) {
			continue
		}
		info := peer.AddrInfo{ID: id, Addrs: policyOf(l.t.Host()).parse(id, r.Addrs, "lobby roster")}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = l.t.Connect(ctx, info)
		}()
	}
}

func (l *lobby) onJoin(from peer.ID, m lobbyMsg) {
	if !l.hosting {
		// A member points the joiner at the host.
		if l.host != "" && l.inRoster() && len(l.roster) > 0 {
			_ = l.t.Send(from, KindLobby, l.redirect(l.roster[0]))
		}
		return
	}
	if slices.ContainsFunc(l.roster, func(r rosterEntry) bool { return r.ID == from.String() }) {
		l.sendRoster() // a repeated join: it missed the roster
		return
	}
	if len(l.roster) >= l.capacity {
		_ = l.t.Send(from, KindLobby, encodeLobbyMsg(lobbyMsg{T: lobbyFull, Lobby: l.cfg.Lobby}))
		return
	}
	// What the host relays to the table is what it would dial itself: a
	// stranger's junk goes no further than here.
	pol := policyOf(l.t.Host())
	addrs := addrStrings(pol.parse(from, m.Addrs, "lobby join"))
	if len(m.Addrs) == 0 {
		addrs = addrStrings(pol.filter(from, advertisable(l.t.Host().Peerstore().Addrs(from)), "peerstore"))
	}
	var want []engine.Colour
	if m.Want > 0 {
		want = []engine.Colour{engine.Colour(m.Want - 1)}
	}
	colour := l.seatFor(want)
	l.log.Info("player joined the lobby", "peer", short(from), "name", m.Name, "colour", colour.String())
	l.roster = append(l.roster, rosterEntry{ID: from.String(), Name: m.Name, Addrs: addrs, Colour: int(colour)})
	l.tableChanged()
}

func (l *lobby) start() (LobbyResult, error) {
	setup := lockstep.Setup{Version: lockstep.Version, Name: l.cfg.Lobby, Rules: l.cfg.Rules}
	if _, err := rand.Read(setup.Nonce[:]); err != nil {
		return LobbyResult{}, fmt.Errorf("p2p: drawing the game nonce: %w", err)
	}
	// Each player at its colour, each bot at its own; seats still open
	// at an early start are left out.
	setup.Rules = l.rules
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		seat := lockstep.Seat{Colour: c, Bot: l.bots[c]}
		if i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.Colour == int(c) }); i >= 0 {
			seat.Player, _ = peer.Decode(l.roster[i].ID)
		}
		if seat.Bot != "" || seat.Player != "" {
			setup.Seats = append(setup.Seats, seat)
		}
	}
	if err := setup.Validate(); err != nil {
		return LobbyResult{}, fmt.Errorf("p2p: building the game setup: %w", err)
	}
	msg := encodeLobbyMsg(lobbyMsg{T: lobbyStart, Lobby: l.cfg.Lobby, Players: l.roster, Setup: setup.Encode()})
	for _, r := range l.roster[1:] {
		id, _ := peer.Decode(r.ID)
		if err := l.t.Send(id, KindLobby, msg); err != nil {
			l.log.Warn("start not sent", "peer", short(id), "err", err)
		}
	}
	l.log.Info("game starting", "lobby", l.cfg.Lobby, "game", setup.GameID().String())
	return l.result(setup, l.roster), nil
}

func (l *lobby) started(m lobbyMsg) (LobbyResult, bool, error) {
	setup, err := lockstep.DecodeSetup(m.Setup)
	if err == nil {
		err = setup.Validate()
	}
	if err != nil {
		l.t.strike(l.host, "bad setup: "+err.Error())
		return LobbyResult{}, false, nil
	}
	players := setup.Players()
	if setup.Name != l.cfg.Lobby || !slices.Contains(players, l.self) || !slices.Contains(players, l.host) {
		l.log.Warn("ignoring a start that does not seat us or its host", "host", short(l.host))
		return LobbyResult{}, false, nil
	}
	l.log.Info("game starting", "lobby", l.cfg.Lobby, "game", setup.GameID().String())
	return l.result(setup, m.Players), true, nil
}

// result admits exactly the game's players to the transport and gives it
// their addresses, so every pair connects (the transport re-dials members).
func (l *lobby) result(setup lockstep.Setup, roster []rosterEntry) LobbyResult {
	names := map[peer.ID]string{}
	for _, r := range roster {
		id, err := peer.Decode(r.ID)
		if err != nil {
			continue
		}
		names[id] = r.Name
		if id != l.self {
			l.t.Host().Peerstore().AddAddrs(id, policyOf(l.t.Host()).parse(id, r.Addrs, "lobby start"), peerstore.PermanentAddrTTL)
		}
	}
	l.t.SetMembers(setup.Players())
	// Frames that arrived early from now-members are the session's.
	var pending []Inbound
	for _, in := range l.pending {
		if slices.Contains(setup.Players(), in.From) {
			pending = append(pending, in)
		}
	}
	if l.d != nil {
		_ = l.d.Update(Advert{Name: l.cfg.Player, Lobby: l.cfg.Lobby})
	}
	return LobbyResult{Setup: setup, Names: names, Pending: pending}
}
