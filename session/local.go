package session

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
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
	// Clock is the driver's (its ticks); nil is the machine's. Only
	// tests pass another.
	Clock lockstep.Clock
	// People are more people playing at this laptop (hot seat), seated
	// at every game created (AddPerson) after Name.
	People []string
}

// You sits at Red in a local game, as in the solo session.
const localSeat = engine.Red

// LocalSession is a ui.Session for one person against bots on this
// machine, played through the real lockstep protocol: a one-player Node
// with bot seats, run by lockstep.Driver over a link to nobody, dice from
// the player's hash chain, and a durable log that `aeroplane verify`
// accepts. It opens no network listener.
type LocalSession struct {
	mu    sync.Mutex
	opts  LocalOptions
	q     *queue
	key   crypto.PrivKey
	self  peer.ID
	name  string
	table *ui.TableUpdate
	rules engine.Rules
	// The game being played (dir is opened by NewLocal): its driver (the only goroutine that touches
	// the node and tr), its log, and whether it is over (set by the
	// driver before the GameOver event is shown).
	drv  *lockstep.Driver
	gid  lockstep.GameID
	tr   *Translator
	dir  *savegame.Dir
	log  *savegame.Log // closed by the driver's goroutine when it is done
	over bool
	// paused: the game being played was paused together (localpause.go):
	// over for the commands, and offered in the lobby (saved) to continue
	paused bool
	saved  []*savegame.LocalSaved
	// keys are the seat keys of the people at this laptop by seat ID;
	// hot the other people's seats of the game being played (hotseat.go)
	keys    map[peer.ID]crypto.PrivKey
	hot     []*hotSeat
	stop    context.CancelFunc
	runDone chan struct{} // closes when the driver and the log are done
	closed  bool
}

// errOffline answers the lobby commands a local game has no use for.
var errOffline = ui.Errorf("err.offline")

// errClosed answers every command after Close.
var errClosed = ui.Errorf("err.closed")

// Refusals both sessions give.
var (
	errGameOn      = ui.Errorf("err.gameon")
	errCreateFirst = ui.Errorf("err.createfirst")
	errRematch     = ui.Errorf("err.rematch")
)

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
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	dir, err := savegame.Open(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("local game: %w", err)
	}
	key := opts.Key
	switch {
	case key == nil && opts.Entropy == nil:
		// The same name is the same seat on every later day: its games
		// can be continued (localpause.go).
		if key, err = dir.SeatKey(opts.Name); err != nil {
			return nil, fmt.Errorf("local game: %w", err)
		}
	case key == nil:
		if key, _, err = crypto.GenerateEd25519Key(opts.Entropy); err != nil {
			return nil, fmt.Errorf("local game: cannot make a key: %w", err)
		}
	}
	if opts.Entropy == nil {
		opts.Entropy = rand.Reader
	}
	self, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("local game: %w", err)
	}
	s := &LocalSession{opts: opts, key: key, self: self, name: opts.Name, dir: dir, keys: map[peer.ID]crypto.PrivKey{self: key}}
	var people [engine.NumColours]bool // colours a person here plays, for the pace
	s.q = newQueue(func(e ui.Event) time.Duration {
		switch e := e.(type) {
		case ui.TableUpdate:
			for c, st := range e.Seats {
				people[c] = st.You
			}
		case ui.Rolled:
			if e.Colour < engine.NumColours && !people[e.Colour] {
				return opts.BotDelay
			}
		}
		return 0
	})
	s.mu.Lock()
	s.findLocalPaused()
	s.emitLobby()
	s.mu.Unlock()
	return s, nil
}

// Events implements ui.Session.
func (s *LocalSession) Events() <-chan ui.Event { return s.q.out }

// emitLobby shows the lobby with the games to continue (s.mu held).
func (s *LocalSession) emitLobby() {
	s.q.push(ui.LobbyUpdate{Me: ui.Peer{ID: s.self.String(), Name: s.name}, Continue: s.continuable()})
}

