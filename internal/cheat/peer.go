package cheat

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Config is what the cheating peer needs.
type Config struct {
	Key   crypto.PrivKey
	Name  string
	Lobby string
	// Attacks run one after another, in this order, each when the game
	// gives it a chance (see Attacks for the names).
	Attacks []string
	// Think delays this peer's own honest moves.
	Think time.Duration
	// NeverConfirm sits down, says ready, and then never sends the game's
	// Confirm, holding the connection until ctx ends: the stranger who
	// joins an open table only to hold the game in its setup.
	NeverConfirm bool
	// Out gets one line per attack made and the final result.
	Out    io.Writer
	Logger *slog.Logger
}

// Attacks lists every attack by name, each with when it can run.
var Attacks = []string{
	"copied-chain", "equivocation", // whole-game attacks: they must come first
	"bad-reveal", "out-of-turn", "wrong-seat", "illegal-move", "stale", "replay", "move-alone",
	"garbage", "oversized", "chat-flood", "spoof-mdns", "conn-flood", "never-ending",
}

// Peer is a running cheater.
type Peer struct {
	cfg   Config
	h     host.Host
	t     *p2p.Transport
	log   *slog.Logger
	outMu sync.Mutex

	setup   lockstep.Setup
	gid     lockstep.GameID
	self    peer.ID
	colour  engine.Colour
	players []peer.ID
	chain   *Chain
	node    *lockstep.Node // run by lockstep.Driver (drive), or by hand in tests
	state   lockstep.State

	// mu guards everything below, and state: the driver's goroutine
	// (sends, OnReady) and the link's reader (received frames) both
	// rewrite.
	mu sync.Mutex

	// The cheater owns its message chain on the wire: every message of
	// its honest node is renumbered after the forged ones and re-signed.
	wire     [][]byte          // wire message seq-1 -> bytes
	wirePrev [32]byte          // ID of the last wire message
	nodeWire map[uint64][]byte // node seq -> its wire bytes
	nodeSeq  uint64            // highest node seq seen
	held     []lockstep.Envelope
	copyFrom [32]byte // copied-chain: the victim's anchor, once seen
	copied   bool

	replayable [][]byte // a few signed messages of another player, to replay

	wireSend func(to peer.ID, data []byte) // tests: instead of the transport

	queue    []string
	cooldown uint64 // no attack before this roll
	lastPick int64
}

// Run plays one game with cfg's attacks.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	for _, a := range cfg.Attacks {
		if !slices.Contains(Attacks, a) {
			return fmt.Errorf("cheat: unknown attack %q (known: %s)", a, strings.Join(Attacks, ", "))
		}
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: cfg.Key})
	if err != nil {
		return err
	}
	defer h.Close()
	fmt.Fprintf(cfg.Out, "peer %s\n", h.ID())
	t := p2p.NewTransport(h, p2p.TransportConfig{Logger: cfg.Logger})
	defer t.Close()
	d, err := p2p.StartDiscovery(h, p2p.Advert{Name: cfg.Name}, p2p.DiscoveryConfig{Logger: cfg.Logger})
	if err != nil {
		return err
	}
	defer d.Close()
	res, err := lobby.Run(ctx, t, d, p2p.NewChat(t), lobby.Config{
		Player: cfg.Name, Lobby: cfg.Lobby, FindFor: 10 * time.Second, Logger: cfg.Logger})
	if err != nil {
		return err
	}
	if cfg.NeverConfirm {
		fmt.Fprintf(cfg.Out, "never-confirm game %s\n", res.Setup.GameID())
		<-ctx.Done()
		return nil
	}
	p, err := newPeer(cfg, res.Setup, h.ID())
	if err != nil {
		return err
	}
	p.h, p.t = h, t
	p.say("game %s colour=%s players=%d", p.gid, p.colour, len(p.players))
	return p.drive(ctx, res.Pending)
}

func (p *Peer) say(format string, a ...any) {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	fmt.Fprintf(p.cfg.Out, format+"\n", a...)
}

