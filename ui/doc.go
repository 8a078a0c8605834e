// Package ui is the terminal interface of aeroplane, built on tview and
// tcell, and the only package that touches the terminal. It shows the
// lobby, the seats, the real cross-shaped board of rules.md, the panels
// (players, turn and moves, event log, chat, rules, dice statistics), help
// and rules overlays and the end screen, in seven languages (ui/i18n).
//
// The interface talks to a game only through Session:
//
//	type Session interface {
//		Events() <-chan Event            // everything to show, in order; closed at the end
//		SetName(name string) error
//		CreateGame(rules engine.Rules) error
//		Join(gameID string) error
//		Connect(addr string) error
//		SetSeat(seat engine.Colour, kind string) error // a bot kind, or "" to open it
//		Start() error                    // ready; the game starts when everybody is
//		Roll() error
//		Choose(m engine.Move) error
//		Chat(text string) error
//		Rematch() error
//		Close() error
//	}
//
// Commands return at once; their effects come back as events
// (LobbyUpdate, TableUpdate, GameStarted, DiceWaiting, Rolled, Moved,
// ChatLine, Presence, CheatDetected, GameOver, GameReopened, Notice, Resync,
// RollCountdown). The
// sessions of package session implement it (offline against bots, and
// on the LAN), the networked one also SeatChooser (ChooseColour, SetReady): with it, the table's c key asks
// for the colour under the cursor (or the next free one) and r toggles
// the player's ready; the creator's lobby decides and answers with a
// TableUpdate.
//
// A session never sends the screen a sentence: a Notice, a Resync's Why
// and a CheatDetected's What are a Msg (a catalogue key and arguments),
// and a refused command returns an Error holding one (Errorf, Wrap), so
// the screen says it in the player's language (the session's keys note.*,
// err.*, cheat.* are in i18n/session_*.go). An error no session explained
// (the system's, the network's) shows inside the translated frame
// note.failed.
//
// A session may also be a Leaver (Leave): q or Ctrl-C during a running
// game only asks "leave the game for good?"; y calls Leave (a bot flies
// the seat from then on), which returns at once: the screen says
// "leaving…" and stays live (q quits without waiting) until the session's
// LeaveDone, then Run closes the session; n or Esc stays.
// Outside a game q quits at once. Without a Leaver, leaving is Close.
//
// On a TablePauser, p in a game asks "Pause the game?" (y pauses for
// everyone: PauseTogether; n or Esc plays on); while the others have not
// all paused, p takes the request back (PlayOn). Another player's
// request is a line: "ann asks to pause — press p to pause too"
// (PauseAsked; PauseLifted when taken back). GamePaused ends the game on
// the screen and says so, back in the lobby, whose continue list offers
// the game another day.
// Offline (session.LocalSession) every player is at this screen: y
// pauses every seat at once, nobody is asked, and PlayOn has nothing to
// take back. Its lobby's continue entries name the saved game by its game
// ID (SavedGame.Lobby: every offline game's lobby is "local").
//
// An AloneDecision (this player's side of the table is no majority) asks
// at once, over the board: w or Esc keeps waiting (g asks again while it
// is open), and on a GoOner g goes on with bots flying the missing seats
// (GoOn) and e ends the game, saved and unfinished (EndGame), back to the
// lobby. Left ("bob left — a bot flies Yellow") and SoloDice (said in the
// turn panel while on) are shown; the player list says online, absent (a
// bot flies), back, left, resuming (CatchingUp: another's program back on
// the network; Resuming: this one's, also in the turn panel instead of
// "the die waits for X"). A PaceSetter's table shows the bots' pace to
// everyone and its creator's p changes it. A TableUpdate not started after a finished game
// is its rematch: the finished board gives way to the table.
//
// What the screen promises: the key lines wrap onto a second line rather
// than cut a key (help, ?, always first); notices wrap; below 78×22 the
// game shows a "window too small" screen instead of a cut board; the
// event log (PgUp/PgDn) and an overflowing lobby scroll; the board has
// one notation for planes on every spot (board.go; legend in help) and
// numbers its squares as the moves list and the event log name them
// (engine.Place.Name, replay's too); the selected move's path is drawn
// before it is played, and the path of the move just played, anybody's,
// until the next roll (path.go); the
// bell rings (b turns it off) and the turn line is highlighted when it
// becomes the player's turn; before a roll made without a key (for the
// player, or a bot's shown after a pause) the turn line counts down the
// seconds (countdown.go). Files: ui.go state and events, view.go and
// fit.go layout, board.go, path.go and geometry.go the board, keys.go the key
// table, scroll.go, turn.go, leave.go, alone.go (the lone player's
// question: keep waiting, go on, end the game), legend.go, run.go the
// tview loop, msg.go the messages sessions send (Msg, Error), replay.go
// the interactive replay of a finished game (RunReplay: the game's own
// screen after each roll, made afresh from the events at every step),
// statedir.go the state directory and the remembered name, phone.go
// the page phones at the table open (Options.Web: the lobby and the
// table name its address, with a QR code beside the text where the
// window has room and behind the m key in a box that 80×24 holds; the
// code is skip2/go-qrcode's matrix drawn in half blocks, two modules a
// cell).
//
// The mouse: a left click on anything drawn that does something acts as
// its key would: a key on the key lines or in a question's box, a move in
// the list, the roll line, a game, the name or a rule in the lobby, a seat
// or a rule at the table, a plane on the board (mouse.go; the draw records
// where each is).
//
// Everything a peer chooses (names, chat, peer IDs, addresses, notices)
// is hostile: it goes through clean before it is drawn. Keys are defined
// once, in keyTable, which drives dispatch, the help overlay and the
// bottom line.
//
// This package must never hold game rules (engine does), run the dice
// protocol (lockstep does), open a socket (p2p does) or write logs to the
// screen (they go to a file in the state directory).
package ui
