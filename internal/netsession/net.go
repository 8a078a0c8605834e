package netsession

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// NetOptions configures a NetSession.
type NetOptions struct {
	// Name is the player's name as others see it (required).
	Name string
	// DataDir receives each game's log (game-ID.log, public) and its dice
	// secret (game-ID.secret, mode 0600, for a restart) (required).
	DataDir string
	// Key is the player's libp2p identity (required): p2p.LoadOrCreateIdentity.
	Key crypto.PrivKey
	// ListenIPs and Port choose where the host listens (default: the LAN
	// addresses, a free port). Tests pass loopback inside a namespace.
	ListenIPs []net.IP
	Port      int
	// Connect lists addresses dialled at the start (--connect): a multiaddr
	// or HOST:PORT each. Connect adds more later.
	Connect []string
	// NoDiscovery turns mDNS off (multicast blocked): only manual connect.
	NoDiscovery bool
	// Transport and Discovery tune p2p (zero values: its defaults).
	Transport p2p.TransportConfig
	Discovery p2p.DiscoveryConfig
	// Tick is lockstep's unit of time and AbsentTicks how many of them a
	// silent player is waited for (zero values: p2p's and lockstep's defaults).
	Tick        time.Duration
	AbsentTicks int
	// ManualRoll makes the player roll with Roll when DiceWaiting says
	// YouRoll (default: this player's share of every roll is revealed by
	// itself). RollWithin is how long a roll is waited for before it is
	// made for the player, so the other peers never count a slow key as an
	// absent player (default: 60% of their absence wait, AbsentTicks ticks;
	// negative: never).
	ManualRoll bool
	RollWithin time.Duration
	// Linger keeps answering peers after a game ends (default p2p's, 2 s);
	// Rematch waits for it.
	Linger time.Duration
	// FindFor is how long Start looks for a lobby of the same name before
	// creating it (default 300 ms; the name has a random suffix).
	FindFor time.Duration
	// Logger receives diagnostics (never the terminal); nil discards them.
	Logger *slog.Logger
}

type netMode uint8

const (
	modeIdle  netMode = iota // browsing the lobby, maybe drafting a game
	modeLobby                // in p2p.RunLobby: waiting for the seats to fill
	modeGame                 // a p2p.Session drives the game
)

// draft is a game this player is setting up before Start opens it.
type draft struct {
	lobby string
	rules engine.Rules
	seats [engine.NumColours]ui.Seat
}

// lobbyPlan is what RunLobby is called with, kept for a rematch.
type lobbyPlan struct {
	hosting bool
	cfg     p2p.LobbyConfig
	gen     uint64 // NetSession.gen when launched: a plan left since is void
	// startNow closes when the creator starts before every seat is taken
	// (p2p.LobbyConfig.StartNow); early records that it was closed.
	startNow chan struct{}
	early    bool
}

// NetSession is a ui.Session for a game on the LAN: the lobby comes from
// mDNS discovery and manual connects, games are set up with p2p.RunLobby
// and played with p2p.Session driving a lockstep.Node; every Ready is
// translated by a Translator. It is the only part of netsession that
// opens a network listener (through p2p).
type NetSession struct {
	opts NetOptions
	log  *slog.Logger
	q    *queue
	h    host.Host
	t    *p2p.Transport
	d    *p2p.Discovery
	chat *p2p.Chat
	self peer.ID

	ctx    context.Context
	cancel context.CancelFunc
	jobs   chan lobbyPlan
	wg     sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	name      string
	manual    []peer.AddrInfo
	names     map[peer.ID]string
	mode      netMode
	draft     *draft
	cur       *lobbyPlan // the lobby being waited in
	inLobby   int        // players in it, as its last view showed
	last      *lobbyPlan // the lobby of the last game that started, for Rematch
	jobCancel context.CancelFunc
	gen       uint64 // bumps on every launch and on leaving a lobby
	rematch   bool   // Rematch asked while the last game lingered
	gameOver  bool   // the game being driven has ended (p2p lingers a moment)
	sess      *p2p.Session
	sessDone  chan struct{}
	tr        *Translator
	myColour  engine.Colour
	lastLobby *ui.LobbyUpdate
}

