package lobby

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/engine"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Control changes a lobby while Run waits in it: the player's colour and
// ready flag and, for the creator, the bot seats, the rules, removing a
// guest and the start. A call returns once the lobby has taken it (a
// request to the creator's lobby is sent, and its answer shows in the next
// View) or with the reason it cannot be done. One control serves one Run.
type Control struct {
	cmds     chan cmd
	done     chan struct{}
	once     sync.Once
	used     atomic.Bool
	onChange func(View)
}

type cmd struct {
	f     func(l *runner) error
	reply chan error
}

// ErrGone is the answer of a control whose lobby is over (or never ran).
var ErrGone = errors.New("the lobby is closed")

// NewControl makes a control for a Config; onChange, if set, is called
// with every View after Config.OnChange.
func NewControl(onChange func(View)) *Control {
	return &Control{cmds: make(chan cmd), done: make(chan struct{}), onChange: onChange}
}

func (c *Control) close() { c.once.Do(func() { close(c.done) }) }

// ctlWait bounds how long a call waits for a lobby that has not begun.
const ctlWait = 5 * time.Second

func (c *Control) do(f func(l *runner) error) error {
	cm := cmd{f: f, reply: make(chan error, 1)}
	select {
	case c.cmds <- cm:
	case <-c.done:
		return ErrGone
	case <-time.After(ctlWait):
		return fmt.Errorf("lobby: %w: it did not answer", ErrGone)
	}
	select {
	case err := <-cm.reply:
		return err
	case <-c.done:
		return ErrGone
	}
}

var errNoSeat = fmt.Errorf("lobby: %w: wait until the game's creator lets you in", ErrNotSeated)

// ChooseColour asks for a seat at colour col. The creator's lobby decides:
// requests are taken in the order they reach it, so of two players asking
// for one colour the first gets it and the other keeps its seat.
func (c *Control) ChooseColour(col engine.Colour) error {
	return c.do(func(l *runner) error {
		if col >= engine.NumColours {
			return fmt.Errorf("lobby: %w: %d", ErrNoColour, col)
		}
		if l.hosting() {
			if err := l.table.SetColour(l.self, col); err != nil {
				return fmt.Errorf("lobby: %w", err)
			}
			l.publish()
			return nil
		}
		if !l.inRoster() {
			return errNoSeat
		}
		if who := l.holder(col); who != "" && !l.sitsAt(col) {
			return fmt.Errorf("lobby: %w: %s sits at %s", ErrSeatTaken, who, col)
		}
		return l.sendHost(lobbyMsg{T: lobbyColour, Lobby: l.cfg.Lobby, Colour: int(col)})
	})
}

// SetReady says whether this player is ready for the table as it is now;
// any later change of seats or rules clears it.
func (c *Control) SetReady(ready bool) error {
	return c.do(func(l *runner) error {
		if l.hosting() {
			if l.table.SetReady(l.self, ready, l.table.Version()) {
				l.publish()
			}
			return nil
		}
		if !l.inRoster() {
			return errNoSeat
		}
		return l.sendHost(lobbyMsg{T: lobbyReady, Lobby: l.cfg.Lobby, Ready: ready, Ver: l.ver})
	})
}

// SetSeat gives colour col to a bot of kind or, with kind "", opens it
// for a player (the creator only).
func (c *Control) SetSeat(col engine.Colour, kind string) error {
	return c.do(func(l *runner) error {
		if !l.hosting() {
			return ErrNotCreator
		}
		if err := l.table.SetSeat(col, kind); err != nil {
			return fmt.Errorf("lobby: %w", err)
		}
		l.publish()
		return nil
	})
}

// SetRules changes the game's rules (the creator only).
func (c *Control) SetRules(r engine.Rules) error {
	return c.do(func(l *runner) error {
		if !l.hosting() {
			return ErrNotCreator
		}
		if l.table.SetRules(r) {
			l.publish()
		}
		return nil
	})
}

// SetPace changes the bots' pace of the table (the creator only); the
// table shows it to everyone at it, and the game's Result carries it.
func (c *Control) SetPace(p Pace) error {
	return c.do(func(l *runner) error {
		if !l.hosting() {
			return ErrNotCreator
		}
		changed, err := l.table.SetPace(p)
		if changed {
			l.publish()
		}
		return err
	})
}

// Remove takes the seat of guest id back (the creator only, and only
// from a guest who has not said ready: a stranger who sat down and never
// plays). The guest is told the table is gone for it, and its joins are
// refused as "full" for a while (removedFor, at most maxRemoved peers).
func (c *Control) Remove(id peer.ID) error {
	return c.do(func(l *runner) error {
		if !l.hosting() {
			return ErrNotCreator
		}
		return l.remove(id)
	})
}

// Start starts the creator's game now with the players seated (open seats
// are left out), if every one of them is ready; it says the creator is
// ready. ErrNotReady names who is not.
func (c *Control) Start() error {
	return c.do(func(l *runner) error {
		if !l.hosting() {
			return fmt.Errorf("%w: say you are ready, and the creator starts", ErrNotCreator)
		}
		if err := l.startNow(); err != nil {
			return fmt.Errorf("lobby: %w", err)
		}
		return nil
	})
}

