package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TransportLink makes a p2p.Transport a lockstep.Link for one game. While
// it runs (Game.Run) it is the only reader of the transport's inbox and
// peer events: the lobby's leftover frames first, then game frames go to
// the driver, chat frames to the chat, late lobby frames nowhere. Each
// kind keeps each sender's order.
type TransportLink struct {
	t       *p2p.Transport
	pending []p2p.Inbound
	chat    *p2p.Chat
	onChat  func(p2p.ChatLine)
	frames  chan lockstep.Frame
	reach   chan lockstep.Reach
	onPeer  func(id peer.ID, up bool) // GameConfig.OnPeer
	// hosts names the program (transport peer) of every seat whose ID
	// is not its program's (hot seat, SetSeatHosts); seats lists them by
	// program. Set before run; after, only a seat move changes them (mu).
	mu    sync.Mutex
	hosts map[peer.ID]peer.ID
	seats map[peer.ID][]peer.ID
	// moves are the web players' seat moves taken (seatmove.go).
	moves  *seatMoves
	logger *slog.Logger
	// MovesRefused counts seat moves refused: forged, replayed older,
	// of another game, too many.
	MovesRefused atomic.Int64
	// Refused counts seat frames from a program for a seat it does not
	// host (or that do not decode): dropped, the sender struck; and
	// messages an admitted newcomer relays from another signer: dropped.
	Refused atomic.Int64
}

// SetSeatHosts tells the link which program hosts each seat of the game
// whose ID is not that program's own (several people at one laptop: the
// seats beyond the first have seat keys of their own). Call it before
// Run; a game without such seats needs none.
func (l *TransportLink) SetSeatHosts(hosts map[peer.ID]peer.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hosts, l.seats = map[peer.ID]peer.ID{}, map[peer.ID][]peer.ID{}
	for seat, prog := range hosts {
		if seat != prog {
			l.hosts[seat] = prog
			l.seats[prog] = append(l.seats[prog], seat)
		}
	}
}

// NewTransportLink makes the link; it reads nothing until run.
// pending are the frames the lobby read but left (p2p.LobbyResult.Pending).
func NewTransportLink(t *p2p.Transport, pending []p2p.Inbound, chat *p2p.Chat, onChat func(p2p.ChatLine)) *TransportLink {
	return &TransportLink{t: t, pending: pending, chat: chat, onChat: onChat,
		frames: make(chan lockstep.Frame, 64), reach: make(chan lockstep.Reach, 16)}
}

// hostOf is the program hosting seat id: its own unless SetSeatHosts
// named another.
func (l *TransportLink) hostOf(id peer.ID) peer.ID {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.hosts[id]; ok {
		return h
	}
	return id
}

// Send implements lockstep.Link: as this program's own seat.
func (l *TransportLink) Send(to peer.ID, data []byte) error {
	return l.SendAs(l.t.Host().ID(), to, data)
}

// SendAs implements lockstep.SeatLink: a frame of the program's own seat
// to a seat that is its program's own (or to everyone) goes as a plain
// game frame; any other goes as a seat frame naming both seats, to the
// program hosting the seat it is for.
func (l *TransportLink) SendAs(from, to peer.ID, data []byte) error {
	prog := l.hostOf(to)
	if from == l.t.Host().ID() && prog == to {
		if to == "" {
			return l.t.Broadcast(p2p.KindGame, data)
		}
		return l.t.Send(to, p2p.KindGame, data)
	}
	b, err := encodeSeatFrame(from, to, data)
	if err != nil {
		return err
	}
	if to == "" {
		return l.t.Broadcast(p2p.KindSeat, b)
	}
	return l.t.Send(prog, p2p.KindSeat, b)
}

// Frames implements lockstep.Link.
func (l *TransportLink) Frames() <-chan lockstep.Frame { return l.frames }

// Reach implements lockstep.Link.
func (l *TransportLink) Reach() <-chan lockstep.Reach { return l.reach }

