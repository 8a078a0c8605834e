package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// EncodeSetup is the setup message for a game.
func EncodeSetup(s lockstep.Setup) []byte { return append([]byte{MsgSetup}, s.Encode()...) }

// ParseSetup reads a setup message; the Setup is validated (lockstep).
func ParseSetup(msg []byte) (lockstep.Setup, error) {
	if len(msg) < 1 || msg[0] != MsgSetup {
		return lockstep.Setup{}, fmt.Errorf("%w: want a setup", ErrBadMessage)
	}
	s, err := lockstep.DecodeSetup(msg[1:])
	if err != nil {
		return s, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	return s, nil
}

// GameConfig is one game of the browser player's.
type GameConfig struct {
	// AskMove is told the player's legal moves when it must choose (on
	// the driver's goroutine: it must not block); the person's pick is
	// handed to choose, which waits for the driver, so call it from a
	// goroutine of its own. Nil plays the first legal move at once.
	AskMove func(moves []engine.Move, choose func(engine.Move) error)
	// AskRoll, if set, is told when the player is to roll (lockstep without
	// AutoRoll: the person taps the die); roll reveals the player's link,
	// waiting for the driver, so call it from a goroutine of its own. Nil
	// rolls at once.
	AskRoll func(roll func() error)
	// OnReady sees every Ready (to draw the board), on the driver's goroutine.
	OnReady func(lockstep.Ready)
	// Log keeps the game's records (nil: none); the page exports it for
	// `aeroplane verify`.
	Log lockstep.Log
	// Name, if set, sits the person at the serving program's table under
	// it once the socket is joined (CmdSit), and again when a table of
	// that program's comes without the person at it (the program reopens
	// or joins its rematch later); without it the person sits by hand
	// (SendLobby), or the serving program seats the browser itself.
	Name string
	// Colour, if set with Name ("G"), is asked for once seated at another
	// colour: a rematch asks for the colour of the last game, as every
	// player coming back does (the lobby grants it if still free).
	Colour string
	// Lang is the page's language, named in Name's commands.
	Lang string
	// Past, if set, is a game this browser has played to its end here:
	// its setup, which the serving program may send again while it
	// lingers on that game, is not taken (a rematch waits for the next).
	Past lockstep.GameID
	// OnTable sees the serving program's table until the game starts
	// (ready and colour are the person's: SendLobby).
	OnTable func(Table)
	// OnChat sees the table's chat lines, at the table and in the game
	// (SendChat says one).
	OnChat func(ChatMsg)
	// OnStart is handed the game once its driver runs, for the person's
	// intents outside a choice (Game.Leave); on the driver's goroutine.
	OnStart func(*Game)
	// Redial, if set, opens a new socket to a program at the table when
	// the game's closes (the phone locked, the page lost its network):
	// the browser proves its key again, takes the same game's setup, and
	// its node, which kept running, catches up as any player who returns
	// (voted absent meanwhile, a bot flew its seat). It is called again
	// after a failure (after RedialEvery) until ctx ends; without it the
	// game ends with its socket.
	Redial func(ctx context.Context) (Socket, error)
	// Keep, if set, keeps the game in the browser's storage as it is
	// played (its chain secret, then every record before the messages
	// that follow it go out), so that a page reloaded mid-game takes
	// its seat again: Play with the same Keeper, given the kept game's
	// setup again by the serving program (the seat's key proven anew),
	// rebuilds the node from the kept log (lockstep.Restore) and
	// returns to the game as any player who was away; Log, a *MemLog,
	// is refilled with the kept log. A game over or left is forgotten.
	Keep *Keeper
}

// The ways a game of the page's ends before it is over, as the page
// tells the person (in its seven languages: each is a kind of its own).
var (
	ErrNoSeat      = errors.New("the table's setup has no seat for this browser")
	ErrClosedEarly = errors.New("the serving program closed the game socket before the game's setup")
	// ErrNotRestored: the game kept in this browser does not restore; its
	// seat stays with the bot.
	ErrNotRestored = errors.New("the game kept in this browser does not restore")
)

// RedialEvery spaces the attempts to dial the table again.
const RedialEvery = time.Second

// Play joins the table on s (hello and auth, then its setup), and plays
// the game to its end with this browser's node: every frame checked here,
// every link of its dice chain drawn here.
func Play(ctx context.Context, s Socket, id *Identity, cfg GameConfig) (lockstep.State, error) {
	if err := Join(ctx, s, id); err != nil {
		return lockstep.State{}, err
	}
	onTable := cfg.OnTable
	if cfg.Name != "" {
		if err := SendLobby(s, LobbyCmd{T: CmdSit, Name: cfg.Name, Lang: cfg.Lang}); err != nil {
			return lockstep.State{}, err
		}
		onTable = (&rejoiner{s: s, id: id.ID.String(), name: cfg.Name, colour: cfg.Colour, lang: cfg.Lang, then: cfg.OnTable, sits: 1, sitPending: true}).table
	}
	setup, err := awaitSetup(ctx, s, onTable, cfg.OnChat)
	for err == nil && cfg.Past != (lockstep.GameID{}) && setup.GameID() == cfg.Past {
		setup, err = awaitSetup(ctx, s, onTable, cfg.OnChat)
	}
	if err != nil {
		return lockstep.State{}, err
	}
	if !slices.Contains(setup.Players(), id.ID) {
		return lockstep.State{}, ErrNoSeat
	}
	lg := cfg.Log
	if lg == nil {
		lg = discardLog{}
	}
	node, err := newOrKeptNode(id, setup, cfg.Keep, cfg.Log, cfg.AskRoll == nil)
	if err != nil {
		return lockstep.State{}, err
	}
	if cfg.Keep != nil {
		lg = keptLog{Log: lg, k: cfg.Keep, onLost: cfg.Keep.OnLost}
	}
	var onChat func(peer.ID, []byte)
	if cfg.OnChat != nil {
		onChat = func(_ peer.ID, data []byte) {
			if m, err := ParseChat(data); err == nil {
				cfg.OnChat(m)
			}
		}
	}
	link := NewLink(s, onChat)
	if cfg.Redial != nil {
		link.redial = func(ctx context.Context) (Socket, error) { return rejoin(ctx, cfg.Redial, id, setup) }
	}
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go link.Run(lctx)
	var d *lockstep.Driver
	d, err = lockstep.NewDriver(node, lockstep.DriverConfig{Link: link, Log: lg, Linger: -1,
		OnReady: func(rd lockstep.Ready) {
			if cfg.OnReady != nil {
				cfg.OnReady(rd)
			}
			for _, e := range rd.Events {
				if e.Kind == lockstep.EventYourRoll && cfg.AskRoll != nil {
					cfg.AskRoll(func() error { return d.Do(func(n *lockstep.Node) error { return n.Roll() }) })
					continue
				}
				if e.Kind != lockstep.EventYourMove || len(e.Moves) == 0 {
					continue
				}
				if cfg.AskMove == nil {
					m := e.Moves[0]
					go d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
					continue
				}
				moves := e.Moves
				cfg.AskMove(moves, func(m engine.Move) error {
					if !slices.Contains(moves, m) {
						return fmt.Errorf("%s is not one of the moves of this roll", m)
					}
					return d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
				})
			}
		}})
	if err != nil {
		return lockstep.State{}, err
	}
	g := &Game{d: d, stop: stop, Rules: setup.Rules, colour: engine.NoColour, id: setup.GameID()}
	for _, st := range setup.Seats {
		if st.Player == id.ID {
			g.colour = st.Colour
		}
	}
	if cfg.OnStart != nil {
		cfg.OnStart(g)
	}
	st, err := d.Run(lctx)
	if cfg.Keep != nil && (g.left.Load() || err == nil && (st.Phase == lockstep.PhaseOver || st.Phase == lockstep.PhaseHalted)) {
		cfg.Keep.Forget() // nothing to take up again
	}
	if g.left.Load() {
		return st, lockstep.ErrLeft
	}
	return st, err
}

// newOrKeptNode is the browser's node for setup: rebuilt from the kept
// log if keep holds this game (the page was reloaded), else a fresh one
// whose chain secret keep holds before it signs anything.
func newOrKeptNode(id *Identity, setup lockstep.Setup, keep *Keeper, log lockstep.Log, autoRoll bool) (*lockstep.Node, error) {
	if keep != nil {
		if g, ok := keep.Game(); ok && g.Setup.GameID() == setup.GameID() {
			var cfg lockstep.Config
			cfg.Setup, cfg.Self, cfg.Key, cfg.AutoRoll, cfg.Entropy = setup, id.ID, id.key, autoRoll, g.Entropy
			n, err := lockstep.Restore(cfg, g.Records)
			if err != nil {
				// A fresh node would sign its first messages anew,
				// unlike those the others hold: the seat stays away
				// (a bot flies it) rather than contradict itself.
				return nil, fmt.Errorf("%w: %w", ErrNotRestored, err)
			}
			if m, ok := log.(*MemLog); ok {
				m.load(g.Log)
			}
			keep.resume(g)
			return n, nil
		}
	}
	n, entropy, err := id.NewNode(setup, autoRoll)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		if err := keep.begin(entropy); err != nil && keep.OnLost != nil {
			keep.OnLost(err)
		}
	}
	return n, nil
}

