package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// SessionConfig is what the session driver needs besides the transport.
type SessionConfig struct {
	Setup   lockstep.Setup
	Key     crypto.PrivKey
	Entropy [32]byte // private chain seed; keep it to Restore after a crash
	// Log is the game log, opened by savegame. The session writes every
	// Ready's entries before sending its messages and fsyncs them lazily
	// (see Run).
	Log GameLog
	// Records, if not empty, restores the node from its own log (a crash).
	Records []lockstep.Record
	// Tick is lockstep's unit of time (default 100 ms); absence and
	// re-sends count ticks.
	Tick        time.Duration
	AbsentTicks int // lockstep.Config.AbsentTicks (0: its default)
	// Linger keeps answering peers this long after the game is over, so a
	// peer still missing our last messages gets them (default 2 s). While
	// a peer is still catching up (we keep re-sending it messages it
	// asked for), the wait starts again, up to MaxLinger after the end:
	// a player whose cable came back just before the end would otherwise
	// find nobody left to fetch the rest of the game from.
	Linger time.Duration
	// MaxLinger bounds the whole wait after the end (default 30 s).
	MaxLinger time.Duration
	// ManualRoll makes the player roll: lockstep emits EventYourRoll and
	// waits for Do(Node.Roll) before revealing this player's share of its
	// own rolls (the default reveals it at once, as headless peers and
	// bots want). Roll in time: peers vote absent a player who keeps
	// them waiting AbsentTicks.
	ManualRoll bool
	Pending    []Inbound
	Chat       *Chat
	// OnReady sees every Ready after it was logged and sent (events and
	// state for a screen or a headless log). It runs on the driver's
	// goroutine: to act on the node, send a function to Do.
	OnReady func(lockstep.Ready)
	OnChat  func(ChatLine)
	Logger  *slog.Logger
}

// Session drives one lockstep.Node over the transport: frames in have their
// signatures checked beforehand (verifyFrames), then go to the node; a
// ticker goes to Tick; each Ready is logged, then sent.
type Session struct {
	t   *Transport
	cfg SessionConfig
	n   *lockstep.Node
	v   *lockstep.Verifier
	log *slog.Logger
	do  chan func(*lockstep.Node) error
	// stopped closes when Run returns, so a late Do does not block forever.
	stopped chan struct{}
}