// run reads the transport until ctx ends.
func (l *TransportLink) run(ctx context.Context) {
	for _, in := range l.pending {
		if !l.route(ctx, in) {
			return
		}
	}
	l.pending = nil
	for {
		select {
		case <-ctx.Done():
			return
		case in, ok := <-l.t.Inbox():
			if !ok || !l.route(ctx, in) {
				return
			}
		case ev := <-l.t.Events():
			if l.onPeer != nil {
				l.onPeer(ev.Peer, ev.Up)
			}
			if ev.Up {
				l.tellMoves(ev.Peer)
			}
			// A program's reach is that of every seat it hosts.
			l.mu.Lock()
			ids := append([]peer.ID{ev.Peer}, l.seats[ev.Peer]...)
			l.mu.Unlock()
			for _, id := range ids {
				select {
				case l.reach <- lockstep.Reach{Peer: id, Up: ev.Up, Reason: ev.Reason}:
				case <-ctx.Done():
					return
				}
			}
		}
	}
}

// route hands in on; false once ctx has ended.
func (l *TransportLink) route(ctx context.Context, in p2p.Inbound) bool {
	switch in.Kind {
	case p2p.KindGame:
		if signer := lockstep.SignedBy(in.Data); signer != "" && l.t.IsGuest(in.From) {
			if signer != in.From {
				// A newcomer not seated sends its own messages and status
				// frames, never another's (lockstep's relays are a
				// player's): a relay from it goes no further. Not a
				// strike: one seated a moment before this player seated
				// it relays honestly, and the message reached us from
				// its signer too.
				l.Refused.Add(1)
				return true
			}
			l.toOtherGuests(in)
		}
		select {
		case l.frames <- lockstep.Frame{From: in.From, Data: in.Data}:
		case <-ctx.Done():
			return false
		}
	case p2p.KindSeat:
		from, to, data, err := decodeSeatFrame(in.Data)
		if err == nil && l.hostOf(from) != in.From {
			err = fmt.Errorf("%w: seat %s is not hosted by %s", errSeatFrame, lockstep.ShortID(from), lockstep.ShortID(in.From))
		}
		if err != nil {
			// A program speaking for a seat it does not host: nothing
			// of it reaches a node (which would verify and name it).
			l.Refused.Add(1)
			l.t.Strike(in.From, err.Error())
			return true
		}
		select {
		case l.frames <- lockstep.Frame{From: from, To: to, Data: data}:
		case <-ctx.Done():
			return false
		}
	case p2p.KindChat:
		if l.chat == nil {
			return true
		}
		if line, err := l.chat.Receive(in); err == nil && l.onChat != nil {
			l.onChat(line)
		}
	case p2p.KindSeatChat:
		if l.chat == nil {
			return true
		}
		hosted := func(seat, prog peer.ID) bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			h, ok := l.hosts[seat]
			return ok && h == prog
		}
		if line, err := l.chat.ReceiveSeat(in, hosted); err == nil && l.onChat != nil {
			l.onChat(line)
		}
	case p2p.KindSeatMove:
		l.receiveMove(in)
	case p2p.KindLobby:
		// A late roster or start: the game has begun, nothing to do.
	}
	return true
}

// toOtherGuests pushes a newcomer's own message (its Take) on to the
// other newcomers admitted here: newcomers are not connected to each
// other, lockstep's players push a Take on to the players only, and a
// newcomer holding the players' votes on another's request waits for
// that request itself before it derives the roll (two newcomers asking
// at once stalled each other so). Earlier ones are in the log a
// newcomer reads; at most p2p.MaxGuests-1 copies of each.
func (l *TransportLink) toOtherGuests(in p2p.Inbound) {
	for _, g := range l.t.Guests() {
		if g != in.From {
			_ = l.t.Send(g, p2p.KindGame, in.Data) // lost: the Take is repeated while open
		}
	}
}

