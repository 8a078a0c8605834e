package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// NetOptions configures a NetSession.
type NetOptions struct {
	// Name is the player's name as others see it (required).
	Name string
	// DataDir receives each game's files (savegame: its log, public, and
	// its dice secret, mode 0600, for a restart), created (0700) if its
	// parent exists (required).
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
	// absent player (default: 60% of how long they wait for a person to
	// roll or choose, 20 × AbsentTicks ticks, about a minute; negative:
	// never).
	ManualRoll bool
	RollWithin time.Duration
	// GoOnAlone goes on by itself when this player's side of the table
	// is no majority (GameConfig.GoOnAlone); without it the interface
	// asks (ui.AloneDecision, GoOn, EndGame).
	GoOnAlone bool
	// ContinueWait is how long a game paused together and continued
	// (Continue, Resume of a log holding this player's pause) keeps its
	// pause until every other player present at the pause has taken it
	// up too, its program restored from its own log: nobody is voted
	// absent meanwhile. Past it the pause is lifted and the absence rules
	// fly the seats of those not back. 0: DefaultContinueWait; negative:
	// lift at once.
	ContinueWait time.Duration
	// SetupWait bounds how long a game may wait in its setup for every
	// seated player's Confirm (default DefaultSetupWait; below 0, for
	// ever): a player that sat down and never confirms (a stranger, or a
	// program killed between the table and the game) would hold the
	// others there for ever. Past it the game is abandoned, marked closed,
	// and everyone goes back to the table, where the creator reopens it
	// and the others look for it (the rematch rule), each ready by itself
	// (it confirmed); with SetupBot the creator's table has a bot in each
	// seat whose player never confirmed, so it starts again at once.
	SetupWait time.Duration
	// SetupBot is the creator's choice for a game whose setup timed out
	// (SetSetupBot changes it at the table): instead of everyone going
	// back to the table to wait for a new player, the creator reopens it
	// at once with a bot in each seat whose player never confirmed, and
	// the game starts again as soon as the others are back.
	SetupBot bool
	// LeaveWait bounds how long Leave keeps the game running so the
	// others get the Leave (default 3 s; it returns sooner once every
	// other player holds it).
	LeaveWait time.Duration
	// OwnPace keeps BotDelay whatever pace the table's creator set
	// (headless: nobody watches its screen).
	OwnPace bool
	// BotDelay pauses before showing each roll of a seat a bot flies (a
	// bot seat, or the seat of a player absent or gone), so people see
	// the bot think and its move before the next roll; 0 shows every
	// roll at once. The game itself goes at the protocol's pace: only the
	// screen waits, and at most a round behind, as each person's own
	// turn waits for that person.
	BotDelay time.Duration
	// Linger keeps answering peers after a game ends (default the driver's, 2 s);
	// Rematch waits for it.
	Linger time.Duration
	// FindFor is how long Start looks for a lobby of the same name before
	// creating it (default 300 ms; the name has a random suffix).
	FindFor time.Duration
	// Logger receives diagnostics (never the terminal); nil discards them.
	Logger *slog.Logger
	// Observer sees every game as it runs (a front end without a screen).
	Observer Observer
	// AutoReady makes the player ready by itself at the table of a
	// rematch after a resumed game (Enter's tables follow their Config).
	AutoReady bool
	// NoWatchChat, for the games this player creates: the peers
	// watching them may not chat (default: they may, and the players
	// see their lines). The creator decides; every player is told.
	NoWatchChat bool
	// NoResume leaves a game a crash cut short to the caller (Resume);
	// by default the session takes it up by itself.
	NoResume bool
	// People are more people playing at this program (hot seat), each
	// seated at every table it sits at as a player of their own
	// (AddPerson adds more at the table).
	People []string
	// PersonMove, if set, chooses each move of those people (headless:
	// nobody is at the keys); without it the screen asks them.
	PersonMove func(st lockstep.State, rules engine.Rules) engine.Move
}

type netMode uint8

const (
	modeIdle  netMode = iota // browsing the lobby
	modeLobby                // in lobby.Run: seats, colours, ready
	modeGame                 // a Game drives the game
)

// lobbyPlan is what lobby.Run is called with, kept for a rematch.
type lobbyPlan struct {
	hosting bool
	cfg     lobby.Config
	gen     uint64 // NetSession.gen when launched: a plan left since is void
	// startNow is lobby.Config.StartNow (the creator starts with
	// lobby.Control.Start, so it never closes); ctl changes the lobby.
	startNow chan struct{}
	ctl      *lobby.Control
	// resume is a game cut short by a crash, taken up again without a
	// lobby (savegame.Find).
	resume *savegame.Saved
	// watch is the lobby whose running game is watched (Watch).
	watch string
	// take is a seat of a running game to take (TakeSeat).
	take *takePlan
}

