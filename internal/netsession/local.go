package netsession

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// LocalOptions configures a LocalSession.
type LocalOptions struct {
	// Name is the player's name (required).
	Name string
	// DataDir receives one game log per game (required): the file GameOver
	// names, for `aeroplane verify` and `replay`.
	DataDir string
	// Key signs the player's protocol messages; nil makes a fresh Ed25519
	// key for the session (pass the p2p identity to sign as that peer).
	Key crypto.PrivKey
	// Tick is the period of the node's abstract clock (default 100ms).
	Tick time.Duration
	// BotDelay pauses before showing each roll of a seat other than the
	// player's, so a person can follow bot turns (the protocol plays them
	// at once). 0 shows them at once.
	BotDelay time.Duration
	// Entropy is the source of the dice hash chain and the game nonce;
	// nil is crypto/rand. Only tests pass another.
	Entropy io.Reader
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// You sits at Red in a local game, as in the solo session.
const localSeat = engine.Red

// LocalSession is a ui.Session for one person against bots on this
// machine, played through the real lockstep protocol: a one-player Node
// with bot seats, dice from the player's hash chain, and a durable log
// that `aeroplane verify` accepts. It opens no network listener.
type LocalSession struct {
	mu     sync.Mutex
	opts   LocalOptions
	q      *queue
	key    crypto.PrivKey
	self   peer.ID
	name   string
	table  *ui.TableUpdate
	rules  engine.Rules
	node   *lockstep.Node
	tr     *Translator
	dir    *savegame.Dir // opened at the first game
	log    *savegame.Log
	closed bool
	ticker *time.Ticker
	done   chan struct{}
}

// errOffline answers the lobby commands a local game has no use for.
var errOffline = errors.New("a local game has no network: start a networked game to play on the LAN")

// errClosed answers every command after Close.
var errClosed = errors.New("the session is closed: start a new one")

// NewLocal starts a local session and emits the lobby.
func NewLocal(opts LocalOptions) (*LocalSession, error) {
	if opts.Name == "" {
		return nil, errors.New("local game: a player name is needed")
	}
	if opts.DataDir == "" {
		return nil, errors.New("local game: a data directory for the game logs is needed")
	}
	if opts.Tick <= 0 {
		opts.Tick = 100 * time.Millisecond
	}
	if opts.Entropy == nil {
		opts.Entropy = rand.Reader
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	key := opts.Key
	if key == nil {
		var err error
		if key, _, err = crypto.GenerateEd25519Key(opts.Entropy); err != nil {
			return nil, fmt.Errorf("local game: cannot make a key: %w", err)
		}
	}
	self, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("local game: %w", err)
	}
	s := &LocalSession{opts: opts, key: key, self: self, name: opts.Name, done: make(chan struct{})}
	s.q = newQueue(func(e ui.Event) time.Duration {
		if r, ok := e.(ui.Rolled); ok && r.Colour != localSeat {
			return opts.BotDelay
		}
		return 0
	})
	s.ticker = time.NewTicker(opts.Tick)
	go s.tickLoop()
	s.emitLobby()
	return s, nil
}

func (s *LocalSession) tickLoop() {
	for {
		select {
		case <-s.ticker.C:
			s.mu.Lock()
			if !s.closed && s.playing() {
				s.syncLog()
				s.node.Tick()
				s.drain()
			}
			s.mu.Unlock()
		case <-s.done:
			return
		}
	}
}

// Events implements ui.Session.
func (s *LocalSession) Events() <-chan ui.Event { return s.q.out }

func (s *LocalSession) emitLobby() {
	s.q.push(ui.LobbyUpdate{Me: ui.Peer{ID: s.self.String(), Name: s.name}})
}

func (s *LocalSession) playing() bool { return s.node != nil && !s.tr.Over() }

// SetName implements ui.Session.
func (s *LocalSession) SetName(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if name == "" {
		return errors.New("a name cannot be empty")
	}
	s.name = name
	if s.table != nil {
		s.table.Seats[localSeat].Name = name
		s.q.push(*s.table)
	}
	s.emitLobby()
	return nil
}

// CreateGame implements ui.Session: the player sits at Red and the other
// seats get bots, one of each kind in turn.
func (s *LocalSession) CreateGame(rules engine.Rules) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.playing() {
		return errors.New("a game is on: finish it first")
	}
	kinds := engine.BotKinds()
	t := &ui.TableUpdate{GameID: "local", Host: true, Rules: rules}
	t.Seats[localSeat] = ui.Seat{Kind: ui.SeatHuman, Name: s.name, PeerID: s.self.String(), You: true, Present: true}
	i := 0
	for c := range engine.NumColours {
		if engine.Colour(c) == localSeat {
			continue
		}
		t.Seats[c] = ui.Seat{Kind: ui.SeatBot, Name: kinds[i%len(kinds)], Present: true, Ready: true}
		i++
	}
	s.table, s.rules = t, rules
	s.q.push(*t)
	return nil
}

