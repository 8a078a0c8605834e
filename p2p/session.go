package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// SessionConfig is what the session driver needs besides the transport.
type SessionConfig struct {
	Setup   lockstep.Setup
	Key     crypto.PrivKey
	Entropy [32]byte // private chain seed; keep it to Restore after a crash
	// Log is the game log, opened by OpenGameLog (the session writes and
	// fsyncs every Ready's entries before sending its messages).
	Log *GameLog
	// Records, if not empty, restores the node from its own log (a crash).
	Records []lockstep.Record
	// Tick is lockstep's unit of time (default 100 ms); absence and
	// re-sends count ticks.
	Tick        time.Duration
	AbsentTicks int // lockstep.Config.AbsentTicks (0: its default)
	// Linger keeps answering peers this long after the game is over, so a
	// peer still missing our last messages gets them (default 2 s).
	Linger time.Duration
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

// Session drives one lockstep.Node over the transport: frames in go to
// Step, a ticker to Tick, and each Ready is logged durably, then sent.
type Session struct {
	t   *Transport
	cfg SessionConfig
	n   *lockstep.Node
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
	return &Session{t: t, cfg: cfg, n: n, log: cfg.Logger, do: make(chan func(*lockstep.Node) error, 16), stopped: make(chan struct{})}, nil
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
func (s *Session) Run(ctx context.Context) (lockstep.State, error) {
	defer close(s.stopped)
	tick := time.NewTicker(s.cfg.Tick)
	defer tick.Stop()
	for _, in := range s.cfg.Pending {
		s.step(in)
	}
	var state lockstep.State
	var over <-chan time.Time
	for {
		if s.n.HasReady() {
			rd := s.n.Ready()
			if err := s.cfg.Log.Append(rd.LogEntries); err != nil {
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
			if over == nil && (state.Phase == lockstep.PhaseOver || state.Phase == lockstep.PhaseHalted) {
				over = time.After(s.cfg.Linger)
			}
			continue
		}
		select {
		case <-over:
			return state, nil
		case <-ctx.Done():
			return state, ctx.Err()
		case in := <-s.t.Inbox():
			s.step(in)
		case <-tick.C:
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

func (s *Session) step(in Inbound) {
	switch in.Kind {
	case KindGame:
		if err := s.n.Step(in.From, in.Data); err != nil {
			s.log.Warn("game frame rejected", "peer", short(in.From), "err", err)
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

// GameLog is the durable, append-only game log file.
type GameLog struct {
	f    *os.File
	path string
}

// OpenGameLog opens (creating with the header if needed) the log at path
// and returns the records already in it (empty for a new game). A torn tail
// from a crash is cut off; corruption elsewhere is an error.
func OpenGameLog(path string) (*GameLog, []lockstep.Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: opening the game log: %w (check --data is writable)", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("p2p: reading the game log %s: %w", path, err)
	}
	l := &GameLog{f: f, path: path}
	if len(data) == 0 {
		if _, err := f.Write(lockstep.LogHeader()); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("p2p: writing the game log %s: %w", path, err)
		}
		return l, nil, l.sync()
	}
	recs, err := lockstep.ParseLog(data)
	var lerr *lockstep.LogError
	if errors.Is(err, lockstep.ErrTornTail) && errors.As(err, &lerr) {
		// A crash in the middle of an append: the records before the
		// torn one are good and the torn one was never sent.
		if terr := f.Truncate(lerr.Offset); terr != nil {
			f.Close()
			return nil, nil, fmt.Errorf("p2p: cutting the torn tail of %s: %w", path, terr)
		}
		err = nil
		if lerr.Offset == 0 {
			f.Close()
			return OpenGameLog(path)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("p2p: game log %s: %w (move it away to start afresh)", path, err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	return l, recs, nil
}

// Path is where the log lives.
func (l *GameLog) Path() string { return l.path }

// Append writes records and fsyncs.
func (l *GameLog) Append(recs []lockstep.Record) error {
	if len(recs) == 0 {
		return nil
	}
	if _, err := l.f.Write(lockstep.EncodeRecords(recs...)); err != nil {
		return fmt.Errorf("writing the game log %s: %w", l.path, err)
	}
	return l.sync()
}

func (l *GameLog) sync() error {
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("flushing the game log %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file.
func (l *GameLog) Close() error { return l.f.Close() }