// NetSession is a ui.Session for a game on the LAN: the lobby comes from
// mDNS discovery and manual connects, games are set up with lobby.Run
// and played with a Game (lockstep.Driver over the transport); every Ready is
// translated by a Translator. It is the only part of session that
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
	dir  *savegame.Dir // the data directory: every game's files

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
	cur       *lobbyPlan // the lobby being waited in
	last      *lobbyPlan // the lobby of the last game that started, for Rematch
	jobCancel context.CancelFunc
	gen       uint64 // bumps on every launch and on leaving a lobby
	rematch   bool   // Rematch asked while the last game lingered
	// setupBot is the creator's choice for a setup that times out
	// (NetOptions.SetupBot); timedOut makes the next table's players
	// ready by themselves (they confirmed the game it replaces).
	setupBot, timedOut bool
	// proveTried is when each advert's host was last dialled to prove it
	// (netlobby.go), at most proveKept of them.
	proveTried map[peer.ID]time.Time
	gameOver   bool            // the game being driven has ended (the driver lingers a moment)
	gameID     lockstep.GameID // the game being driven (or the last one)
	sess       *Game
	sessDone   chan struct{}
	tr         *Translator
	myColour   engine.Colour
	// lastColour is the colour played in the last game, for a rematch.
	lastColour engine.Colour
	lastLobby  *ui.LobbyUpdate
	// hostView is the last table of a lobby this player created: a
	// rematch opens it again with the same bots, seats and rules.
	hostView *lobby.View
	// peerGames are the games of peers reached by address, as they said;
	// running the games in play whose hosts said so (askRunning).
	peerGames map[peer.ID]lobby.Info
	running   map[string]lobby.Running
	// flown is the game's BotFlown after the last Ready (nil between
	// games), read by the event queue's pace.
	flown atomic.Pointer[[engine.NumColours]bool]
	// watching is the game being watched (Watch), nil when none;
	// serving is this player's last game's watch server, which answers
	// watchers until the next game starts.
	watching *spectator
	serving  *watchServer
	// newcomers are the names the peers admitted to ask for a seat in
	// this player's game gave (admitNewcomer), until the next game.
	newcomers map[peer.ID]string
	// paused are this player's saved games to continue (findPaused);
	// pausing: the player quits keeping its game to continue (Pause);
	// pausedTogether: every player paused the game being driven (its
	// screen is back in the lobby while the driver lingers): quitting
	// then keeps it to continue too.
	paused         []*savegame.Saved
	pausing        bool
	pausedTogether bool
	// tablePace is the bots' pace the game's table set (nil between
	// games, or set false: BotDelay).
	tablePace atomic.Pointer[lobby.Pace]
	// chatWarn says once per session that chat lines are not being saved.
	chatWarn sync.Once
	// heard are the names the adverts and peers reached by address say
	// now, replaced on every lobby view, so a stranger's flood of names
	// lasts as long as discovery lists it; names keeps only the players
	// met in a lobby or a game, and self (see nameOf).
	heard map[peer.ID]string
	// webs are the browser players this program serves (webseat.go),
	// webView the table they were last told.
	webs    map[peer.ID]*webSeat
	webView *lobby.View
	// people are more people playing at this program (netpeople.go),
	// peopleAsked the table (lobbyPlan.gen) each was last seated at,
	// readyAsking those whose ready is being said; hot are their seats
	// in the game on (nil between games).
	people      []netPerson
	peopleAsked map[peer.ID]uint64
	readyAsking map[peer.ID]bool
	hot         []*hotSeat
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
	dir, err := savegame.Open(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("network game: %w", err)
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: opts.Key, ListenIPs: opts.ListenIPs, Port: opts.Port, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	s := &NetSession{opts: opts, log: opts.Logger, h: h, self: h.ID(), dir: dir, name: p2p.CleanName(opts.Name),
		names: map[peer.ID]string{}, heard: map[peer.ID]string{}, jobs: make(chan lobbyPlan, 1), myColour: engine.NoColour, lastColour: engine.NoColour,
		setupBot: opts.SetupBot, proveTried: map[peer.ID]time.Time{}, webs: map[peer.ID]*webSeat{},
		peopleAsked: map[peer.ID]uint64{}, readyAsking: map[peer.ID]bool{}}
	s.names[s.self] = s.name
	for _, name := range opts.People {
		p, err := s.newPersonLocked(p2p.CleanName(name))
		if err != nil {
			h.Close()
			return nil, fmt.Errorf("network game: seating %s: %w", name, err)
		}
		s.people = append(s.people, p)
	}
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
	s.q = newQueue(s.pace)
	for _, a := range opts.Connect {
		s.connect(a)
	}
	s.wg.Add(2)
	go s.owner()
	go s.watchLobby()
	s.emitLobby()
	if !opts.NoResume {
		s.wg.Add(1)
		go s.resumeInterrupted()
	} else {
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.findPaused() }()
	}
	return s, nil
}

