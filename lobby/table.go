package lobby

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Errors of the table's changes; each wrapped with what the player can do.
var (
	// ErrNotReady refuses a start while a seated player is not ready.
	ErrNotReady = errors.New("not every player is ready")
	// ErrSeatTaken refuses a colour another player or a bot has.
	ErrSeatTaken = errors.New("that colour is taken")
	// ErrNotCreator refuses a change only the game's creator may make.
	ErrNotCreator = errors.New("only the game's creator can do that")
	// ErrFull refuses a joiner when every player seat is taken.
	ErrFull = errors.New("the game has no free seat")
	// ErrNotSeated refuses a request from a peer without a seat.
	ErrNotSeated = errors.New("not seated at this table")
	// ErrTooFew refuses a start with fewer than two seats taken.
	ErrTooFew = errors.New("nobody has joined yet: wait for a player, or give a seat to a bot")
	// ErrRemoveSelf refuses the creator removing itself.
	ErrRemoveSelf = errors.New("you cannot remove yourself: leave the table instead")
	// ErrRemoveReady refuses removing a player who said ready.
	ErrRemoveReady = errors.New("only a player who is not ready can be removed")
	// ErrNoOpenSeat refuses a bot when every player seat is taken.
	ErrNoOpenSeat = errors.New("every player seat is taken: a bot can only take an open one")
	// ErrNoBotKind refuses a bot kind engine does not know.
	ErrNoBotKind = errors.New("no such bot kind")
	// ErrNoColour refuses a colour beyond the four.
	ErrNoColour = errors.New("no such colour")
	// ErrUnreachable says the game's creator cannot be reached now.
	ErrUnreachable = errors.New("the game's creator cannot be reached (wait, or leave and join again)")
)

// MaxBotKind bounds a bot kind's name, as a peer may send any.
const MaxBotKind = 64

// Member is a player seated at the table.
type Member struct {
	ID     peer.ID
	Name   string
	Colour engine.Colour
	Ready  bool
	// Via is the program that hosts this seat when it is not the
	// seat's own (a web player, whose key lives in its browser): the
	// seat's frames travel through that program (p2p.KindSeat), and the
	// seat leaves with it. Empty for a program's own seat.
	Via peer.ID
	// Phone: the hosted seat is a browser's (a web player), not a person
	// at its program's keyboard (hot seat); only with Via.
	Phone bool
}

// Table is the creator's table. The zero value is not usable: New makes
// one with the creator seated.
//
// Invariants, after every method: the creator is Members()[0]; no colour
// has two holders (two members, or a member and a bot); len(members) <=
// capacity; capacity + bots <= 4; a member's Ready is for the current
// Version only.
type Table struct {
	members     []Member
	capacity    int // player seats, taken or open
	bots        [engine.NumColours]string
	rules       engine.Rules
	version     uint32
	pace        Pace // the bots' pace on every player's screen (no part of the Setup)
	early       bool // the creator asked to start with the seats taken
	manualReady bool // the creator says ready by key; otherwise it always is
}

// TableConfig is the table the creator opens.
type TableConfig struct {
	Creator Member
	// Players is the number of player seats, the creator's included;
	// Bots the bot kind at each colour ("" for none). Players plus the
	// bots are 2 to 4 seats.
	Players int
	Bots    [engine.NumColours]string
	Rules   engine.Rules
	// Prefer lists colours the creator would like, best first (a
	// rematch asks for the one it had).
	Prefer []engine.Colour
	// ManualReady: the creator says ready itself (SetReady, StartNow);
	// without it the creator is ready after every change.
	ManualReady bool
	// Pace is the bots' pace at the table (a rematch keeps it).
	Pace Pace
}