// LeaveWait bounds how long a player who left keeps its node running so
// that the others get the Leave (it stops sooner once they hold it).
const LeaveWait = 3 * time.Second

// Game is a running game of the browser player's.
type Game struct {
	Rules  engine.Rules // the table's rules, for the board's targets (BoardAfter)
	d      *lockstep.Driver
	stop   context.CancelFunc
	left   atomic.Bool
	colour engine.Colour
	id     lockstep.GameID
}

// Colour is the browser's seat in the game (a rematch asks for it again).
func (g *Game) Colour() engine.Colour { return g.colour }

// GameID is the game's (a rematch's GameConfig.Past).
func (g *Game) GameID() lockstep.GameID { return g.id }

// maxRejoinSits bounds a rejoiner's sits (each a table seen without the
// person, its sit refused meanwhile): a name refused for good must not
// be sent at every change of the table.
const maxRejoinSits = 3

// rejoiner sits the person at the serving program's table when a table
// comes without them, and asks for their colour once seated elsewhere:
// a rematch from the page, the person coming back as the terminal's
// players do (the creator reopens, the others join asking for theirs).
type rejoiner struct {
	s                Socket
	id, name, colour string
	lang             string
	then             func(Table)
	sits             int
	sitPending       bool
	askedAt          string // the colour it sat at when it asked for its own
}