// pace is how long the screen waits before e (NetOptions.BotDelay): a
// roll of a seat a bot flies waits, anything else comes at once.
func (s *NetSession) pace(e ui.Event) time.Duration {
	r, ok := e.(ui.Rolled)
	if !ok || r.Colour >= engine.NumColours {
		return 0
	}
	delay := s.opts.BotDelay
	if p := s.tablePace.Load(); p != nil && p.Set && !s.opts.OwnPace {
		delay = p.Delay // the creator's, for every screen at the table
	}
	if f := s.flown.Load(); delay > 0 && f != nil && f[r.Colour] {
		return delay
	}
	return 0
}

// resumeInterrupted takes up the game a crash cut short, if any
// (savegame.Find), unless the player has gone into a lobby meanwhile. The
// search runs beside the lobby, so a data directory full of games never
// delays the start.
func (s *NetSession) resumeInterrupted() {
	defer s.wg.Done()
	s.findPaused()
	g, skipped := s.dir.Find(savegame.Query{Self: s.self, Now: time.Now()})
	for _, err := range skipped {
		s.log.Warn("game log", "err", err)
	}
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.mode != modeIdle {
		s.log.Info("not resuming an interrupted game: the player is in another", "log", g.Path)
		return
	}
	s.log.Info("resuming an interrupted game", "game", g.Setup.GameID().String(), "log", g.Path, "rolls", g.Rolls)
	s.q.push(ui.Notice{Msg: ui.M("note.resuming", g.Setup.Name, g.Rolls, g.Path)})
	s.launch(lobbyPlan{resume: g})
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
		return ui.Errorf("err.emptyname")
	case s.mode != modeIdle:
		return ui.Errorf("err.namegame")
	}
	s.name = name
	s.names[s.self] = name
	if s.d != nil {
		if err := s.d.Update(p2p.Advert{Name: name}); err != nil {
			return err
		}
	}
	go s.emitLobby()
	return nil
}

// CreateGame implements ui.Session: the game opens on the LAN at once,
// with this player at Red and the other seats open for players; SetSeat
// gives seats to bots, ChooseColour moves, SetReady says ready, and Start
// starts (see Start).
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
	name := base + " " + hex.EncodeToString(suffix[:])
	s.launch(lobbyPlan{hosting: true, cfg: lobby.Config{Lobby: name, Rules: rules, Players: engine.NumColours,
		Create: true, ManualReady: true}})
	return nil
}