// GameConfig is one networked game of this player's.
type GameConfig struct {
	Setup   lockstep.Setup
	Key     crypto.PrivKey
	Entropy [32]byte // private chain seed; kept to Restore after a crash
	// Log is the game log (p2p.OpenGameLog); Records, if not empty, are
	// the records it held: the node is restored from them (a crash).
	Log     lockstep.Log
	Records []lockstep.Record
	// Tick, AbsentTicks and Linger as lockstep.DriverConfig and
	// lockstep.Config have them (0: their defaults).
	Tick        time.Duration
	AbsentTicks int
	Linger      time.Duration
	// ManualRoll makes the player Roll (by Do) at EventYourRoll instead of
	// revealing its share of its own rolls at once (headless peers and
	// bots want the latter). Roll in time: peers vote absent a player who
	// keeps them waiting.
	ManualRoll bool
	// GoOnAlone answers a lone decision (lockstep's EventAloneDecision)
	// by going on at once (lockstep.Config.GoOnAlone): a peer nobody
	// watches (--headless) is never held hostage by a player gone for
	// good. Without it the player is asked (NetSession.GoOn).
	GoOnAlone bool
	// Pending, Chat and OnChat go to the TransportLink; OnChat runs on
	// its reading goroutine, not the driver's.
	Pending []p2p.Inbound
	Chat    *p2p.Chat
	OnChat  func(p2p.ChatLine)
	// OnPeer sees every player's connection go down and up, on the
	// link's reading goroutine.
	OnPeer func(id peer.ID, up bool)
	// OnReady sees every Ready after it was logged and sent; it runs on
	// the driver's goroutine (act on the node through Do, from another).
	OnReady func(lockstep.Ready)
	Logger  *slog.Logger
	// HoldPause keeps the pause a restored node holds from its own log
	// until Continue is called on it (liftWhenBack), instead of lifting it
	// once recovered.
	HoldPause bool

	// Take makes this program a newcomer asking for that seat of a
	// running game it holds none in (lockstep.Config.Take); Past are the
	// records of a player's log it read (Setup first), checked and
	// stepped into the node before it runs, from PastFrom, the player
	// that served them: it catches up from them, not frame by frame.
	Take     *lockstep.Take
	Past     []lockstep.Record
	PastFrom peer.ID
	// SeatHosts names the program of each seat that is not a program's
	// own (lobby.Result.SeatHosts): its frames travel through that
	// program, this one's included.
	SeatHosts map[peer.ID]peer.ID
	// Relay carries the frames of each seat this program hosts for a key
	// that lives elsewhere (a web player: SeatHosts names this program)
	// between the seat's link in this program's Hub and the seat's node;
	// it runs while the game does, until ctx ends.
	Relay func(ctx context.Context, seat peer.ID, l lockstep.Link)
	// AcceptSeats runs this program's node behind a Hub from the start,
	// so that a web player whose host is gone can move its seat here
	// mid-game (seatmove.go; it needs Relay). SeatMoves are the
	// statements the game took before (savegame.Dir.SeatMoves), taken
	// again first; OnSeatMoved is told every move taken, with the seat
	// hosts and statements after it, to save them beside the log (on
	// the goroutine that took it).
	AcceptSeats bool
	SeatMoves   [][]byte
	OnSeatMoved func(mv SeatMoved)
}

// stepPast hands a newcomer's node the records of a player's log it
// read, each checked by the node as a frame from from would be; the
// first must be the game's own Setup.
func stepPast(n *lockstep.Node, past []lockstep.Record, from peer.ID) error {
	if len(past) == 0 {
		return nil
	}
	if past[0].Type != lockstep.RecordSetup {
		return errors.New("the log read does not start with the game's setup")
	}
	if s, err := lockstep.DecodeSetup(past[0].Data); err != nil || s.GameID() != n.GameID() {
		return fmt.Errorf("the log read is of another game (%v)", err)
	}
	for i, r := range past[1:] {
		if r.Type != lockstep.RecordMessage {
			return fmt.Errorf("record %d of the log read is a second setup", i+1)
		}
		if err := n.Step(from, r.Data); err != nil {
			return fmt.Errorf("record %d of the log read: %w", i+1, err)
		}
	}
	return nil
}

// Game is a lockstep.Driver over a TransportLink (through a Hub when
// this program hosts seats whose nodes run elsewhere).
type Game struct {
	*lockstep.Driver
	link  *TransportLink
	hub   *lockstep.Hub
	relay func(ctx context.Context, seat peer.ID, l lockstep.Link)
	// mu guards the seats relayed, which a seat move changes while the
	// game runs (seatmove.go).
	mu      sync.Mutex
	hosted  []peer.ID
	relays  map[peer.ID]context.CancelFunc
	run     *gameRun // while Run runs
	onMoved func(SeatMoved)
	// holdPause: the people's nodes keep a restored pause too.
	holdPause bool
}

