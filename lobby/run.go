package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Config says which game to join or create.
type Config struct {
	Player string // this player's name (p2p.CleanName applied)
	Lobby  string // the game's name (p2p.CleanName applied)
	// NoWatchChat, for the creator: the peers watching the game may not
	// chat (default: they may); every player is told with the start.
	NoWatchChat bool
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
	// bot seats, rules, remove, start).
	Control *Control
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
	// BotPace is the bots' pace the creator opens the table with.
	BotPace Pace
	// Connect lists peers dialled by hand (multicast blocked): they are
	// asked for the lobby as well as the mDNS adverts. Their addresses are
	// what the user typed (p2p.ResolveAddr), dialled whatever they are:
	// the user vouches for them (Transport.ConnectByHand).
	Connect []peer.AddrInfo
	// FindFor is how long to look for the lobby before creating it
	// (default 2 s).
	FindFor time.Duration
	// OnChange, if set, is called with the lobby as it changes; OnChat
	// with chat lines received in the lobby.
	OnChange func(View)
	OnChat   func(p2p.ChatLine)
	Logger   *slog.Logger
}

// View is what a lobby screen shows: the table as the creator's lobby
// last said.
type View struct {
	Lobby   string
	Host    peer.ID  // the creator; it starts the game
	Players []Player // the creator first, then in joining order
	Free    int      // player seats still open
	// Bots is the bot kind at each colour ("" for none); Open the free
	// colours a new player would get, Free of them in the order they are
	// given (the others are out of the game unless a player moves there).
	Bots  [engine.NumColours]string
	Open  []engine.Colour
	Rules engine.Rules
	Pace  Pace // the bots' pace the creator set
}

// Player is one player in a lobby.
type Player struct {
	ID     peer.ID
	Name   string
	Colour engine.Colour
	Ready  bool
	Via    peer.ID // the program hosting this seat (a web player), "" for its own
	Phone  bool    // a hosted seat that is a browser's, not a hot-seat person's
}

// Result is what the lobby hands to the game.
type Result struct {
	Setup   lockstep.Setup
	Names   map[peer.ID]string
	Pending []p2p.Inbound // game frames that arrived before the lobby ended
	Pace    Pace          // the bots' pace the creator set, as the game started
	// NoWatchChat: the creator keeps the game's watchers from chatting
	// (Config.NoWatchChat, told in the start).
	NoWatchChat bool
	// SeatHosts names the program of every player seat that is not a
	// program's own (a web player): its frames travel through that
	// program (session.TransportLink.SetSeatHosts).
	SeatHosts map[peer.ID]peer.ID
	// Phones are the hosted seats that are browsers' (web players), not
	// people at their program's keyboard.
	Phones map[peer.ID]bool
}

// Run joins cfg.Lobby if a proven peer hosts it, or creates it, and
// returns when the game starts. The creator builds the lockstep Setup
// (Table.Setup, with a fresh nonce) and sends it to the others;
// lockstep's setup phase then makes every player confirm it. It owns t's
// inbox until it returns; d and chat may be nil.
func Run(ctx context.Context, t *p2p.Transport, d *p2p.Discovery, chat *p2p.Chat, cfg Config) (Result, error) {
	cfg.Player, cfg.Lobby = p2p.CleanName(cfg.Player), p2p.CleanName(cfg.Lobby)
	if cfg.Lobby == "" {
		return Result{}, errors.New("lobby: a lobby needs a name: give one")
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
			if k != "" && !ValidBotKind(k) {
				_, err := engine.NewBot(k)
				return Result{}, fmt.Errorf("lobby: bot seats: %w", err)
			}
		}
	}
	if err := cfg.BotPace.check(); err != nil {
		return Result{}, err
	}
	if cfg.Players < 1 || cfg.Bots < 0 || cfg.Players+cfg.Bots < 2 || cfg.Players+cfg.Bots > engine.NumColours {
		return Result{}, fmt.Errorf("lobby: %d players and %d bots: want 2 to 4 seats in all, at least one player", cfg.Players, cfg.Bots)
	}
	if _, err := engine.NewBot(cfg.BotKind); err != nil && cfg.Bots > len(cfg.BotKinds) {
		return Result{}, fmt.Errorf("lobby: bot seats: %w", err)
	}
	if len(cfg.BotKinds) > cfg.Bots {
		return Result{}, fmt.Errorf("lobby: %d bot kinds for %d bot seats: name at most one per seat", len(cfg.BotKinds), cfg.Bots)
	}
	for _, k := range cfg.BotKinds {
		if _, err := engine.NewBot(k); err != nil {
			return Result{}, fmt.Errorf("lobby: bot seats: %w", err)
		}
	}
	if cfg.FindFor <= 0 {
		cfg.FindFor = 2 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	var ctl <-chan cmd
	if c := cfg.Control; c != nil {
		if !c.used.CompareAndSwap(false, true) {
			return Result{}, errors.New("lobby: a Control serves one lobby: make a new one")
		}
		defer c.close()
		ctl = c.cmds
	}
	l := &runner{t: t, d: d, chat: chat, cfg: cfg, self: t.Host().ID(), log: t.PeerLog(cfg.Logger), ctl: ctl}
	l.find.init()
	defer p2p.ServeInfo(t.Host(), l.currentInfo)()
	return l.run(ctx)
}

