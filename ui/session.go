package ui

import (
	"time"

	"aeroplane/engine"
)

// Session is what the interface needs from a game: a stream of events to
// show and a few commands. package session implements it, for a game
// offline against bots and for games on the LAN, both over lockstep. Every command must return promptly: what it causes
// comes back later as events. A command that makes no sense now returns an
// error that the interface shows as a notice; it must not change anything.
type Session interface {
	// Events delivers everything the interface shows, in order. The
	// session closes it when it ends.
	Events() <-chan Event

	SetName(name string) error
	// CreateGame opens a new game with this player at the first seat.
	CreateGame(rules engine.Rules) error
	// Join asks to sit at a game the lobby listed (Game.ID).
	Join(gameID string) error
	// Connect reaches a peer by address when discovery cannot.
	Connect(addr string) error
	// SetSeat gives a seat to a bot of that kind (one of engine.BotKinds)
	// or, with kind "", leaves it open for a person. Open seats nobody
	// took are left out of the game when it starts.
	SetSeat(seat engine.Colour, kind string) error
	// Start says this player is ready; the game starts when everybody is.
	Start() error
	// Roll reveals this player's share of the next roll.
	Roll() error
	// Choose plays one of the moves of the last Rolled event.
	Choose(m engine.Move) error
	Chat(text string) error
	// Rematch asks for a new game with the same players and rules.
	Rematch() error
	// Close leaves the game and the network; Events is closed after it.
	Close() error
}

// SeatChooser is a Session whose lobby lets each player choose a colour
// and say it is ready (the LAN session). The creator's lobby decides: the
// answer to both comes back as a TableUpdate, and any change of seats or
// rules clears every player's Ready. For such a session, Start by the
// creator starts only when every seated player is ready.
type SeatChooser interface {
	ChooseColour(c engine.Colour) error
	SetReady(ready bool) error
}

// Pauser is a Session whose running game can be kept to continue
// another day: quitting after Pause does not leave the game for good
// (no Leave; the log is not marked closed), so the lobby offers it later
// (LobbyUpdate.Continue). The others see the player absent meanwhile.
type Pauser interface {
	Pause() error
}

// TablePauser is a Session whose running game can be paused for
// everyone: PauseTogether asks the others (they get a PauseAsked); once
// every player paused, a GamePaused ends the game's run, its log kept
// unfinished, and the session is back in the lobby, whose continue list
// (LobbyUpdate.Continue) offers the game.
// PlayOn lifts this player's request while the others have not all
// paused: it plays on (voted absent meanwhile, it asks for its seat back).
type TablePauser interface {
	PauseTogether() error
	PlayOn() error
}

// Continuer is a Session that can continue a saved game
// (LobbyUpdate.Continue) from its log with the players present.
type Continuer interface {
	Continue(lobby string) error
}

// Watcher is a Session that can watch a running game of the LAN
// without a seat (LobbyUpdate.Running): the game's events come as a
// player's would, with a Watching after each batch its referee checked.
// Leaving the game (Leaver.Leave) stops watching.
type Watcher interface {
	Watch(lobby string) error
}

// SeatTaker is a Session that can ask the players of a running game of
// the LAN (LobbyUpdate.Running) for a seat a bot flies in it: colour, or
// with engine.NoColour the first free one. Until the players agree the
// screen shows the game as a watcher's; then the seat is the player's.
type SeatTaker interface {
	TakeSeat(lobby string, colour engine.Colour) error
}

// Leaver is a Session that can leave a running game for good: it tells
// the other players so (the session signs a leave message) and a bot
// flies this player's seat from then on. The interface calls Leave only
// after the player confirmed it. Leave returns at once, like every
// command; while the session makes sure the others heard it, the screen
// says "leaving…" and stays live, and LeaveDone (or the end of Events)
// lets the interface close the session. For a session without it,
// leaving is Close alone.
type Leaver interface {
	Leave() error
}

// GoOner is a Session that can answer the lone player's question (an
// AloneDecision): GoOn goes on with bots flying the missing seats until
// their players come back; EndGame ends this player's game now, saved and
// marked unfinished, and goes back to the lobby. Keeping waiting is doing
// neither.
type GoOner interface {
	GoOn() error
	EndGame() error
}

// SeatRemover is a Session whose creator may take a seat back from a
// player who sat down and does not say ready (a stranger holding a seat):
// the seat is open again and that player is told. Only a player who is
// not ready can be removed; the lobby decides and answers with a
// TableUpdate.
type SeatRemover interface {
	RemoveSeat(seat engine.Colour) error
}

// SetupBotChooser is a Session whose creator chooses what follows when a
// seated player never confirms the game (the setup times out): everyone
// back to the table, or at once again with a bot in that seat.
type SetupBotChooser interface {
	SetSetupBot(on bool) error
}