// NewGame creates (or restores) the node and its driver over t.
func NewGame(t *p2p.Transport, cfg GameConfig) (*Game, error) {
	if cfg.Log == nil {
		return nil, errors.New("session: a game needs a game log")
	}
	lc := lockstep.Config{Setup: cfg.Setup, Self: t.Host().ID(), Key: cfg.Key, Entropy: cfg.Entropy,
		AutoRoll: !cfg.ManualRoll, AbsentTicks: cfg.AbsentTicks, GoOnAlone: cfg.GoOnAlone, Take: cfg.Take}
	var n *lockstep.Node
	var err error
	if len(cfg.Records) > 0 {
		n, err = lockstep.Restore(lc, cfg.Records)
	} else {
		n, err = lockstep.NewNode(lc)
	}
	if err != nil {
		return nil, ui.Errorf("err.start", err)
	}
	if err := stepPast(n, cfg.Past, cfg.PastFrom); err != nil {
		return nil, ui.Errorf("err.start", err)
	}
	link := NewTransportLink(t, cfg.Pending, cfg.Chat, cfg.OnChat)
	link.onPeer, link.logger = cfg.OnPeer, cfg.Logger
	g := &Game{link: link, relays: map[peer.ID]context.CancelFunc{}}
	var own lockstep.Link = link
	link.takeMoves(cfg.Setup, g.seatMoved)
	if cfg.SeatHosts != nil {
		link.SetSeatHosts(cfg.SeatHosts)
		for _, stmt := range cfg.SeatMoves {
			_, _ = link.moveSeat(stmt, "") // before the hub: hosted below
		}
		self, hosts := t.Host().ID(), link.seatHosts()
		for _, id := range cfg.Setup.Players() {
			if h, ok := hosts[id]; ok && h == self && id != self {
				g.hosted = append(g.hosted, id)
			}
		}
	}
	if len(g.hosted) > 0 || (cfg.AcceptSeats && cfg.Relay != nil) {
		if cfg.Relay == nil {
			return nil, errors.New("session: this program hosts web players' seats but relays none")
		}
		if g.hub, err = lockstep.NewHub(link, append([]peer.ID{t.Host().ID()}, g.hosted...)...); err != nil {
			return nil, err
		}
		own, g.relay = g.hub.Link(t.Host().ID()), cfg.Relay
	}
	g.onMoved, g.holdPause = cfg.OnSeatMoved, cfg.HoldPause
	// A game every player paused ends its run, its log unfinished, to
	// be continued from the lobby; continued, it lifts our pause.
	d, err := lockstep.NewDriver(n, lockstep.DriverConfig{Link: own, Log: cfg.Log, Tick: cfg.Tick, Linger: cfg.Linger,
		OnReady: cfg.OnReady, Logger: cfg.Logger, StopWhenPaused: true, ContinuePaused: true, HoldPaused: cfg.HoldPause})
	if err != nil {
		return nil, err
	}
	g.Driver = d
	return g, nil
}

// SeatLink is the link in the game's Hub of seat id, one this program
// hosts (nil for any other): the wire of a node run here for it.
func (g *Game) SeatLink(id peer.ID) lockstep.Link {
	if g.hub == nil || !slices.Contains(g.hosted, id) {
		return nil
	}
	return g.hub.Link(id)
}

// Run plays the game (lockstep.Driver.Run) while the link reads the
// transport; once it returns, the transport's inbox is free for others.
func (g *Game) Run(ctx context.Context) (lockstep.State, error) {
	lctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { g.link.run(lctx) })
	if g.hub != nil {
		wg.Go(func() { g.hub.Run(lctx) })
		g.mu.Lock()
		g.run = &gameRun{ctx: lctx, wg: &wg}
		for _, id := range g.hosted {
			g.startRelayLocked(id, g.hub.Link(id))
		}
		g.mu.Unlock()
	}
	defer wg.Wait()
	defer func() {
		g.mu.Lock()
		g.run = nil // no relay starts once Wait may have begun
		g.mu.Unlock()
	}()
	defer stop()
	return g.Driver.Run(ctx)
}