// runner is one Run: the host's table while it hosts, else the roster
// its host last sent.
type runner struct {
	t    *p2p.Transport
	d    *p2p.Discovery
	chat *p2p.Chat
	cfg  Config
	self peer.ID
	log  *slog.Logger

	ctl  <-chan cmd
	info infoCell // what Query is told
	// infoKey is what info was last built from (refreshInfo).
	infoKey   infoKey
	infoBuilt bool

	// Hosting: the table decides; addrs are the members' addresses the
	// host relays (filtered as it would dial them); draw breaks ties
	// between tables of one name; removed are the peers the creator
	// took seats from.
	table   *Table
	addrs   map[peer.ID][]string
	draw    uint64
	since   time.Time // when this peer began hosting
	removed removedList
	early   bool // StartNow closed: start with whoever is in

	host    peer.ID       // the host we joined (when not hosting)
	joinAt  time.Time     // when we last asked host to let us in
	roster  []rosterEntry // who is in, host first (the host's word)
	view    View
	pending []p2p.Inbound
	churn   churn  // joins and leaves per peer
	find    finder // the tables of our name this peer has proven (find.go)

	// Member: the table as the host's last roster said.
	free    int
	bots    [engine.NumColours]string
	rules   engine.Rules
	pace    Pace
	ver     uint32
	readyAt time.Time // when it last said ready by itself
}

func (l *runner) hosting() bool { return l.table != nil }

func (l *runner) currentInfo(asker peer.ID) []byte { return l.info.load(asker) }

func (l *runner) run(ctx context.Context) (Result, error) {
	t := l.t
	t.SetMembers(nil)
	for _, info := range l.cfg.Connect {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := t.ConnectByHand(cctx, info)
		cancel()
		if err != nil {
			l.log.Warn("manual connect failed", "peer", p2p.ShortID(info.ID), "err", err)
		}
	}
	searchUntil := time.Now().Add(l.cfg.FindFor)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	defer l.find.stop()
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
		l.probeAdverts()
		switch {
		case l.hosting():
			l.gather()
		case l.host == "":
			if h, ok := l.chooseHost(); ok {
				l.join(h)
			} else if time.Now().After(searchUntil) {
				l.create()
			} else if time.Since(l.joinAt) > time.Second {
				l.askManualPeers()
			}
		case time.Since(l.joinAt) > 2*time.Second && !l.inRoster():
			if l.hostGone() {
				l.log.Info("the lobby's host does not seat us; looking again", "host", p2p.ShortID(l.host))
				l.host = ""
				searchUntil = time.Now().Add(l.cfg.FindFor)
			} else {
				l.join(l.host) // our join may have been lost: ask again
			}
		}
		select {
		case <-ctx.Done():
			l.leave()
			return Result{}, ctx.Err()
		case <-tick.C:
		case <-changes:
		case p := <-l.find.results:
			l.find.record(p, l.cfg.Lobby)
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
		case c := <-l.ctl:
			c.reply <- c.f(l)
		}
		l.refreshInfo()
		l.autoReady()
		if l.mayStart() {
			if open := l.table.Free(); open > 0 {
				l.log.Info("starting early", "players", len(l.table.members), "open", open)
			}
			return l.start()
		}
	}
}

func (l *runner) inRoster() bool {
	for _, p := range l.view.Players {
		if p.ID == l.self {
			return true
		}
	}
	return false
}

func (l *runner) advertise() {
	l.refreshInfo()
	if l.d == nil {
		return
	}
	ad := p2p.Advert{Name: l.cfg.Player}
	switch {
	case l.hosting():
		ad.Lobby, ad.Host, ad.Free = l.cfg.Lobby, true, l.table.Free()
		ad.Taken, ad.Rules = l.table.Taken(), l.table.Rules().String()
	case l.host != "" && l.inRoster():
		ad.Lobby, ad.Free = l.cfg.Lobby, l.view.Free
	}
	if err := l.d.Update(ad); err != nil {
		l.log.Warn("advert update failed", "err", err)
	}
}

func (l *runner) changed() {
	l.advertise()
	if l.cfg.OnChange != nil {
		l.cfg.OnChange(l.view)
	}
	if l.cfg.Control != nil && l.cfg.Control.onChange != nil {
		l.cfg.Control.onChange(l.view)
	}
}

