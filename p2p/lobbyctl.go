package p2p

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/engine"
)

// LobbyControl changes a lobby while RunLobby waits in it: the player's
// colour and ready flag and, for the creator, the bot seats, the rules and
// the start. A call returns once the lobby has taken it (a request to the
// creator's lobby is sent, and its answer shows in the next LobbyView) or
// with the reason it cannot be done. One control serves one RunLobby.
type LobbyControl struct {
	cmds     chan lobbyCmd
	done     chan struct{}
	once     sync.Once
	used     atomic.Bool
	onChange func(LobbyView)
}

type lobbyCmd struct {
	f     func(l *lobby) error
	reply chan error
}

// ErrLobbyGone is the answer of a control whose lobby is over (or never
// ran).
var ErrLobbyGone = errors.New("the lobby is closed")

// NewLobbyControl makes a control for a LobbyConfig; onChange, if set, is
// called with every LobbyView after LobbyConfig.OnChange.
func NewLobbyControl(onChange func(LobbyView)) *LobbyControl {
	return &LobbyControl{cmds: make(chan lobbyCmd), done: make(chan struct{}), onChange: onChange}
}

func (c *LobbyControl) close() { c.once.Do(func() { close(c.done) }) }

// ctlWait bounds how long a call waits for a lobby that has not begun.
const ctlWait = 5 * time.Second

func (c *LobbyControl) do(f func(l *lobby) error) error {
	cmd := lobbyCmd{f: f, reply: make(chan error, 1)}
	select {
	case c.cmds <- cmd:
	case <-c.done:
		return ErrLobbyGone
	case <-time.After(ctlWait):
		return fmt.Errorf("p2p: %w: it did not answer", ErrLobbyGone)
	}
	select {
	case err := <-cmd.reply:
		return err
	case <-c.done:
		return ErrLobbyGone
	}
}

// ChooseColour asks for a seat at colour col. The creator's lobby decides:
// requests are taken in the order they reach it, so of two players asking
// for one colour the first gets it and the other keeps its seat.
func (c *LobbyControl) ChooseColour(col engine.Colour) error {
	return c.do(func(l *lobby) error {
		if col >= engine.NumColours {
			return fmt.Errorf("p2p: colour %d does not exist", col)
		}
		if l.hosting {
			return l.setColour(l.self, col)
		}
		if !l.inRoster() {
			return errors.New("p2p: you have no seat yet: wait until the game's creator lets you in")
		}
		if who := l.holder(col); who != "" && !l.sitsAt(col) {
			return fmt.Errorf("%w: %s sits at %s", ErrSeatTaken, who, col)
		}
		return l.sendHost(lobbyMsg{T: lobbyColour, Lobby: l.cfg.Lobby, Colour: int(col)})
	})
}

// SetReady says whether this player is ready for the table as it is now;
// any later change of seats or rules clears it.
func (c *LobbyControl) SetReady(ready bool) error {
	return c.do(func(l *lobby) error {
		if l.hosting {
			if l.roster[0].Ready != ready {
				l.roster[0].Ready = ready
				l.publish()
			}
			return nil
		}
		if !l.inRoster() {
			return errors.New("p2p: you have no seat yet: wait until the game's creator lets you in")
		}
		return l.sendHost(lobbyMsg{T: lobbyReady, Lobby: l.cfg.Lobby, Ready: ready, Ver: l.ver})
	})
}

// SetSeat gives colour col to a bot of kind or, with kind "", opens it
// for a player (the creator only).
func (c *LobbyControl) SetSeat(col engine.Colour, kind string) error {
	return c.do(func(l *lobby) error {
		if !l.hosting {
			return ErrNotCreator
		}
		return l.setSeat(col, kind)
	})
}

// SetRules changes the game's rules (the creator only).
func (c *LobbyControl) SetRules(r engine.Rules) error {
	return c.do(func(l *lobby) error {
		if !l.hosting {
			return ErrNotCreator
		}
		if r != l.rules {
			l.rules = r
			l.tableChanged()
		}
		return nil
	})
}

// Start starts the creator's game now with the players seated (open seats
// are left out), if every one of them is ready; it says the creator is
// ready. ErrNotReady names who is not.
func (c *LobbyControl) Start() error {
	return c.do(func(l *lobby) error {
		if !l.hosting {
			return fmt.Errorf("%w: say you are ready, and the creator starts", ErrNotCreator)
		}
		return l.startNow()
	})
}

func (l *lobby) sitsAt(col engine.Colour) bool {
	return slices.ContainsFunc(l.roster, func(r rosterEntry) bool { return r.ID == l.self.String() && r.Colour == int(col) })
}

func (l *lobby) sendHost(m lobbyMsg) error {
	if err := l.t.Send(l.host, KindLobby, encodeLobbyMsg(m)); err != nil {
		return fmt.Errorf("p2p: the game's creator cannot be reached: %w", err)
	}
	return nil
}
