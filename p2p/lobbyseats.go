package p2p

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"aeroplane/engine"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Errors of the lobby's seat changes.
var (
	// ErrNotReady refuses a start while a seated player is not ready.
	ErrNotReady = errors.New("not every player is ready")
	// ErrSeatTaken refuses a colour another player or a bot has.
	ErrSeatTaken = errors.New("that colour is taken")
	// ErrNotCreator refuses a change only the lobby's creator may make.
	ErrNotCreator = errors.New("only the game's creator can do that")
)

// seatColours spreads n seats around the board: two players sit opposite.
func seatColours(n int) []engine.Colour {
	switch n {
	case 2:
		return []engine.Colour{0, 2}
	case 3:
		return []engine.Colour{0, 1, 2}
	}
	return []engine.Colour{0, 1, 2, 3}
}

// prefOrder is the order free colours are handed out for a table of n
// seats: spread around the board first, then the others.
func prefOrder(n int) []engine.Colour {
	out := seatColours(n)
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// freeColours lists, in the order they are handed out, the colours that
// neither a player nor a bot holds, for a table of seats seats.
func freeColours(roster []rosterEntry, bots [engine.NumColours]string, seats int) []engine.Colour {
	var out []engine.Colour
	for _, c := range prefOrder(seats) {
		if bots[c] == "" && !slices.ContainsFunc(roster, func(r rosterEntry) bool { return r.Colour == int(c) }) {
			out = append(out, c)
		}
	}
	return out
}

// seatFor is the colour a new player sits at: the first of want that
// nobody holds, else the next free colour in the table's order (a seat
// is open, so there is one).
func (l *lobby) seatFor(want []engine.Colour) engine.Colour {
	for _, c := range want {
		if c < engine.NumColours && l.holder(c) == "" {
			return c
		}
	}
	return freeColours(l.roster, l.bots, l.seats())[0]
}

func countBots(bots [engine.NumColours]string) int {
	n := 0
	for _, b := range bots {
		if b != "" {
			n++
		}
	}
	return n
}

// placeBots seats the creator's configured bots: by colour if BotSeats
// says, else at the end of the layout of Players+Bots seats, so players
// joining in turn sit where the lobby always seated them.
func placeBots(cfg LobbyConfig) [engine.NumColours]string {
	if countBots(cfg.BotSeats) > 0 {
		return cfg.BotSeats
	}
	var bots [engine.NumColours]string
	layout := seatColours(cfg.Players + cfg.Bots)
	for i := 0; i < cfg.Bots; i++ {
		kind := cfg.BotKind
		if i < len(cfg.BotKinds) {
			kind = cfg.BotKinds[i]
		}
		bots[layout[cfg.Players+i]] = kind
	}
	return bots
}

func (l *lobby) seats() int { return l.capacity + countBots(l.bots) }

// tableChanged is every change of seats or rules on the host: the table's
// version bumps, so every ready given for the old table is void.
func (l *lobby) tableChanged() {
	l.ver++
	for i := range l.roster {
		l.roster[i].Ready = false
	}
	if !l.cfg.ManualReady {
		l.roster[0].Ready = true
	}
	l.publish()
}

// publish shows the host's table here and to every member.
func (l *lobby) publish() {
	l.updateView()
	l.sendRoster()
	l.changed()
}

func (l *lobby) holder(c engine.Colour) string {
	if l.bots[c] != "" {
		return "a bot (" + l.bots[c] + ")"
	}
	for _, r := range l.roster {
		if r.Colour == int(c) {
			return r.Name
		}
	}
	return ""
}

// setColour moves a seated player to colour c if nobody holds it: the
// host takes requests in the order they arrive, so the first one wins.
func (l *lobby) setColour(id peer.ID, c engine.Colour) error {
	i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.ID == id.String() })
	switch {
	case c >= engine.NumColours:
		return fmt.Errorf("p2p: colour %d does not exist", c)
	case i < 0:
		return errors.New("p2p: not seated in this lobby")
	case l.roster[i].Colour == int(c):
		return nil
	}
	if who := l.holder(c); who != "" {
		return fmt.Errorf("%w: %s sits at %s", ErrSeatTaken, who, c)
	}
	l.log.Info("player changed colour", "name", l.roster[i].Name, "colour", c.String())
	l.roster[i].Colour = int(c)
	l.tableChanged()
	return nil
}

// setReady records a player's ready for table version ver; a ready for an
// older table is dropped (the player sees the new one and says again).
func (l *lobby) setReady(id peer.ID, ready bool, ver uint32) {
	i := slices.IndexFunc(l.roster, func(r rosterEntry) bool { return r.ID == id.String() })
	if i < 0 || ver != l.ver || l.roster[i].Ready == ready {
		return
	}
	l.roster[i].Ready = ready
	l.publish()
}

// setSeat gives free colour c to a bot of kind, or with kind "" takes the
// bot off it, opening a seat for a player. A table has four seats at
// most: a bot on the last free one closes an open player seat.
func (l *lobby) setSeat(c engine.Colour, kind string) error {
	if c >= engine.NumColours {
		return fmt.Errorf("p2p: colour %d does not exist", c)
	}
	if kind != "" && !validBotKind(kind) {
		_, err := engine.NewBot(kind)
		return fmt.Errorf("p2p: bot seat: %w", err)
	}
	if slices.ContainsFunc(l.roster, func(r rosterEntry) bool { return r.Colour == int(c) }) {
		return fmt.Errorf("%w: %s sits at %s", ErrSeatTaken, l.holder(c), c)
	}
	switch {
	case l.bots[c] == kind:
		return nil
	case kind == "":
		l.bots[c] = ""
		l.capacity++
	case l.bots[c] == "" && l.seats() == engine.NumColours:
		if l.capacity <= len(l.roster) {
			return errors.New("p2p: every player seat is taken")
		}
		l.capacity--
		l.bots[c] = kind
	default:
		l.bots[c] = kind
	}
	l.tableChanged()
	return nil
}

// notReady names the seated players who are not ready.
func (l *lobby) notReady() []string {
	var out []string
	for _, r := range l.roster {
		if !r.Ready {
			out = append(out, r.Name)
		}
	}
	return out
}

// startNow is the creator's start: it says the creator is ready and,
// when every seated player is, starts with the seats taken (open ones are
// left out).
func (l *lobby) startNow() error {
	if !l.roster[0].Ready {
		l.roster[0].Ready = true
		l.publish()
	}
	if nr := l.notReady(); len(nr) > 0 {
		return fmt.Errorf("%w: waiting for %s", ErrNotReady, strings.Join(nr, ", "))
	}
	if len(l.roster)+countBots(l.bots) < 2 {
		return errors.New("p2p: nobody has joined yet: wait for a player, or give a seat to a bot")
	}
	l.early = true
	return nil
}

// mayStart: the host starts when every seated player is ready and the
// seats are full, or the creator asked to start with those in.
func (l *lobby) mayStart() bool {
	if !l.hosting || len(l.notReady()) > 0 {
		return false
	}
	return len(l.roster) == l.capacity || (l.early && len(l.roster)+countBots(l.bots) >= 2)
}