// NewNet starts the host, the transport and discovery, and emits the lobby.
func NewNet(opts NetOptions) (*NetSession, error) {
	switch {
	case p2p.CleanName(opts.Name) == "":
		return nil, errors.New("network game: a player name is needed")
	case opts.DataDir == "":
		return nil, errors.New("network game: a data directory for the game logs is needed")
	case opts.Key == nil:
		return nil, errors.New("network game: an identity key is needed (p2p.LoadOrCreateIdentity)")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.FindFor <= 0 {
		opts.FindFor = 300 * time.Millisecond
	}
	if opts.Transport.Logger == nil {
		opts.Transport.Logger = opts.Logger
	}
	if opts.Discovery.Logger == nil {
		opts.Discovery.Logger = opts.Logger
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: opts.Key, ListenIPs: opts.ListenIPs, Port: opts.Port})
	if err != nil {
		return nil, err
	}
	s := &NetSession{opts: opts, log: opts.Logger, h: h, self: h.ID(), name: p2p.CleanName(opts.Name),
		names: map[peer.ID]string{}, jobs: make(chan lobbyPlan, 1), myColour: engine.NoColour}
	s.names[s.self] = s.name
	s.t = p2p.NewTransport(h, opts.Transport)
	s.chat = p2p.NewChat(s.t)
	if !opts.NoDiscovery {
		if s.d, err = p2p.StartDiscovery(h, p2p.Advert{Name: s.name}, opts.Discovery); err != nil {
			s.t.Close()
			h.Close()
			return nil, fmt.Errorf("%w (or pass NoDiscovery and connect by address)", err)
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.q = newQueue(nil)
	for _, a := range opts.Connect {
		s.connect(a)
	}
	s.wg.Add(2)
	go s.owner()
	go s.watchLobby()
	s.emitLobby()
	return s, nil
}

// Events implements ui.Session.
func (s *NetSession) Events() <-chan ui.Event { return s.q.out }

// ID is this player's peer ID.
func (s *NetSession) ID() peer.ID { return s.self }

// Addrs are the addresses another player can type to connect here.
func (s *NetSession) Addrs() []string { return p2p.DialableAddrs(s.h) }

// SetName implements ui.Session. The new name shows in the lobby at once
// and in games set up from then on.
func (s *NetSession) SetName(name string) error {
	name = p2p.CleanName(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errClosed
	case name == "":
		return errors.New("a name cannot be empty")
	case s.mode != modeIdle:
		return errors.New("the name cannot change during a game: change it in the lobby")
	}
	s.name = name
	s.names[s.self] = name
	if s.d != nil {
		if err := s.d.Update(p2p.Advert{Name: name}); err != nil {
			return err
		}
	}
	if s.draft != nil {
		s.draft.seats[0].Name = name
		s.q.push(s.draftTable())
	}
	go s.emitLobby()
	return nil
}

// CreateGame implements ui.Session: a draft with this player at Red and
// the other seats open; SetSeat gives seats to bots, and Start opens the
// game to the LAN.
func (s *NetSession) CreateGame(rules engine.Rules) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leaveLobby()
	if err := s.idle(); err != nil {
		return err
	}
	var suffix [2]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return err
	}
	// Names are the lobby's identity on the LAN: a suffix keeps two
	// players of the same name from merging their games.
	base := p2p.CleanName(s.name)
	if len(base) > p2p.MaxNameLen-5 {
		base = p2p.CleanName(base[:p2p.MaxNameLen-5])
	}
	d := &draft{lobby: base + " " + hex.EncodeToString(suffix[:]), rules: rules}
	d.seats[0] = ui.Seat{Kind: ui.SeatHuman, Name: s.name, PeerID: s.self.String(), You: true, Present: true}
	s.draft = d
	s.q.push(s.draftTable())
	return nil
}

func (s *NetSession) idle() error {
	switch {
	case s.closed:
		return errClosed
	case s.mode == modeLobby && s.cur != nil && s.cur.hosting:
		return errors.New("you are waiting in your game's lobby: it starts when its seats are full, or at once if you start it again")
	case s.mode == modeLobby:
		return errors.New("you are waiting in a lobby: the game starts when its seats are full")
	case s.mode == modeGame && s.gameOver:
		return errors.New("the last game is still saying goodbye to the others: try again in a moment")
	case s.mode == modeGame:
		return errors.New("a game is on: finish it first")
	}
	return nil
}