// PaceSetter is a Session whose creator may set the bots' pace at the
// table: how long every player's screen waits before it shows a roll of
// a seat a bot flies. With set false each player keeps its own
// (--bot-delay). The table that comes back shows it to everyone at it.
type PaceSetter interface {
	SetBotPace(delay time.Duration, set bool) error
}

// PersonAdder is a Session where several people can play at this one
// program (hot seat): AddPerson seats one more person here, by name, with
// a key and a dice chain of their own, so that for everyone else the
// dice are as fair as with one person per laptop. Each of them is a You
// seat of the table; the screen names whose turn it is.
type PersonAdder interface {
	AddPerson(name string) error
}

// RulesSetter is a Session whose creator may change the rules at the
// table until the game starts. The table that comes back shows them; where
// players say ready, a change clears every player's Ready.
type RulesSetter interface {
	SetRules(r engine.Rules) error
}

// Event is one thing the session tells the interface; the concrete types
// below are all of them.
type Event interface{ event() }

// Peer is a player found on the network.
type Peer struct {
	ID   string // peer ID (shown shortened)
	Name string // chosen by the peer: hostile text, shown escaped
	Addr string // how to reach it by hand
	// Unverified: only an mDNS advert names this peer ID, and no
	// connection has proved it yet (anyone can send an advert).
	Unverified bool
}

// Game is an open game found in the lobby.
type Game struct {
	ID    string
	Host  Peer
	Taken int // seats taken by people and bots
	Seats int // seats at the table, taken or open (0: not known, shown as all four)
	Rules engine.Rules
}

// RunningGame is a game being played on the LAN, as one of its players
// says (a Watcher may watch it): its lobby, its people, the roll it is
// at, the colour ahead (NoColour: none yet) and how many watch it.
type RunningGame struct {
	Lobby    string
	Players  []string
	Roll     uint64
	Leader   engine.Colour
	Watchers int
	Free     int // seats bots fly: a SeatTaker may ask for one
}

// LobbyUpdate is the whole lobby as it is now.
type LobbyUpdate struct {
	Me      Peer // Addr is "" when the session has no network (solo)
	Games   []Game
	Players []Peer
	// Running are the games in play, listed after Games and numbered on
	// from them: keys 1-9 join a game or watch a running one.
	Running []RunningGame
	// Continue are this player's unfinished games whose other players
	// are on the LAN now, listed after Running and numbered on: a key
	// continues one (Continuer).
	Continue []SavedGame
}

// SavedGame is an unfinished game of this player's, saved on disk, to
// continue another day: its lobby, its people, the roll it stopped at
// and when it was saved.
type SavedGame struct {
	Lobby   string
	Players []string
	Roll    uint64
	Saved   time.Time
}

// SeatKind says who plays a seat.
type SeatKind uint8

// Who may sit at a seat.
const (
	SeatOpen   SeatKind = iota // nobody yet: out of the game if still open at the start
	SeatHuman                  // a person at some peer
	SeatBot                    // a bot that every peer runs in lockstep
	SeatUnused                 // a free colour outside the game unless a player moves there
)

// Seat is one colour's chair at the table.
type Seat struct {
	Kind    SeatKind
	Name    string // the person's name, or the bot's kind
	PeerID  string // the person's peer; for a bot, "" (every peer runs it)
	You     bool   // this player sits here
	Present bool   // connected now (bots always are)
	Ready   bool
	// Web: a web player, whose node runs in a browser that a program at
	// the table serves (the table marks it as on a phone).
	Web bool
}

// TableUpdate is the game being set up or played: the seats, the rules and
// who created it.
type TableUpdate struct {
	GameID string
	// Offline: the table of a game on this computer alone (no LAN):
	// its title says so instead of a game ID.
	Offline bool
	Host    bool // this player created the game and may change seats
	Rules   engine.Rules
	Seats   [engine.NumColours]Seat
	Started bool
	// SetupBot, for the creator, is its choice for a player who never
	// confirms the game: a bot takes the seat and the game starts again
	// (SetupBotChooser), rather than everyone waiting at the table.
	SetupBot bool

	// The bots' pace the creator set for every screen at the table
	// (BotPace, when BotPaceSet), else each player's own.
	BotPace    time.Duration
	BotPaceSet bool
}

// GameStarted gives the first position; the seats are in TableUpdate.
type GameStarted struct {
	Position engine.Position
	Rules    engine.Rules
}

// DiceWaiting says the next roll of colour ToMove waits for the reveals of
// the named players (for a person's own turn, the person pressing roll).
type DiceWaiting struct {
	ToMove  engine.Colour
	Waiting []string
	YouRoll bool // this player is the one to roll
}

// Rolled is a die roll and what it allows; YouChoose is set when this
// player must choose one of Moves. A single pass or penalty is applied by
// the session with a Moved event, without a choice.
type Rolled struct {
	Colour    engine.Colour
	Roll      int
	Moves     []engine.Move
	YouChoose bool
}