func (l *runner) sitsAt(col engine.Colour) bool { return l.seatAt(l.self, col) }

// seatAt reports whether the host's last roster seats id at col.
func (l *runner) seatAt(id peer.ID, col engine.Colour) bool {
	for _, r := range l.roster {
		if r.ID == id.String() && r.Colour == int(col) {
			return true
		}
	}
	return false
}

// infoCell holds the answer to Query, read by the info stream's handler:
// one for anyone, and one for a peer already seated at the table, to whom
// its own seat counts as free (a player whose program restarted between
// two games finds the table it still holds full, and would otherwise
// never sit down again while the others wait for its ready).
type infoCell struct{ p atomic.Pointer[infoAnswer] }

type infoAnswer struct {
	any, seated []byte
	members     map[peer.ID]bool
}

func (c *infoCell) store(a infoAnswer) { c.p.Store(&a) }

func (c *infoCell) load(asker peer.ID) []byte {
	a := c.p.Load()
	switch {
	case a == nil:
		return nil
	case a.members[asker]:
		return a.seated
	}
	return a.any
}

// The web players a program serves sit at its table through it: these
// calls are a hosted seat's join, colour, ready and leave, said by the
// program for the person in the browser (the creator's lobby decides, as
// for its own; a guest program's are sent to the creator with the seat
// named, and the creator takes them only from the program that seated it).

// SeatVia seats id, a seat this program hosts, under the person's name:
// a browser's it serves (phone) or a person's at its keyboard (hot seat);
// Table.JoinVia says where, the next View shows it.
func (c *Control) SeatVia(id peer.ID, name string, phone bool) error {
	name = p2p.CleanName(name)
	if name == "" {
		return errors.New("lobby: a web player needs a name")
	}
	return c.do(func(l *runner) error {
		if l.hosting() {
			colour, changed, err := l.table.JoinVia(id, l.self, name, nil)
			if err != nil {
				return fmt.Errorf("lobby: %w", err)
			}
			l.table.SetPhone(id, phone)
			if changed {
				l.log.Info("web player joined the lobby", "seat", p2p.ShortID(id), "name", name, "colour", colour.String())
				l.publish()
			}
			return nil
		}
		if !l.inRoster() {
			return errNoSeat
		}
		return l.sendHost(lobbyMsg{T: lobbyJoin, Lobby: l.cfg.Lobby, Name: name, Seat: id.String(), Phone: phone})
	})
}

// ColourVia asks colour col for web player id (ChooseColour's rule).
func (c *Control) ColourVia(id peer.ID, col engine.Colour) error {
	return c.do(func(l *runner) error {
		if col >= engine.NumColours {
			return fmt.Errorf("lobby: %w: %d", ErrNoColour, col)
		}
		if l.hosting() {
			if !l.table.HostedBy(id, l.self) {
				return errNoSeat
			}
			if err := l.table.SetColour(id, col); err != nil {
				return fmt.Errorf("lobby: %w", err)
			}
			l.publish()
			return nil
		}
		if !l.hosts(id) {
			return errNoSeat
		}
		if who := l.holder(col); who != "" && !l.seatAt(id, col) {
			return fmt.Errorf("lobby: %w: %s sits at %s", ErrSeatTaken, who, col)
		}
		return l.sendHost(lobbyMsg{T: lobbyColour, Lobby: l.cfg.Lobby, Colour: int(col), Seat: id.String()})
	})
}

// ReadyVia says whether web player id is ready for the table as it is.
func (c *Control) ReadyVia(id peer.ID, ready bool) error {
	return c.do(func(l *runner) error {
		if l.hosting() {
			if !l.table.HostedBy(id, l.self) {
				return errNoSeat
			}
			if l.table.SetReady(id, ready, l.table.Version()) {
				l.publish()
			}
			return nil
		}
		if !l.hosts(id) {
			return errNoSeat
		}
		return l.sendHost(lobbyMsg{T: lobbyReady, Lobby: l.cfg.Lobby, Ready: ready, Ver: l.ver, Seat: id.String()})
	})
}

// LeaveVia frees web player id's seat (its browser left or closed).
func (c *Control) LeaveVia(id peer.ID) error {
	return c.do(func(l *runner) error {
		if l.hosting() {
			if l.table.HostedBy(id, l.self) && l.table.Leave(id) {
				l.publish()
			}
			return nil
		}
		if !l.hosts(id) {
			return nil
		}
		return l.sendHost(lobbyMsg{T: lobbyLeave, Lobby: l.cfg.Lobby, Seat: id.String()})
	})
}

// hosts reports whether the host's last roster seats id through us.
func (l *runner) hosts(id peer.ID) bool {
	for _, r := range l.roster {
		if r.ID == id.String() && r.Via == l.self.String() {
			return true
		}
	}
	return false
}