func (r *rejoiner) table(t Table) {
	if r.then != nil {
		r.then(t)
	}
	if t.Error != "" {
		r.sitPending = false
		return
	}
	me, seated := t.Seat(r.id)
	switch {
	case !seated && t.Lobby != "" && !r.sitPending && r.sits < maxRejoinSits:
		r.sits++
		r.sitPending = true
		_ = SendLobby(r.s, LobbyCmd{T: CmdSit, Name: r.name, Lang: r.lang})
	case seated && r.colour != "" && me.Colour != r.colour && me.Colour != r.askedAt:
		r.sitPending = false
		r.askedAt = me.Colour
		_ = SendLobby(r.s, LobbyCmd{T: CmdColour, Colour: r.colour, Lang: r.lang})
	case seated:
		r.sitPending = false
	}
}

// Leave gives the seat to its bot for good (lockstep's Leave) and ends
// the game here once the others hold the Leave, or after LeaveWait:
// Play then returns lockstep.ErrLeft.
func (g *Game) Leave() error {
	if err := g.d.Do(func(n *lockstep.Node) error { return n.Leave() }); err != nil {
		return err
	}
	g.left.Store(true)
	go func() {
		deadline := time.Now().Add(LeaveWait)
		for time.Now().Before(deadline) {
			delivered := false
			if g.d.Do(func(n *lockstep.Node) error { delivered = n.LeaveDelivered(); return nil }) != nil || delivered {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		g.stop()
	}()
	return nil
}

// rejoin dials until a socket is joined to the game of setup again.
func rejoin(ctx context.Context, dial func(context.Context) (Socket, error), id *Identity, setup lockstep.Setup) (Socket, error) {
	for {
		s, err := dial(ctx)
		if err == nil {
			if err = Join(ctx, s, id); err == nil {
				err = awaitSeat(ctx, s, id, setup)
			}
			if err == nil {
				return s, nil
			}
			if c, ok := s.(io.Closer); ok {
				c.Close()
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(RedialEvery):
		}
	}
}

// awaitSeat takes up the browser's seat of setup's game on a socket just
// joined: the program says who it is (MsgHost), the browser moves its
// seat to it (a signed SeatMove, KindSeatMove: the program it was served by may be gone
// for good; to the same program it changes nothing), and the program,
// hosting the seat now, sends the game's setup. A program that says
// nothing of itself (an older one) is taken as the seat's host.
func awaitSeat(ctx context.Context, s Socket, id *Identity, setup lockstep.Setup) error {
	for {
		select {
		case msg, ok := <-s.Recv():
			if !ok {
				return errors.New("the serving program closed the game socket before the game's setup")
			}
			switch {
			case len(msg) > 0 && msg[0] == MsgHost:
				host, err := ParseHost(msg)
				if err != nil {
					return err
				}
				stmt, err := id.SignSeatMove(SeatMove{Game: setup.GameID(), Seat: id.ID, Host: host, Counter: id.moves.next(time.Now())})
				if err != nil {
					return err
				}
				if err := SendSeatMove(s, stmt); err != nil {
					return err
				}
			case len(msg) > 0 && msg[0] == MsgSetup:
				got, err := ParseSetup(msg)
				if err == nil && got.GameID() != setup.GameID() {
					err = errors.New("the serving program is in another game")
				}
				return err
			} // else the table's frames: the game is on, they are stale
		case <-ctx.Done():
			return fmt.Errorf("waiting for the game's setup: %w", ctx.Err())
		}
	}
}

// awaitSetup reads the table until the game's setup comes.
func awaitSetup(ctx context.Context, s Socket, onTable func(Table), onChat func(ChatMsg)) (lockstep.Setup, error) {
	for {
		select {
		case msg, ok := <-s.Recv():
			if !ok {
				return lockstep.Setup{}, ErrClosedEarly
			}
			if len(msg) > 0 && msg[0] == MsgSetup {
				return ParseSetup(msg)
			}
			f, err := DecodeFrame(msg)
			switch {
			case err != nil:
			case f.Kind == KindLobby && onTable != nil:
				if t, err := ParseTable(f.Data); err == nil {
					onTable(t)
				}
			case f.Kind == KindChat && onChat != nil:
				if m, err := ParseChat(f.Data); err == nil {
					onChat(m)
				}
			} // else a game frame of a table we have not sat at yet
		case <-ctx.Done():
			return lockstep.Setup{}, fmt.Errorf("waiting for the game's setup: %w", ctx.Err())
		}
	}
}

type discardLog struct{}

func (discardLog) Write([]lockstep.Record) error { return nil }
func (discardLog) Sync() error                   { return nil }