// leaveLobby gives up waiting in a lobby so that another game can be
// created or joined; the caller holds mu.
func (s *NetSession) leaveLobby() {
	if s.mode != modeLobby {
		return
	}
	s.gen++
	if s.jobCancel != nil {
		s.jobCancel()
		s.jobCancel = nil
	}
	select {
	case <-s.jobs:
	default:
	}
	s.mode = modeIdle
}

func (s *NetSession) draftTable() ui.TableUpdate {
	return ui.TableUpdate{GameID: s.draft.lobby, Host: true, Rules: s.draft.rules, Seats: s.draft.seats}
}

// SetSeat implements ui.Session, for the game this player drafts.
func (s *NetSession) SetSeat(seat engine.Colour, kind string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.idle(); err != nil {
		return err
	}
	switch {
	case s.draft == nil:
		return errors.New("create a game first: seats belong to the player who created it")
	case seat >= engine.NumColours:
		return fmt.Errorf("seat %d does not exist", seat)
	case seat == 0:
		return errors.New("that is your own seat")
	}
	if kind == "" {
		s.draft.seats[seat] = ui.Seat{Kind: ui.SeatOpen}
	} else {
		if _, err := engine.NewBot(kind); err != nil {
			return err
		}
		s.draft.seats[seat] = ui.Seat{Kind: ui.SeatBot, Name: kind, Present: true, Ready: true}
	}
	s.q.push(s.draftTable())
	return nil
}

// Start implements ui.Session. For the creator it opens the drafted game
// on the LAN: each open seat waits for a player, and the game starts when
// they are all in; Start again starts it at once with the players in, the
// seats still open left out. p2p's lobby seats players in joining order,
// then the bots, each of the kind its seat was given. A player who joined
// someone's game is ready already.
func (s *NetSession) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.mode == modeLobby && !s.cur.hosting {
		return nil
	}
	if s.mode == modeLobby {
		switch {
		case s.cur.early:
		case s.inLobby+s.cur.cfg.Bots < 2:
			return errors.New("nobody has joined yet: wait for a player, or create the game again with a seat given to a bot")
		default:
			s.cur.early = true
			close(s.cur.startNow)
		}
		return nil
	}
	if err := s.idle(); err != nil {
		return err
	}
	if s.draft == nil {
		return errors.New("create a game first, or join one from the lobby")
	}
	cfg := p2p.LobbyConfig{Lobby: s.draft.lobby, Rules: s.draft.rules, Players: 1, FindFor: s.opts.FindFor}
	for _, st := range s.draft.seats[1:] {
		switch st.Kind {
		case ui.SeatOpen:
			cfg.Players++
		case ui.SeatBot:
			cfg.BotKinds = append(cfg.BotKinds, st.Name)
			cfg.Bots++
		}
	}
	if cfg.Players+cfg.Bots < 2 {
		return errors.New("leave a seat open for a player or give it to a bot")
	}
	s.launch(lobbyPlan{hosting: true, cfg: cfg})
	return nil
}

// Join implements ui.Session: gameID is a Game.ID of a LobbyUpdate (the
// lobby's name). The game starts when its creator's seats are full. Join
// or CreateGame while waiting in a lobby leaves it.
func (s *NetSession) Join(gameID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leaveLobby()
	if err := s.idle(); err != nil {
		return err
	}
	if p2p.CleanName(gameID) == "" || p2p.CleanName(gameID) != gameID {
		return fmt.Errorf("%q is not a game of the lobby", gameID)
	}
	s.draft = nil
	// A joiner never creates the lobby: it keeps looking for its host.
	s.launch(lobbyPlan{cfg: p2p.LobbyConfig{Lobby: gameID, FindFor: 24 * time.Hour}})
	s.q.push(ui.TableUpdate{GameID: gameID})
	return nil
}

// Rematch implements ui.Session: the same lobby again. The creator opens
// it; the others join it, so every player has to ask.
func (s *NetSession) Rematch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mode == modeGame && s.gameOver && !s.closed {
		s.rematch = true // launched as soon as the last game lets go
		return nil
	}
	if err := s.idle(); err != nil {
		return err
	}
	if s.last == nil {
		return errors.New("a rematch follows a finished game")
	}
	s.launch(*s.last)
	return nil
}

// launch hands a lobby to the owner goroutine; the caller holds mu and
// has checked the session is idle.
func (s *NetSession) launch(p lobbyPlan) {
	s.gen++
	p.gen = s.gen
	p.startNow, p.early = make(chan struct{}), false
	s.inLobby = 0
	s.mode = modeLobby
	s.cur = &p
	s.jobs <- p
}