func (s *LocalSession) playing() bool { return s.drv != nil && !s.over }

// SetName implements ui.Session.
func (s *LocalSession) SetName(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if name == "" {
		return ui.Errorf("err.emptyname")
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
		return errGameOn
	}
	kinds := engine.BotKinds()
	t := &ui.TableUpdate{GameID: "local", Offline: true, Host: true, Rules: rules}
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
	for _, name := range s.opts.People {
		s.mu.Unlock()
		err := s.AddPerson(name)
		s.mu.Lock()
		if err != nil {
			return fmt.Errorf("seating %s: %w", name, err)
		}
	}
	return nil
}

// openDir opens the data directory once; s.mu is held.
func (s *LocalSession) openDir() error {
	if s.dir != nil {
		return nil
	}
	d, err := savegame.Open(s.opts.DataDir)
	if err != nil {
		return err
	}
	s.dir = d
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
		return errCreateFirst
	case s.playing():
		return ui.Errorf("err.seatsfixed")
	case seat >= engine.NumColours:
		return ui.Errorf("err.noseat", int(seat))
	case seat == localSeat:
		return ui.Errorf("err.ownseat")
	}
	if kind == "" {
		s.table.Seats[seat] = ui.Seat{Kind: ui.SeatOpen}
	} else {
		if _, err := engine.NewBot(kind); err != nil {
			return ui.Errorf("err.botkind", kind, strings.Join(engine.BotKinds(), ", "))
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
		return errCreateFirst
	case s.playing():
		return ui.Errorf("err.rulesfixed")
	}
	s.table.Rules, s.rules = r, r
	s.q.push(*s.table)
	return nil
}

// Start implements ui.Session.
func (s *LocalSession) Start() error {
	s.mu.Lock()
	var err error
	switch {
	case s.closed:
		err = errClosed
	case s.table == nil:
		err = errCreateFirst
	case s.playing():
		err = ui.Errorf("err.started")
	default:
		err = s.start()
	}
	s.mu.Unlock()
	return s.started(err)
}

// started waits, once a game has started, until its driver has logged and
// shown what the node had ready (the setup first): when Start returns, the
// log names its game. It runs without s.mu, which the driver may take.
func (s *LocalSession) started(err error) error {
	if err != nil {
		return err
	}
	s.mu.Lock()
	drv := s.drv
	s.mu.Unlock()
	_ = drv.Do(func(*lockstep.Node) error { return nil })
	return nil
}

// Rematch implements ui.Session: a new game (new nonce, new dice chain,
// new log) with the same seats and rules.
func (s *LocalSession) Rematch() error {
	s.mu.Lock()
	var err error
	switch {
	case s.closed:
		err = errClosed
	case s.drv == nil || s.playing() || s.paused:
		err = errRematch
	default:
		err = s.start()
	}
	s.mu.Unlock()
	return s.started(err)
}

// setup is the lockstep Setup of the table as it is now.
func (s *LocalSession) setup() (lockstep.Setup, error) {
	st := lockstep.Setup{Version: lockstep.Version, Name: "local", Rules: s.rules}
	cs, ids := s.localSeats()
	for c, seat := range s.table.Seats {
		switch {
		case seat.You:
			if i := slices.Index(cs, engine.Colour(c)); i >= 0 {
				st.Seats = append(st.Seats, lockstep.Seat{Colour: engine.Colour(c), Player: ids[i]})
			}
		case seat.Kind == ui.SeatBot:
			st.Seats = append(st.Seats, lockstep.Seat{Colour: engine.Colour(c), Bot: seat.Name})
		}
	}
	if len(st.Seats) < 2 {
		return st, ui.Errorf("err.needbot")
	}
	if _, err := io.ReadFull(s.opts.Entropy, st.Nonce[:]); err != nil {
		return st, ui.Errorf("err.start", err)
	}
	return st, st.Validate()
}

