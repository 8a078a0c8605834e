package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// hotAskWait bounds how long a command of a person here waits for that
// person's node to ask for it (in-process: it takes microseconds).
const hotAskWait = 2 * time.Second

// maxPersonName bounds a person's name as the lobby bounds a player's.
const maxPersonName = 32

// hotSeat is one more person's seat of this program in a running game:
// its own node, driven by its own driver, and its own translator, which
// guards that person's commands (the screen shows the first seat's).
type hotSeat struct {
	colour engine.Colour
	id     peer.ID
	drv    *lockstep.Driver
	tr     *Translator
	// key and game are a LAN game's person's (netpeople.go): its seat
	// key and its files; glog is its node's own log (offline too:
	// savegame.LocalSeatLogPath)
	key  crypto.PrivKey
	game *savegame.Game
	glog *savegame.Log
	// asks says (without blocking) that this seat's node has just asked
	// its person for a roll or a choice: the screen, fed by the first
	// seat's node, may ask a moment before this node does
	asks chan struct{}
}

// checkPersonName says what is wrong with name for a new person at the
// table whose people are taken.
func checkPersonName(name string, taken []string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return ui.Errorf("err.emptyname")
	case len(name) > maxPersonName:
		return ui.Errorf("err.personname.long", maxPersonName)
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return ui.Errorf("err.personname.control")
		}
	}
	for _, t := range taken {
		if strings.EqualFold(t, name) {
			return ui.Errorf("err.personname.taken", name)
		}
	}
	return nil
}

// AddPerson implements ui.PersonAdder: the person sits at the first seat a
// bot or nobody holds, in the board's order from the first player's.
func (s *LocalSession) AddPerson(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errClosed
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing():
		return errors.New("seats are fixed once the game has started")
	}
	var taken []string
	for _, st := range s.table.Seats {
		if st.You {
			taken = append(taken, st.Name)
		}
	}
	if err := checkPersonName(name, taken); err != nil {
		return err
	}
	seat := engine.NoColour
	for i := 1; i < engine.NumColours; i++ {
		c := (localSeat + engine.Colour(i)) % engine.NumColours
		if !s.table.Seats[c].You {
			seat = c
			break
		}
	}
	if seat == engine.NoColour {
		return errors.New("every seat is taken by a person here")
	}
	if err := s.openDir(); err != nil {
		return err
	}
	key, err := s.dir.SeatKey(name)
	if err != nil {
		return err
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return fmt.Errorf("the seat key of %q: %w", name, err)
	}
	s.keys[id] = key
	s.table.Seats[seat] = ui.Seat{Kind: ui.SeatHuman, Name: name, PeerID: id.String(), You: true, Present: true}
	s.q.push(*s.table)
	return nil
}

// localSeats lists the seats people at this program hold, the first
// player's first: colour and seat ID.
func (s *LocalSession) localSeats() ([]engine.Colour, []peer.ID) {
	cs, ids := []engine.Colour{localSeat}, []peer.ID{s.self}
	for c, st := range s.table.Seats {
		if st.You && engine.Colour(c) != localSeat {
			id, err := peer.Decode(st.PeerID)
			if err != nil || s.keys[id] == nil {
				continue // not a seat of ours: setup refuses the table
			}
			cs, ids = append(cs, engine.Colour(c)), append(ids, id)
		}
	}
	return cs, ids
}

// startHotSeats makes the nodes and drivers of the other people's seats
// over hub, with their dice secrets, each node with its own log beside
// the game's logPath, from which it is restored when the game is
// continued; s.mu is held. On an error every log opened is closed.
func (s *LocalSession) startHotSeats(setup lockstep.Setup, hub *lockstep.Hub, names map[peer.ID]string, cs []engine.Colour, ids []peer.ID, secrets map[peer.ID][32]byte, logPath string) (hot []*hotSeat, err error) {
	defer func() {
		if err != nil {
			for _, h := range hot {
				h.glog.Close()
			}
		}
	}()
	for i := 1; i < len(ids); i++ {
		cfg := lockstep.Config{Setup: setup, Self: ids[i], Key: s.keys[ids[i]], Entropy: secrets[ids[i]]}
		glog, past, err := savegame.OpenLocalSeatLog(logPath, ids[i])
		if err != nil {
			return hot, fmt.Errorf("cannot seat %s: %w", names[ids[i]], err)
		}
		node, err := newLocalNode(cfg, past)
		if err != nil {
			glog.Close()
			return hot, fmt.Errorf("cannot seat %s: %w", names[ids[i]], err)
		}
		h := &hotSeat{colour: cs[i], id: ids[i], glog: glog, tr: NewTranslator(setup, ids[i], names, ""), asks: make(chan struct{}, 1)}
		hot = append(hot, h)
		// Its own log, as a LAN seat's node has: what it is restored
		// from (the game's log, the first seat's, holds every seat's
		// messages too, for verify).
		h.drv, err = lockstep.NewDriver(node, lockstep.DriverConfig{Link: hub.Link(ids[i]), Log: glog,
			Tick: s.opts.Tick, Linger: -1, Logger: s.opts.Logger, Clock: s.opts.Clock,
			StopWhenPaused: true, ContinuePaused: true,
			OnReady: func(rd lockstep.Ready) {
				h.tr.Translate(rd.Events, rd.State)
				if h.tr.CanRoll() || len(h.tr.choice) > 0 {
					select {
					case h.asks <- struct{}{}:
					default:
					}
				}
			}})
		if err != nil {
			return hot, fmt.Errorf("cannot seat %s: %w", names[ids[i]], err)
		}
	}
	return hot, nil
}