func (s *NetSession) idle() error {
	switch {
	case s.closed:
		return errClosed
	case s.mode == modeLobby && s.cur != nil && s.cur.hosting:
		return ui.Errorf("err.inownlobby")
	case s.mode == modeLobby:
		return ui.Errorf("err.inlobby")
	case s.mode == modeGame && s.gameOver:
		return ui.Errorf("err.goodbye")
	case s.mode == modeGame:
		return errGameOn
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

// lobbyCtl is the control of the lobby this player waits in, or why
// there is none; hosting is required when only the creator may ask.
func (s *NetSession) lobbyCtl(hosting bool) (*lobby.Control, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, errClosed
	case s.mode == modeLobby && s.cur != nil && (s.cur.hosting || !hosting):
		// Called without mu: the lobby calls back into the session.
		return s.cur.ctl, nil
	case s.mode == modeLobby:
		return nil, ui.Errorf("err.creatorseats")
	case s.mode == modeGame:
		return nil, s.idle()
	case hosting:
		return nil, ui.Errorf("err.createseats")
	}
	return nil, ui.Errorf("err.createorjoin")
}

// SetSeat implements ui.Session: the creator gives a free colour to a bot
// of kind, or with kind "" opens it for a player. Any change of seats
// clears everyone's ready.
func (s *NetSession) SetSeat(seat engine.Colour, kind string) error {
	ctl, err := s.lobbyCtl(true)
	if err != nil {
		return err
	}
	return explain(ctl.SetSeat(seat, kind))
}

// SetSetupBot implements ui.SetupBotChooser: the creator's choice of what
// follows a setup that times out (NetOptions.SetupBot). The table shows it.
func (s *NetSession) SetSetupBot(on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.setupBot = on
	if v := s.hostView; v != nil && s.mode == modeLobby && s.cur != nil && s.cur.hosting {
		s.q.push(s.lobbyTable(*v, true))
	}
	return nil
}

// RemoveSeat takes back the seat at colour c from the guest sitting
// there (the creator only, and only from a guest who has not said ready:
// a stranger who sat down and never plays). The seat is open again, the
// guest is told the table is gone for it, and its joins are refused for
// five minutes. A key in the interface may call it with the colour of
// the row the creator picked.
func (s *NetSession) RemoveSeat(c engine.Colour) error {
	ctl, err := s.lobbyCtl(true)
	if err != nil {
		return err
	}
	s.mu.Lock()
	var who peer.ID
	if v := s.hostView; v != nil {
		for _, p := range v.Players {
			if p.Colour == c {
				who = p.ID
			}
		}
	}
	s.mu.Unlock()
	switch {
	case who == "":
		return ui.Errorf("err.nobodyat", c)
	case who == s.self:
		return ui.Errorf("err.ownseatleave")
	}
	return explain(ctl.Remove(who))
}

// SetBotPace implements ui.PaceSetter: the creator sets the bots' pace
// for every screen at the table (set false: each player's own).
func (s *NetSession) SetBotPace(delay time.Duration, set bool) error {
	ctl, err := s.lobbyCtl(true)
	if err != nil {
		return err
	}
	return explain(ctl.SetPace(lobby.Pace{Set: set, Delay: delay}))
}

// SetRules implements ui.RulesSetter: the creator changes the game's
// rules at the table; every player's ready is cleared.
func (s *NetSession) SetRules(r engine.Rules) error {
	ctl, err := s.lobbyCtl(true)
	if err != nil {
		return err
	}
	return explain(ctl.SetRules(r))
}

// ChooseColour asks the creator's lobby for a seat at colour c; the table
// that comes back says whether this player got it (first asker wins).
func (s *NetSession) ChooseColour(c engine.Colour) error {
	ctl, err := s.lobbyCtl(false)
	if err != nil {
		return err
	}
	return explain(ctl.ChooseColour(c))
}

// SetReady says whether this player is ready for the table as it is now;
// any change of seats or rules clears it.
func (s *NetSession) SetReady(ready bool) error {
	ctl, err := s.lobbyCtl(false)
	if err != nil {
		return err
	}
	if err := ctl.SetReady(ready); err != nil {
		return explain(err)
	}
	return explain(s.readyPeople(ctl, ready))
}

// Start implements ui.Session. For a player who joined, it says ready.
// For the creator it says ready and starts the game with the players in
// (seats still open are left out) if every one of them is ready, and
// otherwise says who is not. The game also starts by itself when every
// seat is taken and everyone is ready.
func (s *NetSession) Start() error {
	s.mu.Lock()
	hosting := s.cur != nil && s.cur.hosting
	s.mu.Unlock()
	ctl, err := s.lobbyCtl(false)
	if err != nil {
		return err
	}
	if !hosting {
		if err = ctl.SetReady(true); err == nil {
			err = s.readyPeople(ctl, true)
		}
	} else {
		// The people here are ready as the creator is: Start needs it.
		if err = ctl.SetReady(true); err == nil {
			err = s.readyPeople(ctl, true)
		}
		if err == nil {
			err = ctl.Start()
		}
	}
	if errors.Is(err, lobby.ErrGone) {
		return nil // pressed again as the game starts
	}
	return explain(err)
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
		return ui.Errorf("err.nolobbygame", gameID)
	}
	// A joiner never creates the lobby: it keeps looking for its host.
	s.launch(lobbyPlan{cfg: lobby.Config{Lobby: gameID, FindFor: 24 * time.Hour, ManualReady: true}})
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
		return errRematch
	}
	s.launch(s.rematchPlan())
	return nil
}

// rematchPlan is the last game's lobby again, with everyone asking for the
// colour it had: the lobby seats a player at its colour if still free,
// whatever order the players come back in. The caller holds mu.
func (s *NetSession) rematchPlan() lobbyPlan {
	p := *s.last
	if s.timedOut {
		p.cfg.ManualReady, s.timedOut = false, false
	}
	p.cfg.Prefer = nil
	if s.lastColour < engine.NumColours {
		p.cfg.Prefer = []engine.Colour{s.lastColour}
	}
	return p
}