// start begins a new game; s.mu is held. The last game, if any, is over:
// its driver has shown its last Ready and only syncs and closes its log.
func (s *LocalSession) start() error {
	setup, err := s.setup()
	if err != nil {
		return err
	}
	return s.run(setup, nil)
}

// run plays setup with the seats of s.table: a new game, or with res the
// saved game taken up from its log (localpause.go); s.mu is held.
func (s *LocalSession) run(setup lockstep.Setup, res *localResume) error {
	cs, ids := s.localSeats()
	secrets := map[peer.ID][32]byte{}
	for _, id := range ids {
		var e [32]byte
		if res != nil {
			e = res.saved.Secrets[id]
		} else if _, err := io.ReadFull(s.opts.Entropy, e[:]); err != nil {
			res.close()
			return ui.Errorf("err.start", err)
		}
		secrets[id] = e
	}
	// People at the keys are waited for: nobody else is there to vote
	// one of them absent (with one person, nobody votes at all).
	cfg := lockstep.Config{Setup: setup, Self: s.self, Key: s.key, AbsentTicks: -1, Entropy: secrets[s.self]}
	var past []lockstep.Record
	if res != nil {
		past = res.records
	}
	node, err := newLocalNode(cfg, past)
	if err != nil {
		res.close()
		return ui.Errorf("err.start", err)
	}
	if s.runDone != nil {
		<-s.runDone
	}
	if err := s.openDir(); err != nil {
		res.close()
		return err
	}
	names := map[peer.ID]string{}
	for i, id := range ids {
		names[id] = s.table.Seats[cs[i]].Name
	}
	hub, err := lockstep.NewHub(noLink{}, ids...)
	if err != nil {
		res.close()
		return fmt.Errorf("cannot start the game: %w", err)
	}
	var lg *savegame.Log
	if res != nil {
		lg = res.log
	} else {
		if lg, err = s.dir.CreateLocalGame(setup, time.Now(), secrets); err != nil {
			return err
		}
		if err := s.dir.SaveNamesBeside(lg.Path(), setup, names); err != nil {
			s.opts.Logger.Warn("players' names not saved: the game cannot be continued with its people", "err", err)
		}
	}
	hot, err := s.startHotSeats(setup, hub, names, cs, ids, secrets, lg.Path())
	if err != nil {
		lg.Close()
		return err
	}
	tr := NewTranslator(setup, s.self, names, lg.Path())
	tr.SetHotSeats(ids...)
	hist := res.history(setup, names, tr, hot)
	wasPaused := res != nil && res.saved.Paused // the driver's goroutine's
	drv, err := lockstep.NewDriver(node, lockstep.DriverConfig{Link: hub.Link(s.self), Log: &localLog{l: lg, s: s, tr: tr},
		Tick: s.opts.Tick, Linger: -1, Logger: s.opts.Logger, Clock: s.opts.Clock,
		StopWhenPaused: true, ContinuePaused: true, OnReady: func(rd lockstep.Ready) {
			evs := tr.Translate(rd.Events, rd.State)
			switch {
			case tr.Over():
				s.mu.Lock()
				s.over, s.paused = true, false // before GameOver is shown: a Rematch may follow at once
				s.mu.Unlock()
			case rd.State.Paused != wasPaused:
				// Paused together: no command reaches it (a restored
				// node holds its old pause until its driver lifts it).
				wasPaused = rd.State.Paused
				s.mu.Lock()
				s.over, s.paused = wasPaused, wasPaused
				s.mu.Unlock()
			}
			s.q.push(dropPauseAsks(evs)...)
		}})
	if err != nil {
		lg.Close()
		return ui.Errorf("err.start", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.drv, s.tr, s.log, s.over, s.paused, s.stop, s.runDone, s.hot = drv, tr, lg, false, false, stop, done, hot
	s.gid = node.GameID()
	s.table.Started = true
	for _, c := range cs {
		s.table.Seats[c].Ready = true
	}
	s.q.push(*s.table)
	s.q.push(hist...)
	s.opts.Logger.Info("local game started", "game", node.GameID(), "log", lg.Path(), "continued", res != nil)
	hotDone := runHotSeats(ctx, hub, hot, func(err error) {
		s.opts.Logger.Error("local game: a hot seat", "err", err)
	})
	go func() {
		defer close(done)
		st, err := drv.Run(ctx)
		hotDone()
		for _, h := range hot {
			if err := h.glog.Close(); err != nil {
				s.opts.Logger.Error("a hot seat's log", "err", err)
			}
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			s.opts.Logger.Error("local game", "err", err)
			s.q.push(ui.Notice{Msg: ui.M("note.stopped", err)})
		}
		if err := lg.Close(); err != nil {
			s.opts.Logger.Error("game log", "err", err)
		}
		s.runEnded(st.Paused && err == nil)
	}()
	return nil
}

// noLink is a local game's network: the node has no other player to
// send to, and nothing ever arrives.
type noLink struct{}

func (noLink) Send(peer.ID, []byte) error    { return nil }
func (noLink) Frames() <-chan lockstep.Frame { return nil }
func (noLink) Reach() <-chan lockstep.Reach  { return nil }

// Roll implements ui.Session: for the person whose turn it is.
func (s *LocalSession) Roll() error {
	return s.act(func(tr *Translator, n *lockstep.Node) error { return tr.Roll(n) },
		(*Translator).HotRollCheck, (*Translator).HotRolled)
}

// Choose implements ui.Session: for the person whose turn it is.
func (s *LocalSession) Choose(m engine.Move) error {
	return s.act(func(tr *Translator, n *lockstep.Node) error { return tr.Choose(n, m) },
		func(tr *Translator) error { return tr.HotChooseCheck(m) }, (*Translator).HotChose)
}

// act runs f on the driver of the first seat, or, when another person
// here is to move, on that seat's (hotseat.go: check and done are the
// screen translator's side of it), never holding s.mu, which the driver
// takes to mark the end; it returns f's answer.
func (s *LocalSession) act(f func(*Translator, *lockstep.Node) error, check func(*Translator) error, done func(*Translator, uint64)) error {
	s.mu.Lock()
	err := s.canAct()
	drv, tr, hot := s.drv, s.tr, s.hot
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return actSeats(drv, tr, hot, f, check, done)
}

func (s *LocalSession) canAct() error {
	switch {
	case s.closed:
		return errClosed
	case s.drv == nil:
		return ui.Errorf("err.nolocalgame")
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

// Leave implements ui.Leaver: the player leaves the running game for
// good, as on the LAN. Nobody else is there to be told, so no leave
// message is signed: the game stops where it is, its log stays on disk
// (it verifies as far as it went) marked closed as left on purpose, and
// ui.LeaveDone follows once the log is closed. Leave returns at once.
func (s *LocalSession) Leave() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errClosed
	case !s.playing():
		return ui.Errorf("err.nogame")
	}
	gid := s.gid
	if err := s.dir.MarkClosed(gid, "left on purpose"); err != nil {
		s.opts.Logger.Warn("could not mark the game left", "err", err)
	}
	s.over = true // no command reaches the stopped game
	stop, done := s.stop, s.runDone
	stop()
	go func() {
		<-done
		s.q.first(ui.LeaveDone{})
	}()
	return nil
}

// Close implements ui.Session. An unfinished game's log stays on disk and
// verifies as far as it went.
func (s *LocalSession) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	stop, done := s.stop, s.runDone
	s.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	s.q.close()
	return nil
}

var (
	_ ui.Session = (*LocalSession)(nil)
	_ ui.Leaver  = (*LocalSession)(nil)
)
