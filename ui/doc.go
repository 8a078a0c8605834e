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
// ChatLine, Presence, CheatDetected, GameOver, Notice, Resync). The
// sessions of internal/netsession implement it (offline against bots, and
// on the LAN), the networked one also SeatChooser (ChooseColour, SetReady): with it, the table's c key asks
// for the colour under the cursor (or the next free one) and r toggles
// the player's ready; the creator's lobby decides and answers with a
// TableUpdate.
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