// NewSession creates (or restores) the node.
func NewSession(t *Transport, cfg SessionConfig) (*Session, error) {
	if cfg.Tick <= 0 {
		cfg.Tick = 100 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Linger == 0 {
		cfg.Linger = 2 * time.Second
	}
	if cfg.MaxLinger == 0 {
		cfg.MaxLinger = 30 * time.Second
	}
	if cfg.Log == nil {
		return nil, errors.New("p2p: a session needs a game log")
	}
	lc := lockstep.Config{Setup: cfg.Setup, Self: t.Host().ID(), Key: cfg.Key, Entropy: cfg.Entropy, AutoRoll: !cfg.ManualRoll, AbsentTicks: cfg.AbsentTicks}
	var n *lockstep.Node
	var err error
	if len(cfg.Records) > 0 {
		n, err = lockstep.Restore(lc, cfg.Records)
	} else {
		n, err = lockstep.NewNode(lc)
	}
	if err != nil {
		return nil, fmt.Errorf("p2p: starting the game: %w", err)
	}
	v, err := lockstep.NewVerifier(cfg.Setup)
	if err != nil {
		return nil, fmt.Errorf("p2p: starting the game: %w", err)
	}
	return &Session{t: t, cfg: cfg, n: n, v: v, log: cfg.Logger, do: make(chan func(*lockstep.Node) error, 16), stopped: make(chan struct{})}, nil
}

// Do runs f on the driver's goroutine (Roll, Choose...); its error is
// logged. Once Run has returned, f is dropped and Do returns at once.
func (s *Session) Do(f func(*lockstep.Node) error) {
	select {
	case s.do <- f:
	case <-s.stopped:
	}
}

// Run drives the node until the game is over or halted (returning the
// final state) or ctx ends.
//
// The log's fsync policy. Every Ready's entries are written (to the page
// cache) before its messages are sent, so a killed process never sent
// anything its log lacks; they are fsynced lazily, once a tick and when
// the game ends, and the first Ready's (the Setup record, with our
// Confirm) at once, so a log on disk always names its game. A crash of
// the machine (not of the process: the page cache survives that) can thus
// lose a tail of the log, messages of our own included. lockstep's
// restored node gets those back from the other players before it signs
// anything new (lockstep/recover.go), so it cannot sign a second,
// different message with a sequence number it used. Until 30 Nov the
// session fsynced before every own message instead, which put one or two
// disk flushes on every turn's critical path (docs/PERFORMANCE.md). A
// failed fsync of any kind stops the game: after one, Linux may report
// later fsyncs as good although the earlier data never reached the disk.
func (s *Session) Run(ctx context.Context) (lockstep.State, error) {
	defer close(s.stopped)
	tick := time.NewTicker(s.cfg.Tick)
	defer tick.Stop()
	vctx, stopVerify := context.WithCancel(ctx)
	frames := make(chan checked, 64)
	var vwg sync.WaitGroup
	s.verifyFrames(vctx, frames, &vwg)
	defer vwg.Wait() // nobody reads the transport's inbox for us once Run returns
	defer stopVerify()
	for _, in := range s.cfg.Pending {
		s.step(in)
	}
	var state lockstep.State
	var over <-chan time.Time
	var overAt time.Time
	for {
		if s.n.HasReady() {
			rd := s.n.Ready()
			if err := logReady(s.cfg.Log, rd); err != nil {
				// Sending what we could not record could let us contradict
				// ourselves after a restart: stop the game instead.
				return rd.State, fmt.Errorf("p2p: the game stops: %w", err)
			}
			for _, e := range rd.Messages {
				var err error
				if e.To == "" {
					err = s.t.Broadcast(KindGame, e.Data)
				} else {
					err = s.t.Send(e.To, KindGame, e.Data)
				}
				if err != nil {
					// Lockstep re-sends on later ticks what a peer lacks.
					s.log.Debug("game message not sent", "err", err)
				}
			}
			if s.cfg.OnReady != nil {
				s.cfg.OnReady(rd)
			}
			s.n.Advance(rd)
			state = rd.State
			switch {
			case over != nil && state.Phase == lockstep.PhaseOver && servesCatchUp(rd) && time.Since(overAt)+s.cfg.Linger <= s.cfg.MaxLinger:
				over = time.After(s.cfg.Linger)
			case over == nil && (state.Phase == lockstep.PhaseOver || state.Phase == lockstep.PhaseHalted):
				overAt = time.Now()
				over = time.After(s.cfg.Linger)
				if err := s.cfg.Log.Sync(); err != nil {
					return state, fmt.Errorf("p2p: the game is over but its log is not saved: %w", err)
				}
			}
			continue
		}
		select {
		case <-over:
			return state, s.cfg.Log.Sync()
		case <-ctx.Done():
			if err := s.cfg.Log.Sync(); err != nil {
				s.log.Warn("game log not flushed", "err", err)
			}
			return state, ctx.Err()
		case c := <-frames:
			s.stepChecked(c)
		case <-tick.C:
			if err := s.cfg.Log.Sync(); err != nil {
				return state, fmt.Errorf("p2p: the game stops: %w", err)
			}
			s.n.Tick()
		case f := <-s.do:
			if err := f(s.n); err != nil {
				s.log.Warn("game action refused", "err", err)
			}
		case ev := <-s.t.Events():
			s.log.Info("peer event", "peer", short(ev.Peer), "up", ev.Up, "reason", ev.Reason)
			s.n.Reachable(ev.Peer, ev.Up)
		}
	}
}

// servesCatchUp tells whether rd re-sends signed messages to one peer:
// once the game is over that is only ever an answer to a peer's status
// frame saying it lacks them, so somebody is still catching up.
func servesCatchUp(rd lockstep.Ready) bool {
	for _, e := range rd.Messages {
		if e.To != "" && lockstep.SignedBy(e.Data) != "" {
			return true
		}
	}
	return false
}

// logReady writes rd's entries to l before its messages may leave, and
// fsyncs them only if they open the game (Run says why that is enough).
func logReady(l GameLog, rd lockstep.Ready) error {
	if err := l.Write(rd.LogEntries); err != nil {
		return err
	}
	for _, r := range rd.LogEntries {
		if r.Type == lockstep.RecordSetup {
			return l.Sync()
		}
	}
	return nil
}

// checked is a frame from the transport, with its signature checked if it
// is a game frame that Verifier could vouch for.
type checked struct {
	in Inbound
	f  lockstep.Verified
	ok bool
}

// verifyLanes bounds the goroutines that check signatures: enough for the
// other players of a 4-player game to be checked at once.
const verifyLanes = 4

// verifyFrames moves Ed25519 verification, most of a roll's CPU, off the
// driver's goroutine: it reads the transport's inbox and gives each sender
// a lane (one goroutine checking its frames in order), so the reveals of a
// roll, which come from different players, are checked in parallel with
// each other and with the driver, and each sender's frames (game, chat,
// lobby) still reach the driver in the order they came. It runs until ctx
// ends; wg tells when it has stopped reading the inbox.
//
// A frame the Verifier does not vouch for goes to Node.Step unchanged,
// which checks it again and rejects it, naming the cheat as before; only
// Verifier.Verify can make the token StepVerified trusts (lockstep's
// preverify.go), so no frame reaches the node unchecked.
func (s *Session) verifyFrames(ctx context.Context, out chan<- checked, wg *sync.WaitGroup) {
	lanes := make([]chan Inbound, verifyLanes)
	for i := range lanes {
		lanes[i] = make(chan Inbound, 64)
		wg.Go(func() {
			for in := range lanes[i] {
				c := checked{in: in}
				if in.Kind == KindGame {
					c.f, c.ok = s.v.Verify(in.Data)
				}
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	wg.Go(func() {
		defer func() {
			for _, l := range lanes {
				close(l)
			}
		}()
		lane := map[peer.ID]int{}
		for {
			select {
			case <-ctx.Done():
				return
			case in, ok := <-s.t.Inbox():
				if !ok {
					return
				}
				i, seen := lane[in.From]
				if !seen {
					if len(lane) >= 256 {
						clear(lane) // strangers' frames: bound the map, order matters only per member
					}
					i = len(lane) % verifyLanes
					lane[in.From] = i
				}
				select {
				case lanes[i] <- in:
				case <-ctx.Done():
					return
				}
			}
		}
	})
}

func (s *Session) stepChecked(c checked) {
	if !c.ok {
		s.step(c.in)
		return
	}
	if err := s.n.StepVerified(c.in.From, c.f); err != nil {
		s.t.peerLog(s.log).Warn("game frame rejected", "peer", short(c.in.From), "err", err)
	}
}

func (s *Session) step(in Inbound) {
	switch in.Kind {
	case KindGame:
		if err := s.n.Step(in.From, in.Data); err != nil {
			s.t.peerLog(s.log).Warn("game frame rejected", "peer", short(in.From), "err", err)
		}
	case KindChat:
		if s.cfg.Chat == nil {
			return
		}
		if line, err := s.cfg.Chat.Receive(in); err == nil && s.cfg.OnChat != nil {
			s.cfg.OnChat(line)
		}
	case KindLobby:
		// A late roster or start: the game has begun, nothing to do.
	}
}

// GameLog is what the session needs of its game log (savegame.Log):
// Write appends without waiting for the disk, Sync makes it durable.
type GameLog interface {
	Write([]lockstep.Record) error
	Sync() error
}