// newPeer makes the cheater's honest node and its rewriting layer.
func newPeer(cfg Config, setup lockstep.Setup, self peer.ID) (*Peer, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Peer{cfg: cfg, log: cfg.Logger, setup: setup, gid: setup.GameID(),
		self: self, players: setup.Players(), nodeWire: map[uint64][]byte{},
		queue: slices.Clone(cfg.Attacks), lastPick: -1}
	for _, s := range setup.Seats {
		if s.Player == p.self {
			p.colour = s.Colour
		}
	}
	var ent [32]byte
	if _, err := rand.Read(ent[:]); err != nil {
		return nil, err
	}
	p.chain = NewChain(p.gid, p.self, ent, lockstep.DefaultChainLen)
	var err error
	p.node, err = lockstep.NewNode(lockstep.Config{Setup: setup, Self: p.self, Key: cfg.Key, Entropy: ent, AutoRoll: true})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// forgeLink is the cheater's lockstep.Link: what its honest node sends is
// renumbered onto the wire chain (out) and forged messages go out beside
// it; what arrives is rewritten to hide that (incoming) before the
// driver sees it.
type forgeLink struct {
	p       *Peer
	pending []p2p.Inbound
	frames  chan lockstep.Frame
}

func (l *forgeLink) Send(to peer.ID, data []byte) error {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	l.p.out(lockstep.Envelope{To: to, Data: data})
	return nil
}

func (l *forgeLink) Frames() <-chan lockstep.Frame { return l.frames }
func (l *forgeLink) Reach() <-chan lockstep.Reach  { return nil }

// run reads the transport (the lobby's leftovers first) until ctx ends.
func (l *forgeLink) run(ctx context.Context) {
	put := func(in p2p.Inbound) bool {
		l.p.mu.Lock()
		data, ok := l.p.incoming(in)
		l.p.mu.Unlock()
		if !ok {
			return true
		}
		select {
		case l.frames <- lockstep.Frame{From: in.From, Data: data}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for _, in := range l.pending {
		if !put(in) {
			return
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case in := <-l.p.t.Inbox():
			if !put(in) {
				return
			}
		case <-l.p.t.Events():
		}
	}
}

// drive runs the honest node with lockstep.Driver over the forging link,
// making the attacks as the game gives them their chance.
func (p *Peer) drive(ctx context.Context, pending []p2p.Inbound) error {
	link := &forgeLink{p: p, pending: pending, frames: make(chan lockstep.Frame, 64)}
	var d *lockstep.Driver
	d, err := lockstep.NewDriver(p.node, lockstep.DriverConfig{Link: link, Log: discardLog{}, Sync: lockstep.SyncNone,
		Linger: 3 * time.Second, Logger: p.log,
		OnReady: func(rd lockstep.Ready) {
			p.mu.Lock()
			m, ok := p.onReady(ctx, rd)
			p.mu.Unlock()
			if ok {
				time.AfterFunc(p.cfg.Think, func() { _ = d.Do(func(n *lockstep.Node) error { return n.Choose(m) }) })
			}
		}})
	if err != nil {
		return err
	}
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go link.run(lctx)
	if _, err := d.Run(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) > 0 {
		return fmt.Errorf("cheat: the game ended before attacks %v", p.queue)
	}
	return nil
}

// discardLog: the cheater keeps no log (it never restarts).
type discardLog struct{}

func (discardLog) Write([]lockstep.Record) error { return nil }
func (discardLog) Sync() error                   { return nil }

// onReady sees a Ready of the honest node after its messages went out:
// it reports the end, runs a due attack, and returns the honest move to
// play if the node waits for one.
func (p *Peer) onReady(ctx context.Context, rd lockstep.Ready) (move engine.Move, ok bool) {
	for _, ev := range rd.Events {
		p.log.Info("event " + ev.String())
		if ev.Kind == lockstep.EventGameOver {
			var b []byte
			for _, c := range ev.Ranking {
				b = append(b, c.Letter())
			}
			p.say("result %s hash=%x", b, ev.History)
		}
		if ev.Kind == lockstep.EventHalted {
			p.say("halted %s", ev.Detail)
		}
	}
	p.state = rd.State
	p.attack(ctx)
	if len(p.state.Moves) > 0 && int64(p.state.Roll) != p.lastPick {
		p.lastPick = int64(p.state.Roll)
		move, ok = p.state.Moves[int(p.state.Roll)%len(p.state.Moves)], true
	}
	return move, ok
}

// incoming rewrites a received frame for the node, hiding the wire
// renumbering: our own messages relayed back are dropped (false), and
// status frames are answered for our own chain here.
func (p *Peer) incoming(in p2p.Inbound) ([]byte, bool) {
	if in.Kind != p2p.KindGame {
		return nil, false
	}
	data := in.Data
	if IsHave(data) {
		h, err := DecodeHave(data)
		if err == nil && len(h.Seqs) == len(p.players) {
			me := slices.Index(p.players, p.self)
			for s := h.Seqs[me]; s < uint64(len(p.wire)) && s < h.Seqs[me]+64; s++ {
				p.sendTo(in.From, p.wire[s])
			}
			h.Seqs[me] = p.nodeSeq
			data = h.Encode()
		}
	} else if m, err := Decode(data); err == nil {
		if m.From == p.self {
			return nil, false
		}
		if len(p.replayable) < 5 && m.From == p.others()[0] {
			p.replayable = append(p.replayable, slices.Clone(data))
		}
		if m.Kind == KindConfirm && slices.Contains(p.cfg.Attacks, "copied-chain") && !p.copied {
			p.copyFrom, p.copied = m.Anchor, true
			p.say("attack copied-chain: will commit %s's anchor", short(m.From))
			p.flushHeld()
		}
	}
	return data, true
}

// out sends what the node wants sent, renumbered onto the wire chain.
func (p *Peer) out(e lockstep.Envelope) {
	data := e.Data
	switch {
	case IsHave(data):
		if h, err := DecodeHave(data); err == nil && len(h.Seqs) == len(p.players) {
			h.Seqs[slices.Index(p.players, p.self)] = uint64(len(p.wire))
			data = h.Encode()
		}
	default:
		m, err := Decode(data)
		if err != nil || m.From != p.self {
			break // a relay of someone else's message
		}
		if m.Seq > p.nodeSeq {
			p.nodeSeq = m.Seq
		}
		if w, ok := p.nodeWire[m.Seq]; ok {
			data = w
			break
		}
		if m.Kind == KindConfirm && slices.Contains(p.cfg.Attacks, "copied-chain") && !p.copied {
			p.held = append(p.held, e)
			return
		}
		if m.Kind == KindConfirm && p.copied {
			m.Anchor = p.copyFrom
		}
		if m.Kind == KindReveal && m.HasMove && p.queueHead("equivocation") && len(p.players) >= 3 {
			p.equivocate(m)
			return
		}
		nodeSeq := m.Seq
		raw, err := p.append(m) // renumbers m
		if err != nil {
			p.log.Warn("sealing", "err", err)
			return
		}
		p.nodeWire[nodeSeq] = raw
		data = raw
	}
	p.send(e.To, data)
}

func (p *Peer) flushHeld() {
	held := p.held
	p.held = nil
	for _, e := range held {
		p.out(e)
	}
}

func (p *Peer) send(to peer.ID, data []byte) {
	if to != "" {
		p.sendTo(to, data)
		return
	}
	for _, id := range p.players {
		if id != p.self {
			p.sendTo(id, data)
		}
	}
}

func (p *Peer) sendTo(to peer.ID, data []byte) {
	if p.wireSend != nil {
		p.wireSend(to, data)
		return
	}
	_ = p.t.Send(to, p2p.KindGame, data)
}

// append puts m on the wire chain as our next message and signs it.
func (p *Peer) append(m *Msg) ([]byte, error) {
	m.Game, m.From = p.gid, p.self
	m.Seq, m.Prev = uint64(len(p.wire))+1, p.wirePrev
	raw, id, err := m.Seal(p.cfg.Key)
	if err != nil {
		return nil, err
	}
	p.wire = append(p.wire, raw)
	p.wirePrev = id
	return raw, nil
}

// inject signs a forged message as our next one and broadcasts it.
func (p *Peer) inject(m *Msg) {
	raw, err := p.append(m)
	if err != nil {
		p.log.Warn("sealing", "err", err)
		return
	}
	p.send("", raw)
}

func short(id peer.ID) string { return lockstep.ShortID(id) }