// runHotSeats runs the hub and the other seats' drivers until each has
// ended (or ctx); it returns when they are done.
func runHotSeats(ctx context.Context, hub *lockstep.Hub, hot []*hotSeat, report func(error)) func() {
	hctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		hub.Run(hctx)
	}()
	drivers := make(chan struct{}, len(hot))
	for _, h := range hot {
		go func() {
			defer func() { drivers <- struct{}{} }()
			if _, err := h.drv.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				report(err)
			}
		}()
	}
	return func() {
		for range hot {
			<-drivers
		}
		stop()
		<-done
	}
}

// discardLog is a log that keeps nothing (a node whose records another
// node's log holds).
type discardLog struct{}

func (discardLog) Write([]lockstep.Record) error { return nil }
func (discardLog) Sync() error                   { return nil }

// actSeats runs a command of the screen (f) on drv, the driver of the
// screen's own seat, or, when another person here (hot) is to move, on
// that seat's own driver: check says whether the screen's translator tr
// asks that person for it, and done tells tr it was answered.
func actSeats(drv *lockstep.Driver, tr *Translator, hot []*hotSeat, f func(*Translator, *lockstep.Node) error, check func(*Translator) error, done func(*Translator, uint64)) error {
	if len(hot) > 0 {
		var h *hotSeat
		var herr error
		var rolls uint64
		_ = drv.Do(func(*lockstep.Node) error {
			pos := tr.Position()
			rolls = tr.Rolls()
			for _, x := range hot {
				if x.colour == pos.ToMove() {
					h, herr = x, check(tr)
				}
			}
			return nil
		})
		if h != nil {
			if herr != nil {
				return herr
			}
			return actHot(drv, tr, h, f, func(tr *Translator) { done(tr, rolls) })
		}
	}
	err := drv.Do(func(n *lockstep.Node) error { return f(tr, n) })
	if errors.Is(err, lockstep.ErrStopped) {
		return ErrGameOver
	}
	return err
}

// actHot runs f for the person of seat h on h's own driver, the screen's
// translator (tr on drv) having checked it asks for it, and then tells
// that translator (done) so it asks no more.
func actHot(drv *lockstep.Driver, tr *Translator, h *hotSeat, f func(*Translator, *lockstep.Node) error, done func(*Translator)) error {
	// do runs f on h's node. A refusal that only says the node has not
	// asked yet is kept from the driver, which logs every refused action
	// at WARN: here it is the normal race, and f changed nothing.
	do := func() error {
		var early error
		err := h.drv.Do(func(n *lockstep.Node) error {
			err := f(h.tr, n)
			if notAskedYet(err) {
				early, err = err, nil
			}
			return err
		})
		if err == nil {
			err = early
		}
		return err
	}
	select {
	case <-h.asks: // an ask already answered or about to be: do sees it
	default:
	}
	err := do()
	deadline := time.After(hotAskWait)
	for notAskedYet(err) {
		// The screen asked before this seat's node did (or while it
		// still held the roll before): it does in a moment, once it has
		// applied what the first seat's node has.
		select {
		case <-h.asks:
			err = do()
			continue
		case <-deadline:
		}
		break
	}
	if errors.Is(err, lockstep.ErrStopped) {
		return ErrGameOver
	}
	if err == nil {
		_ = drv.Do(func(*lockstep.Node) error { done(tr); return nil })
	}
	return err
}

// notAskedYet says whether err is a translator's refusal of a command its
// node has not asked for (yet): the screen's node may ask a moment before
// a hot seat's does.
func notAskedYet(err error) bool {
	return errors.Is(err, ErrNotYourRoll) || errors.Is(err, ErrAlreadyRolled) || errors.Is(err, ErrNoChoice)
}

var _ ui.PersonAdder = (*LocalSession)(nil)