func (l *runner) peerEvent(ev p2p.PeerEvent) {
	if ev.Up {
		return
	}
	switch {
	case l.hosting():
		if name := l.nameOf(ev.Peer); l.table.Leave(ev.Peer) {
			l.log.Info("player left the lobby", "peer", p2p.ShortID(ev.Peer), "name", name)
			delete(l.addrs, ev.Peer)
			l.publish()
		}
	case ev.Peer == l.host:
		l.log.Info("lobby host left; looking again", "host", p2p.ShortID(ev.Peer))
		l.find.forget(ev.Peer)
		l.host, l.view = "", View{}
		l.changed()
	}
}

// leave tells the others that this player left the lobby while staying
// connected (it joins or creates another game): the host frees its seat;
// a host's members look for the lobby again.
func (l *runner) leave() {
	msg := encodeLobbyMsg(lobbyMsg{T: lobbyLeave, Lobby: l.cfg.Lobby})
	switch {
	case l.hosting():
		for _, id := range l.guests() {
			_ = l.t.Send(id, p2p.KindLobby, msg)
		}
	case l.host != "" && l.inRoster():
		_ = l.t.Send(l.host, p2p.KindLobby, msg)
	}
}

// seatVia reports whether the table seats seat through program prog
// (the creator's table, or the roster its creator last sent).
func (l *runner) seatVia(seat, prog peer.ID) bool {
	if l.hosting() {
		return l.table.HostedBy(seat, prog)
	}
	for _, r := range l.roster {
		if r.ID == seat.String() && r.Via == prog.String() {
			return true
		}
	}
	return false
}

// speaker is the seat a colour, ready or leave from program from is for,
// at the host: from's own, or a seat it hosts (m.Seat). A program that
// names a seat it does not host speaks for nobody.
func (l *runner) speaker(from peer.ID, m lobbyMsg) (peer.ID, bool) {
	if !l.hosting() {
		return "", false
	}
	if m.Seat == "" {
		return from, true
	}
	id, _ := peer.Decode(m.Seat) // checked by decodeLobbyMsg
	if !l.table.HostedBy(id, from) {
		l.log.Info("a program spoke for a seat it does not host", "peer", p2p.ShortID(from), "seat", p2p.ShortID(id))
		return "", false
	}
	return id, true
}

// frame handles one inbound frame; done means the game starts.
func (l *runner) frame(in p2p.Inbound) (Result, bool, error) {
	switch in.Kind {
	case p2p.KindGame:
		if len(l.pending) < 256 {
			l.pending = append(l.pending, in)
		}
		return Result{}, false, nil
	case p2p.KindChat:
		if l.chat != nil {
			if line, err := l.chat.Receive(in); err == nil && l.cfg.OnChat != nil {
				l.cfg.OnChat(line)
			}
		}
		return Result{}, false, nil
	case p2p.KindSeatChat:
		if l.chat != nil {
			if line, err := l.chat.ReceiveSeat(in, l.seatVia); err == nil && l.cfg.OnChat != nil {
				l.cfg.OnChat(line)
			}
		}
		return Result{}, false, nil
	case p2p.KindLobby:
	default:
		return Result{}, false, nil
	}
	m, err := decodeLobbyMsg(in.Data)
	if err != nil {
		l.t.Strike(in.From, err.Error())
		return Result{}, false, nil
	}
	if m.Lobby != l.cfg.Lobby {
		return Result{}, false, nil // another game's traffic
	}
	if (m.T == lobbyJoin || m.T == lobbyLeave) && !l.churn.allow(in.From, time.Now()) {
		l.t.Strike(in.From, "lobby joins and leaves too fast")
		return Result{}, false, nil
	}
	l.learnManualHost(in.From, m)
	switch m.T {
	case lobbyJoin:
		l.onJoin(in.From, m)
	case lobbyRedirect:
		l.onRedirect(in.From, m)
	case lobbyRoster:
		l.onRoster(in.From, m)
	case lobbyColour:
		if who, ok := l.speaker(in.From, m); ok {
			if err := l.table.SetColour(who, engine.Colour(m.Colour)); err != nil {
				l.log.Info("colour refused", "peer", p2p.ShortID(in.From), "err", err)
				l.sendRoster() // the asker sees it kept its seat
			} else {
				l.publish()
			}
		}
	case lobbyReady:
		if who, ok := l.speaker(in.From, m); ok && l.table.SetReady(who, m.Ready, m.Ver) {
			l.publish()
		}
	case lobbyFull:
		if in.From == l.host && !l.inRoster() {
			return Result{}, true, fmt.Errorf("lobby: %w: %q has no free seat (pick another lobby name)", ErrFull, l.cfg.Lobby)
		}
	case lobbyStart:
		if in.From != l.host || l.hosting() {
			return Result{}, false, nil
		}
		return l.started(m)
	case lobbyLeave:
		if m.Seat != "" {
			if who, ok := l.speaker(in.From, m); ok && l.table.Leave(who) {
				l.publish()
			}
			return Result{}, false, nil
		}
		l.peerEvent(p2p.PeerEvent{Peer: in.From}) // as if it went down
	}
	return Result{}, false, nil
}