// Connect implements ui.Session: the peer is dialled in the background
// (a notice says how it went) and asked for the lobby of any game joined
// or created from then on.
func (s *NetSession) Connect(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.connect(addr)
	return nil
}

func (s *NetSession) connect(addr string) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		info, err := p2p.ResolveAddr(ctx, s.opts.Key, addr)
		if err == nil {
			err = s.t.Connect(ctx, info)
		}
		if err != nil {
			s.log.Warn("manual connect failed", "addr", addr, "err", err)
			s.q.push(ui.Notice{Text: fmt.Sprintf("cannot connect to %s: %v", addr, err)})
			return
		}
		s.mu.Lock()
		s.manual = append(s.manual, info)
		s.mu.Unlock()
		s.q.push(ui.Notice{Text: "connected to " + addr})
		s.emitLobby()
	}()
}

// Roll implements ui.Session. With NetOptions.ManualRoll the roll goes to
// the node on the session driver's goroutine, like Choose; without it
// p2p reveals this player's share of every roll by itself.
func (s *NetSession) Roll() error {
	if !s.opts.ManualRoll {
		if _, err := s.game(); err != nil {
			return err
		}
		return errors.New("in this LAN game your share of every roll is revealed by itself: just wait for the die")
	}
	return s.act(func(tr *Translator, n *lockstep.Node) error { return tr.Roll(n) })
}

// Choose implements ui.Session: the move goes to the node on the session
// driver's goroutine, and the answer comes back before Choose returns.
func (s *NetSession) Choose(m engine.Move) error {
	return s.act(func(tr *Translator, n *lockstep.Node) error { return tr.Choose(n, m) })
}

type gameRefs struct {
	sess *p2p.Session
	tr   *Translator
	done chan struct{}
}

// game returns the game being driven, or why there is none.
func (s *NetSession) game() (gameRefs, error) {
	s.mu.Lock()
	g, closed := gameRefs{s.sess, s.tr, s.sessDone}, s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return g, errClosed
	case g.sess == nil:
		return g, errors.New("no game is on")
	}
	select {
	case <-g.done:
		return g, ErrGameOver
	default:
	}
	return g, nil
}

// act runs f on the session driver's goroutine (the only one that touches
// the translator and the node) and returns its answer.
func (s *NetSession) act(f func(*Translator, *lockstep.Node) error) error {
	g, err := s.game()
	if err != nil {
		return err
	}
	reply := make(chan error, 1)
	go g.sess.Do(func(n *lockstep.Node) error {
		err := f(g.tr, n)
		reply <- err
		return err
	})
	select {
	case err := <-reply:
		return err
	case <-g.done:
		return ErrGameOver
	}
}

// Chat implements ui.Session: the line goes to every connected player (in
// a game: every player of it).
func (s *NetSession) Chat(text string) error {
	s.mu.Lock()
	name, colour, closed := s.name, s.myColour, s.closed
	s.mu.Unlock()
	if closed {
		return errClosed
	}
	line, err := s.chat.Say(text)
	if line.Seq == 0 {
		return err
	}
	if err != nil {
		s.log.Info("chat line not delivered to everyone", "err", err)
	}
	s.q.push(ui.ChatLine{From: name, Colour: colour, Text: line.Text})
	return nil
}

func (s *NetSession) onChat(l p2p.ChatLine) {
	s.mu.Lock()
	name := s.names[l.From]
	colour := engine.NoColour
	if s.tr != nil {
		colour = s.tr.ColourOf(l.From)
	}
	s.mu.Unlock()
	if name == "" {
		name = shortID(l.From)
	}
	s.q.push(ui.ChatLine{From: name, Colour: colour, Text: l.Text})
}

func shortID(id peer.ID) string {
	s := id.String()
	if len(s) > 8 {
		return "…" + s[len(s)-6:]
	}
	return s
}

// Close implements ui.Session: it leaves any lobby or game (its log stays
// on disk and verifies as far as it went) and shuts the network down.
func (s *NetSession) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	if s.d != nil {
		s.d.Close()
	}
	s.t.Close()
	err := s.h.Close()
	s.q.close()
	return err
}

var _ ui.Session = (*NetSession)(nil)