// Join implements ui.Session; a local game has nobody to join.
func (s *LocalSession) Join(string) error { return errOffline }

// Connect implements ui.Session; a local game has nobody to connect to.
func (s *LocalSession) Connect(string) error { return errOffline }

// SetSeat implements ui.Session.
func (s *LocalSession) SetSeat(seat engine.Colour, kind string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	switch {
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing():
		return errors.New("seats are fixed once the game has started")
	case seat >= engine.NumColours:
		return fmt.Errorf("seat %d does not exist", seat)
	case seat == localSeat:
		return errors.New("that is your own seat")
	}
	if kind == "" {
		s.table.Seats[seat] = ui.Seat{Kind: ui.SeatOpen}
	} else {
		if _, err := engine.NewBot(kind); err != nil {
			return err
		}
		s.table.Seats[seat] = ui.Seat{Kind: ui.SeatBot, Name: kind, Present: true, Ready: true}
	}
	s.q.push(*s.table)
	return nil
}

// SetRules implements ui.RulesSetter: the rules of the table, until the
// game starts.
func (s *LocalSession) SetRules(r engine.Rules) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errClosed
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing():
		return errors.New("the rules are fixed once the game has started")
	}
	s.table.Rules, s.rules = r, r
	s.q.push(*s.table)
	return nil
}

// Start implements ui.Session.
func (s *LocalSession) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	switch {
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing():
		return errors.New("the game has already started")
	}
	return s.start()
}

// Rematch implements ui.Session: a new game (new nonce, new dice chain,
// new log) with the same seats and rules.
func (s *LocalSession) Rematch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.node == nil || s.playing() {
		return errors.New("a rematch follows a finished game")
	}
	return s.start()
}

// setup is the lockstep Setup of the table as it is now.
func (s *LocalSession) setup() (lockstep.Setup, error) {
	st := lockstep.Setup{Version: lockstep.Version, Name: "local", Rules: s.rules}
	for c, seat := range s.table.Seats {
		switch {
		case seat.You:
			st.Seats = append(st.Seats, lockstep.Seat{Colour: engine.Colour(c), Player: s.self})
		case seat.Kind == ui.SeatBot:
			st.Seats = append(st.Seats, lockstep.Seat{Colour: engine.Colour(c), Bot: seat.Name})
		}
	}
	if len(st.Seats) < 2 {
		return st, errors.New("give at least one more seat to a bot")
	}
	if _, err := io.ReadFull(s.opts.Entropy, st.Nonce[:]); err != nil {
		return st, fmt.Errorf("cannot draw the game nonce: %w", err)
	}
	return st, st.Validate()
}