// New opens a table with the creator seated.
func New(cfg TableConfig) (*Table, error) {
	nb := countBots(cfg.Bots)
	if cfg.Players < 1 || cfg.Players+nb < 2 || cfg.Players+nb > engine.NumColours {
		return nil, fmt.Errorf("%d player seats and %d bots: want 2 to 4 seats in all, the creator's among them", cfg.Players, nb)
	}
	for c, k := range cfg.Bots {
		if k != "" && !ValidBotKind(k) {
			return nil, fmt.Errorf("the bot at %s: no bot kind %q (have %s)", engine.Colour(c), k, strings.Join(engine.BotKinds(), ", "))
		}
	}
	if err := cfg.Pace.check(); err != nil {
		return nil, err
	}
	t := &Table{capacity: cfg.Players, bots: cfg.Bots, rules: cfg.Rules, manualReady: cfg.ManualReady, pace: cfg.Pace}
	m := cfg.Creator
	m.Colour, m.Ready = t.seatFor(cfg.Prefer), false
	t.members = []Member{m}
	t.changed()
	return t, nil
}

// LayoutBots places n bots of the given kinds at the end of the layout of
// players+n seats, so players joining in turn sit where they always did;
// kinds[i] flies bot i, kind the ones kinds does not name.
func LayoutBots(players, n int, kind string, kinds []string) [engine.NumColours]string {
	var bots [engine.NumColours]string
	if players < 0 || n < 0 || players+n > engine.NumColours {
		return bots
	}
	layout := Layout(players + n)
	for i := 0; i < n; i++ {
		k := kind
		if i < len(kinds) {
			k = kinds[i]
		}
		bots[layout[players+i]] = k
	}
	return bots
}

// ValidBotKind says whether k names a bot the engine has.
func ValidBotKind(k string) bool {
	if len(k) > MaxBotKind {
		return false
	}
	_, err := engine.NewBot(k)
	return err == nil
}

// Version bumps on every change of seats or rules.
func (t *Table) Version() uint32 { return t.version }

// Members lists the seated players, the creator first, then in joining
// order. The slice is a copy.
func (t *Table) Members() []Member { return slices.Clone(t.members) }

// Bots is the bot kind at each colour ("" for none).
func (t *Table) Bots() [engine.NumColours]string { return t.bots }

// Rules are the rules the game will be played with.
func (t *Table) Rules() engine.Rules { return t.rules }

// Pace is the bots' pace the creator set.
func (t *Table) Pace() Pace { return t.pace }

// SetPace changes the bots' pace and reports whether it changed. It is
// how the game is shown, not what is played: nobody's ready is cleared.
func (t *Table) SetPace(p Pace) (bool, error) {
	if err := p.check(); err != nil {
		return false, err
	}
	if p == t.pace {
		return false, nil
	}
	t.pace = p
	return true, nil
}

// Free is the number of player seats still open.
func (t *Table) Free() int { return t.capacity - len(t.members) }

// Open lists the colours the next joiners would get, in the order they
// are given: Free of them.
func (t *Table) Open() []engine.Colour {
	open := t.freeColours()
	return open[:min(t.Free(), len(open))]
}

// Seated reports whether id has a seat, and where.
func (t *Table) Seated(id peer.ID) (engine.Colour, bool) {
	i := t.index(id)
	if i < 0 {
		return engine.NoColour, false
	}
	return t.members[i].Colour, true
}

// Holder names who holds colour c: a member's name, "a bot (KIND)", or ""
// when nobody does.
func (t *Table) Holder(c engine.Colour) string {
	if c >= engine.NumColours {
		return ""
	}
	if t.bots[c] != "" {
		return "a bot (" + t.bots[c] + ")"
	}
	for _, m := range t.members {
		if m.Colour == c {
			return m.Name
		}
	}
	return ""
}

// Join seats id at the first colour of want that nobody holds, or else
// the next free one, and returns it. A member joining again keeps its
// seat (changed is false: it only missed the table). ErrFull when no
// player seat is open.
func (t *Table) Join(id peer.ID, name string, want []engine.Colour) (c engine.Colour, changed bool, err error) {
	if i := t.index(id); i >= 0 {
		return t.members[i].Colour, false, nil
	}
	if t.Free() <= 0 {
		return engine.NoColour, false, fmt.Errorf("%w: ask the creator to open one, or create another game", ErrFull)
	}
	c = t.seatFor(want)
	t.members = append(t.members, Member{ID: id, Name: name, Colour: c})
	t.changed()
	return c, true, nil
}