// launch hands a lobby to the owner goroutine; the caller holds mu and
// has checked the session is idle.
func (s *NetSession) launch(p lobbyPlan) {
	s.gen++
	p.gen = s.gen
	p.startNow = make(chan struct{})
	if v := s.hostView; p.hosting && v != nil && v.Lobby == p.cfg.Lobby {
		p.cfg.Players, p.cfg.BotSeats, p.cfg.Rules, p.cfg.BotPace = len(v.Players)+v.Free, v.Bots, v.Rules, v.Pace
	}
	p.cfg.NoWatchChat = s.opts.NoWatchChat
	p.ctl = lobby.NewControl(func(v lobby.View) { s.showLobby(p, v) })
	p.cfg.Control = p.ctl
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
			err = s.t.ConnectByHand(ctx, info) // the user typed it
		}
		if err != nil {
			s.log.Warn("manual connect failed", "addr", addr, "err", err)
			s.q.push(ui.Notice{Msg: ui.M("note.connectfail", addr, err)})
			return
		}
		s.mu.Lock()
		s.manual = append(s.manual, info)
		s.mu.Unlock()
		s.q.push(ui.Notice{Msg: ui.M("note.connected", addr)})
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
		return ui.Errorf("err.autoreveal")
	}
	return s.actTurn(func(tr *Translator, n *lockstep.Node) error { return tr.Roll(n) },
		(*Translator).HotRollCheck, (*Translator).HotRolled)
}

// Choose implements ui.Session: the move goes to the node on the session
// driver's goroutine, and the answer comes back before Choose returns.
func (s *NetSession) Choose(m engine.Move) error {
	return s.actTurn(func(tr *Translator, n *lockstep.Node) error { return tr.Choose(n, m) },
		func(tr *Translator) error { return tr.HotChooseCheck(m) }, (*Translator).HotChose)
}

type gameRefs struct {
	sess *Game
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
		return g, ui.Errorf("err.nogame")
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
	err = g.sess.Do(func(n *lockstep.Node) error { return f(g.tr, n) })
	if errors.Is(err, lockstep.ErrStopped) {
		return ErrGameOver
	}
	return err
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
	if watching, err := s.watchSay(text); err != nil {
		return err
	} else if watching {
		// A watcher says it to the player it watches, who shows it
		// and hands it to the game's other watchers (if the table lets
		// watchers chat).
		s.q.push(ui.ChatLine{From: name + " (watching)", Colour: engine.NoColour, Text: text})
		return nil
	}
	line, err := s.chat.Say(text)
	if line.Seq == 0 {
		return err
	}
	if err != nil {
		s.log.Info("chat line not delivered to everyone", "err", err)
	}
	l := ui.ChatLine{From: name, Colour: colour, Text: line.Text}
	s.q.push(l)
	s.keepChat(l)
	s.toWatchers(name, line.Text)
	s.toWebs(s.self, l)
	return nil
}

// toWatchers hands a chat line of the game to the peers watching it here.
func (s *NetSession) toWatchers(from, text string) {
	s.mu.Lock()
	srv := s.serving
	s.mu.Unlock()
	if srv != nil {
		srv.said(from, text)
	}
}

func (s *NetSession) onChat(l p2p.ChatLine) {
	if f := s.opts.Observer.Chat; f != nil {
		f(l)
	}
	s.mu.Lock()
	name := s.nameOf(l.From)
	colour := engine.NoColour
	if s.tr != nil {
		colour = s.tr.ColourOf(l.From)
	}
	s.mu.Unlock()
	if name == "" {
		name = shortID(l.From)
	}
	line := ui.ChatLine{From: name, Colour: colour, Text: l.Text}
	s.q.push(line)
	s.keepChat(line)
	s.toWatchers(name, l.Text)
	s.toWebs(l.From, line)
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
	if s.mode == modeGame && s.sess != nil && !s.gameOver && !s.pausing && !s.pausedTogether {
		// Quitting while a game is on leaves it: the next start must
		// not take the seat back (savegame.Find).
		if err := s.dir.MarkClosed(s.gameID, "left on purpose"); err != nil {
			s.log.Warn("could not mark the game left", "err", err)
		}
	}
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

var (
	_ ui.Session     = (*NetSession)(nil)
	_ ui.SeatChooser = (*NetSession)(nil)
	_ ui.Leaver      = (*NetSession)(nil)
	_ ui.TablePauser = (*NetSession)(nil)
	_ ui.GoOner      = (*NetSession)(nil)
	_ ui.PaceSetter  = (*NetSession)(nil)
)