func (s *LocalSession) start() error {
	setup, err := s.setup()
	if err != nil {
		return err
	}
	cfg := lockstep.Config{Setup: setup, Self: s.self, Key: s.key}
	if _, err := io.ReadFull(s.opts.Entropy, cfg.Entropy[:]); err != nil {
		return fmt.Errorf("cannot draw the dice entropy: %w", err)
	}
	node, err := lockstep.NewNode(cfg)
	if err != nil {
		return fmt.Errorf("cannot start the game: %w", err)
	}
	if s.dir == nil {
		if s.dir, err = savegame.Open(s.opts.DataDir); err != nil {
			return err
		}
	}
	lg, err := s.dir.CreateLocal(node.GameID(), time.Now())
	if err != nil {
		return err
	}
	s.closeLog()
	s.node, s.log = node, lg
	s.tr = NewTranslator(setup, s.self, map[peer.ID]string{s.self: s.name}, lg.Path())
	s.table.Started = true
	s.table.Seats[localSeat].Ready = true
	s.q.push(*s.table)
	s.opts.Logger.Info("local game started", "game", node.GameID(), "log", lg.Path())
	s.drain()
	return nil
}

// drain does what the node's Readies ask: log durably, show the events.
// The messages would go to other players; a local game has none.
func (s *LocalSession) drain() {
	for s.node.HasReady() {
		rd := s.node.Ready()
		if s.log != nil {
			if err := writeEntries(s.log, rd.LogEntries); err != nil {
				s.opts.Logger.Error("game log", "err", err)
				s.q.push(ui.Notice{Text: "the game log cannot be saved, the game goes on without it: " + err.Error()})
				s.closeLog()
				s.tr.SetLogPath("")
			}
		}
		evs := s.tr.Translate(rd.Events, rd.State)
		s.node.Advance(rd)
		s.q.push(evs...)
	}
	if s.tr.Over() {
		s.closeLog()
	}
}

// writeEntries is p2p's policy for a LAN game's log, though a local game
// sends nothing: entries are written at once and fsynced lazily (on the
// next tick, at the end), the Setup record's at once, so a log on disk
// always names its game.
func writeEntries(l *savegame.Log, recs []lockstep.Record) error {
	if err := l.Write(recs); err != nil {
		return err
	}
	for _, r := range recs {
		if r.Type == lockstep.RecordSetup {
			return l.Sync()
		}
	}
	return nil
}

// syncLog is the lazy fsync, once a tick; a failure ends the log as a
// failed write does.
func (s *LocalSession) syncLog() {
	if s.log == nil {
		return
	}
	if err := s.log.Sync(); err != nil {
		s.opts.Logger.Error("game log", "err", err)
		s.q.push(ui.Notice{Text: "the game log cannot be saved, the game goes on without it: " + err.Error()})
		s.closeLog()
		s.tr.SetLogPath("")
	}
}

func (s *LocalSession) closeLog() {
	if s.log != nil {
		if err := s.log.Close(); err != nil {
			s.opts.Logger.Error("game log", "err", err)
		}
		s.log = nil
	}
}

// Roll implements ui.Session.
func (s *LocalSession) Roll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.canAct(); err != nil {
		return err
	}
	err := s.tr.Roll(s.node)
	s.drain()
	return err
}

// Choose implements ui.Session.
func (s *LocalSession) Choose(m engine.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.canAct(); err != nil {
		return err
	}
	err := s.tr.Choose(s.node, m)
	s.drain()
	return err
}

func (s *LocalSession) canAct() error {
	switch {
	case s.closed:
		return errClosed
	case s.node == nil:
		return errors.New("no game is on: create one and start it")
	}
	return nil
}

// Chat implements ui.Session: alone, a player only talks to the log panel.
func (s *LocalSession) Chat(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.q.push(ui.ChatLine{From: s.name, Colour: localSeat, Text: text})
	return nil
}

// Close implements ui.Session. An unfinished game's log stays on disk and
// verifies as far as it went.
func (s *LocalSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.ticker.Stop()
		close(s.done)
		s.closeLog()
		s.q.close()
	}
	return nil
}

var _ ui.Session = (*LocalSession)(nil)