// JoinVia seats id, a seat whose program is via (a member of its own,
// seated here), as Join does. A seat hosted by another program cannot
// host one in turn, and a program's own ID is never another's guest.
func (t *Table) JoinVia(id, via peer.ID, name string, want []engine.Colour) (c engine.Colour, changed bool, err error) {
	h := t.index(via)
	switch i := t.index(id); {
	case h < 0 || t.members[h].Via != "":
		return engine.NoColour, false, fmt.Errorf("%w: the program serving a web player must sit at the table first", ErrNotSeated)
	case id == via:
		return engine.NoColour, false, fmt.Errorf("%w: a program cannot be its own web player", ErrNotSeated)
	case i >= 0 && t.members[i].Via != via:
		return engine.NoColour, false, fmt.Errorf("%w: %s is seated through another program", ErrSeatTaken, t.members[i].Name)
	case i >= 0:
		return t.members[i].Colour, false, nil
	}
	c, changed, err = t.Join(id, name, want)
	if err == nil {
		t.members[len(t.members)-1].Via = via
	}
	return c, changed, err
}

// SetPhone says whether hosted seat id is a browser's (Member.Phone).
func (t *Table) SetPhone(id peer.ID, phone bool) {
	if i := t.index(id); i >= 0 && t.members[i].Via != "" {
		t.members[i].Phone = phone
	}
}

// HostedBy reports whether seat id sits at the table through program via.
func (t *Table) HostedBy(id, via peer.ID) bool {
	i := t.index(id)
	return i >= 0 && via != "" && t.members[i].Via == via
}

// Leave frees the seat of a guest who left, and the seats it hosted; the
// creator cannot leave its own table (it closes it instead). It reports
// whether anything changed.
func (t *Table) Leave(id peer.ID) bool {
	i := t.index(id)
	if i <= 0 {
		return false
	}
	t.members = slices.DeleteFunc(t.members, func(m Member) bool { return m.ID == id || m.Via == id })
	t.changed()
	return true
}

// Remove is the creator taking a seat back from a guest who has not said
// ready (a stranger who sat down and never plays): the seat is open again.
func (t *Table) Remove(by, id peer.ID) error {
	if by != t.members[0].ID {
		return ErrNotCreator
	}
	i := t.index(id)
	switch {
	case i < 0:
		return fmt.Errorf("%w: nobody to remove", ErrNotSeated)
	case i == 0:
		return ErrRemoveSelf
	case t.members[i].Ready:
		return fmt.Errorf("%s is ready to play: %w", t.members[i].Name, ErrRemoveReady)
	}
	t.members = slices.DeleteFunc(t.members, func(m Member) bool { return m.ID == id || m.Via == id })
	t.changed()
	return nil
}

// SetColour moves a member to colour c if nobody holds it. Requests are
// taken in the order they arrive, so the first of two for one colour wins.
func (t *Table) SetColour(id peer.ID, c engine.Colour) error {
	i := t.index(id)
	switch {
	case c >= engine.NumColours:
		return fmt.Errorf("%w: %d", ErrNoColour, c)
	case i < 0:
		return fmt.Errorf("%w: wait until the game's creator lets you in", ErrNotSeated)
	case t.members[i].Colour == c:
		return nil
	}
	if who := t.Holder(c); who != "" {
		return fmt.Errorf("%w: %s sits at %s; pick a free colour", ErrSeatTaken, who, c)
	}
	t.members[i].Colour = c
	t.changed()
	return nil
}

// SetReady records a member's ready for table version; a ready for an
// older version is dropped (the player sees the new table and says
// again). It reports whether anything changed; a ready changes no version.
func (t *Table) SetReady(id peer.ID, ready bool, version uint32) bool {
	i := t.index(id)
	if i < 0 || version != t.version || t.members[i].Ready == ready {
		return false
	}
	t.members[i].Ready = ready
	return true
}