// Moved is an outcome applied to the game.
type Moved struct {
	Before, After engine.Position
	Result        engine.Result
}

// ChatLine is a message from a player (From is hostile text).
type ChatLine struct {
	From   string
	Colour engine.Colour // NoColour for someone without a seat
	Text   string
}

// Presence reports a player gone absent or come back.
type Presence struct {
	Colour  engine.Colour
	Name    string
	Present bool
}

// PauseAsked reports another player asking to pause the game for
// everyone: this player pauses too with the p key.
type PauseAsked struct {
	Colour engine.Colour
	Name   string
}

// PauseLifted reports another player lifting its request to pause.
type PauseLifted struct {
	Colour engine.Colour
	Name   string
}

// GamePaused reports that every player paused the game at roll Roll: the
// game's run is over, its log (LogPath) kept to continue another day.
type GamePaused struct {
	Roll    uint64
	LogPath string
}

// Left reports a player who left the game for good: a bot flies its seat
// to the end.
type Left struct {
	Colour engine.Colour
	Name   string
}

// AloneDecision asks this player, whose side of the table is no majority,
// whether to keep waiting for the Missing players (names), go on without
// them (GoOner.GoOn) or end the game (GoOner.EndGame). An empty Missing
// says the question is no longer open (they came back, or it was
// answered).
type AloneDecision struct {
	Missing []string
}

// LeaveDone says a Leave has done what it can (every other player holds
// it, or the session stopped waiting for them): the interface quits.
type LeaveDone struct{}

// Resuming says this player's program, started again in the middle of a
// game, is catching up with the others (On) before it plays its seat
// again, or has caught up (!On). While it lasts the die is not waiting
// for anyone the player could do anything about.
type Resuming struct{ On bool }

// CatchingUp says another player's connection is back after it went
// down mid-game (its program restarted, or its cable was out): it is
// catching up with the game until it plays its seat again (its next
// move) or a Presence says more.
type CatchingUp struct {
	Colour engine.Colour
	Name   string
}

// SoloDice says whether this player's own dice chain alone makes the rolls
// now (nobody else's reveal is in them): the player could foresee them,
// and the screen says so honestly.
type SoloDice struct{ On bool }

// CheatDetected reports a peer that broke the dice protocol.
type CheatDetected struct {
	Name, PeerID string
	What         Msg // what it did (its arguments hostile text, shown escaped)
}

// GameOver is the end: the ranking, first first, and the saved game log.
type GameOver struct {
	Ranking []engine.Colour
	LogPath string
}

// GameReopened says the end shown was undone: this player had gone on
// alone and finished, while the others, a majority, played on without it
// (lockstep's roll-back). The game goes on; a Resync shows the board.
type GameReopened struct{}

// RollCountdown says that the die of Colour is rolled without a key In
// from now: for this player (You) the session rolls it, as the others
// cannot wait longer; for a seat a bot flies, its roll is shown then. The
// turn line counts the seconds down until the roll comes.
type RollCountdown struct {
	Colour engine.Colour
	In     time.Duration
	You    bool
}

// Notice is a message for the player, such as why something failed
// (NoticeOf an error).
type Notice struct{ Msg Msg }

// Resync replaces the position shown, when the session had to undo or
// correct steps (lockstep's roll-back); Why is said in the event log.
type Resync struct {
	Position engine.Position
	Why      Msg
}

// Watching is the state of a game this program watches without a seat:
// whose log it reads (From), how many of its records the program's own
// referee has checked and accepted, the roll, and what failed the checks
// last (Problem; the program then reads another player's log). Watchers
// are the people watching this player's own game (shown to players).
// Paused (with Over) says the players paused the game together at Roll:
// what was watched ends there, verified.
type Watching struct {
	Lobby    string
	From     string
	Records  int
	Roll     uint64
	Problem  string
	Over     bool
	Paused   bool
	Watchers []string
}

func (Watching) event() {}

func (LobbyUpdate) event()   {}
func (PauseAsked) event()    {}
func (GamePaused) event()    {}
func (PauseLifted) event()   {}
func (TableUpdate) event()   {}
func (GameStarted) event()   {}
func (DiceWaiting) event()   {}
func (Rolled) event()        {}
func (Moved) event()         {}
func (ChatLine) event()      {}
func (Presence) event()      {}
func (CheatDetected) event() {}
func (Left) event()          {}
func (AloneDecision) event() {}
func (SoloDice) event()      {}
func (LeaveDone) event()     {}
func (Resuming) event()      {}
func (CatchingUp) event()    {}
func (GameOver) event()      {}
func (GameReopened) event()  {}
func (Notice) event()        {}
func (RollCountdown) event() {}
func (Resync) event()        {}