// SetSeat gives free colour c to a bot of kind, or with kind "" takes the
// bot off it, opening a seat for a player. A table has four seats at most:
// a bot on the last free colour closes an open player seat.
func (t *Table) SetSeat(c engine.Colour, kind string) error {
	if c >= engine.NumColours {
		return fmt.Errorf("%w: %d", ErrNoColour, c)
	}
	if kind != "" && !ValidBotKind(kind) {
		return fmt.Errorf("%w %q: have %s", ErrNoBotKind, kind, strings.Join(engine.BotKinds(), ", "))
	}
	if slices.ContainsFunc(t.members, func(m Member) bool { return m.Colour == c }) {
		return fmt.Errorf("%w: %s sits at %s", ErrSeatTaken, t.Holder(c), c)
	}
	switch {
	case t.bots[c] == kind:
		return nil
	case kind == "":
		t.bots[c] = ""
		t.capacity++
	case t.bots[c] == "" && t.capacity+countBots(t.bots) == engine.NumColours:
		if t.capacity <= len(t.members) {
			return ErrNoOpenSeat
		}
		t.capacity--
		t.bots[c] = kind
	default:
		t.bots[c] = kind
	}
	t.changed()
	return nil
}

// SetRules changes the game's rules; it reports whether they changed.
func (t *Table) SetRules(r engine.Rules) bool {
	if r == t.rules {
		return false
	}
	t.rules = r
	t.changed()
	return true
}

// NotReady names the members who are not ready.
func (t *Table) NotReady() []string {
	var out []string
	for _, m := range t.members {
		if !m.Ready {
			out = append(out, m.Name)
		}
	}
	return out
}

// StartNow is the creator's start: the creator is ready and, once every
// member is, the game starts with the seats taken (open ones left out).
func (t *Table) StartNow() error {
	t.members[0].Ready = true
	if nr := t.NotReady(); len(nr) > 0 {
		return fmt.Errorf("%w: waiting for %s", ErrNotReady, strings.Join(nr, ", "))
	}
	if len(t.members)+countBots(t.bots) < 2 {
		return ErrTooFew
	}
	t.early = true
	return nil
}

// MayStart: every member is ready and either every player seat is taken
// or the creator asked to start with the seats taken.
func (t *Table) MayStart() bool {
	if len(t.NotReady()) > 0 {
		return false
	}
	return len(t.members) == t.capacity || t.early && len(t.members)+countBots(t.bots) >= 2
}

// Setup is the game this table starts: each member at its colour, each
// bot at its own, in colour order; seats still open are left out. The
// nonce makes the game new (a fresh one for every game).
func (t *Table) Setup(name string, nonce [16]byte) (lockstep.Setup, error) {
	s := lockstep.Setup{Version: lockstep.Version, Name: name, Rules: t.rules, Nonce: nonce}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		seat := lockstep.Seat{Colour: c, Bot: t.bots[c]}
		if i := slices.IndexFunc(t.members, func(m Member) bool { return m.Colour == c }); i >= 0 {
			seat.Player = t.members[i].ID
		}
		if seat.Bot != "" || seat.Player != "" {
			s.Seats = append(s.Seats, seat)
		}
	}
	if err := s.Validate(); err != nil {
		return lockstep.Setup{}, fmt.Errorf("building the game: %w", err)
	}
	return s, nil
}

// changed is every change of seats or rules: the version bumps, so every
// ready given for the old table is void.
func (t *Table) changed() {
	t.version++
	for i := range t.members {
		t.members[i].Ready = false
	}
	if !t.manualReady {
		t.members[0].Ready = true
	}
}

func (t *Table) index(id peer.ID) int {
	return slices.IndexFunc(t.members, func(m Member) bool { return m.ID == id })
}

// seatFor is the colour a new member sits at: the first of want nobody
// holds, else the next free colour in the table's order.
func (t *Table) seatFor(want []engine.Colour) engine.Colour {
	for _, c := range want {
		if c < engine.NumColours && t.Holder(c) == "" {
			return c
		}
	}
	return t.freeColours()[0]
}

// freeColours lists, in hand-out order, the colours nobody holds.
func (t *Table) freeColours() []engine.Colour {
	var out []engine.Colour
	for _, c := range handOutOrder(t.capacity + countBots(t.bots)) {
		if t.Holder(c) == "" {
			out = append(out, c)
		}
	}
	return out
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

// Taken is the number of seats players and bots hold.
func (t *Table) Taken() int { return len(t.members) + countBots(t.bots) }
