package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A late arrival takes a seat (lockstep's Take, PROTOCOL.md "Taking a
// seat"), as this program's newcomer:
//
//  1. it finds the running game of the lobby named as the watchers do
//     (findRunning), and reads a player's log with the watch protocol,
//     every record checked by a referee of its own, up to where the
//     player's log ends;
//  2. it picks the seat: the one asked for, else the first in seat order
//     a bot flies (a bot seat, or the seat of a player who left);
//  3. it asks every player to let it use the game protocol (a take
//     request: each admits it as a p2p guest, a few at most) and makes
//     the players its transport's members;
//  4. it plays the game (play) with a lockstep newcomer node that holds
//     what the referee read: the node says hello, catches up the rest,
//     asks for the seat a few rolls ahead, and once every player present
//     has voted yes flies it with its own chain, as a bot (--headless)
//     or as its person.
//
// The players' side: the watch server answers take requests
// (watchServer.answerTake, admitting the guest), and play makes the
// newcomer a member and names it once lockstep seats it.

// takePlan is a seat to take, as TakeSeat asked and takeSeat found it.
type takePlan struct {
	lobby  string
	colour engine.Colour // asked for; NoColour: the first free one
	// found by takeSeat:
	past  []lockstep.Record // the player's log read (Setup first)
	from  peer.ID           // the player who served it
	names map[peer.ID]string
	// seated: the game seated this newcomer (the driver's goroutine)
	seated bool
}

// TakeSeat looks for the running game of the lobby named lobbyName on
// the LAN and asks its players for a seat in it: colour, or with
// engine.NoColour the first seat in seat order a bot flies. Once the
// players agree this player flies the seat to the end of the game, like
// any player (its moves through Roll and Choose); until then the screen
// sees the game as a watcher does.
func (s *NetSession) TakeSeat(lobbyName string, colour engine.Colour) error {
	name := p2p.CleanName(lobbyName)
	if name == "" {
		return ui.Errorf("err.takewhich")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leaveLobby()
	if err := s.idle(); err != nil {
		return err
	}
	s.launch(lobbyPlan{take: &takePlan{lobby: name, colour: colour}})
	return nil
}

// lostTo is the error a newcomer ends with when e seats another in the
// seat it asked for (nil otherwise, or once it is seated itself): that
// seat is a person's for good, and an unseated newcomer that stayed on
// would rely on the players' relays alone to follow the new player's
// messages, falling behind a fast game. p may be nil (not a newcomer).
func (p *takePlan) lostTo(e lockstep.Event, self peer.ID, name string) error {
	if p == nil || p.seated || e.Kind != lockstep.EventSeatTaken {
		return nil
	}
	if e.Peer == self {
		p.seated = true
		return nil
	}
	if e.Colour != p.colour {
		return nil
	}
	if name == "" {
		name = shortID(e.Peer)
	}
	return ui.Errorf("err.seatlost", e.Colour, p.lobby, name, e.Roll)
}

// takeStall watches a newcomer not seated yet: if its game makes no
// progress for takeStallFor (nobody left who answers it, or it fell
// behind a game that ended), the game is stopped and the newcomer says
// so, rather than wait for ever. A seated newcomer is a player, whose
// absences lockstep handles.
type takeStall struct {
	mu     sync.Mutex
	last   time.Time
	roll   uint64
	phase  lockstep.Phase
	seated bool
	hit    bool
	timer  *time.Ticker
	done   chan struct{}
}

// takeStallFor is how long an unseated newcomer waits for its game to
// move on.
const takeStallFor = time.Minute

func newTakeStall(p *takePlan, stop func()) *takeStall {
	w := &takeStall{last: time.Now(), done: make(chan struct{})}
	if p == nil {
		close(w.done)
		return w
	}
	w.timer = time.NewTicker(takeStallFor / 6)
	go func() {
		for {
			select {
			case <-w.done:
				return
			case <-w.timer.C:
			}
			w.mu.Lock()
			hit := !w.seated && time.Since(w.last) >= takeStallFor
			w.hit = w.hit || hit
			w.mu.Unlock()
			if hit {
				stop()
				return
			}
		}
	}()
	return w
}

// saw notes the state of a Ready (the driver's goroutine).
func (w *takeStall) saw(st lockstep.State) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if st.Roll != w.roll || st.Phase != w.phase {
		w.roll, w.phase, w.last = st.Roll, st.Phase, time.Now()
	}
}

// seatedNow says the newcomer was seated: it waits as a player from now.
func (w *takeStall) seatedNow() {
	w.mu.Lock()
	w.seated = true
	w.mu.Unlock()
}

// err is why the game was stopped, nil if the watch did not stop it.
func (w *takeStall) err(lobbyName string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.hit {
		return nil
	}
	return ui.Errorf("err.takestalled", lobbyName, int(takeStallFor/time.Second))
}

func (w *takeStall) stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
		w.timer.Stop()
	}
}

// takeRetry is how often a newcomer asks again when no player admits it;
// takeAdmitFor how long it tries before it gives up; takeStreamWait how
// long it waits for the game streams to the players who admitted it.
const (
	takeRetry      = time.Second
	takeAdmitFor   = 30 * time.Second
	takeStreamWait = 10 * time.Second
)

// takeSeat does steps 1-3 above for p (runPlan), then plays.
func (s *NetSession) takeSeat(ctx context.Context, p lobbyPlan) error {
	tp := p.take
	// A watcher asking for a seat in the game it watched: its screen's
	// referee panel goes (the game it shows next is this program's own).
	s.q.push(ui.Watching{})
	s.q.push(ui.Notice{Msg: ui.M("note.seat.looking", tp.lobby)})
	host, run, err := s.findRunning(ctx, tp.lobby)
	if err != nil {
		return err
	}
	servers := []peer.ID{host}
	tp.names = map[peer.ID]string{}
	for _, pl := range run.Players {
		tp.names[pl.ID] = pl.Name
		if pl.ID != host && pl.ID != s.self {
			servers = append(servers, pl.ID)
		}
	}
	var lr *logReader
	for _, id := range servers {
		lr = &logReader{s: s, id: id, gid: run.Game, left: map[peer.ID]bool{}}
		if err = lr.read(ctx); err == nil {
			break
		}
		lr = nil
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.log.Info("reading a player's log to take a seat failed", "peer", p2p.ShortID(id), "err", err)
	}
	if lr == nil {
		return fmt.Errorf("taking a seat in %q: no player's log could be read and checked (%w)", tp.lobby, err)
	}
	setup, err := lockstep.DecodeSetup(lr.past[0].Data)
	if err != nil {
		return err
	}
	ref := lr.ref
	want := tp.colour
	colour, err := freeSeat(ref.Seats(), lr.left, want, tp.lobby)
	if err != nil {
		return err
	}
	tp.colour = colour
	s.q.push(ui.Notice{Msg: ui.M("note.seat.asking", colour, tp.lobby)})
	players := playersOf(ref.Seats())
	admitted, err := s.askAdmission(ctx, setup.GameID(), players)
	if err != nil {
		return ui.Wrap(err, "err.noadmit", tp.lobby, err)
	}
	s.t.SetMembers(append(players, s.self))
	s.awaitStreams(ctx, admitted)
	// The game went on meanwhile: what the log has now, so the node has
	// little left to catch up frame by frame.
	if err := lr.read(ctx); err != nil {
		return fmt.Errorf("taking a seat in %q: reading %s's log again: %w", tp.lobby, p2p.ShortID(lr.id), err)
	}
	tp.past, tp.from = lr.past, lr.id
	// Another newcomer may have taken it meanwhile: another, or none.
	if again, err := freeSeat(lr.ref.Seats(), lr.left, want, tp.lobby); err != nil {
		return err
	} else if again != colour {
		tp.colour = again
		s.q.push(ui.Notice{Msg: ui.M("note.seat.asking", again, tp.lobby)})
	}
	s.log.Info("taking a seat", "lobby", tp.lobby, "game", setup.GameID(), "colour", colour.String(),
		"records", len(tp.past), "from", p2p.ShortID(tp.from), "admitted", len(admitted))
	return s.play(ctx, p, lobby.Result{Setup: setup, Names: tp.names, NoWatchChat: !run.Chat})
}

// logReader reads a player's log of a game from its start to where it
// ends now (read, again for more), every record checked by a referee of
// its own (an observer node) as a watcher checks it.
type logReader struct {
	s    *NetSession
	id   peer.ID
	gid  lockstep.GameID
	ref  *lockstep.Node
	past []lockstep.Record // what the referee accepted, Setup first
	left map[peer.ID]bool  // the players who left for good
	from uint32            // the next record to ask for
}

// read reads on until the player's log has no more now.
func (lr *logReader) read(ctx context.Context) error {
	s := lr.s
	fails := 0
	for {
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		s.reach(qctx, lr.id)
		b, err := p2p.QueryWatch(qctx, s.h, lr.id, encodeWatchRequest(watchRequest{Game: lr.gid, From: lr.from, Name: s.name}))
		cancel()
		var a watchAnswer
		if err == nil {
			a, err = decodeWatchAnswer(b)
		}
		if err == nil && (a.Status != watchOK || a.From != lr.from) {
			err = fmt.Errorf("the player answered %s from record %d, asked for %d", a.Status, a.From, lr.from)
		}
		if err != nil {
			if fails++; fails >= 3 || ctx.Err() != nil {
				return err
			}
			continue
		}
		fails = 0
		for i, r := range a.Records {
			switch k := int(lr.from) + i; {
			case k == 0:
				setup, err := lockstep.DecodeSetup(r.Data)
				if err != nil || setup.GameID() != lr.gid || r.Type != lockstep.RecordSetup {
					return fmt.Errorf("the player's log is not of game %s (%v)", lr.gid, err)
				}
				if lr.ref, err = lockstep.NewObserver(setup); err != nil {
					return err
				}
			case lr.ref == nil || r.Type != lockstep.RecordMessage:
				return errors.New("the player's log does not start with its setup")
			default:
				if err := lr.ref.Step(lr.id, r.Data); err != nil {
					return fmt.Errorf("record %d: %w", k, err)
				}
			}
		}
		lr.from += uint32(len(a.Records))
		if lr.ref == nil {
			continue
		}
		rd := lr.ref.Ready()
		lr.past = append(lr.past, rd.LogEntries...)
		for _, e := range rd.Events {
			if e.Kind == lockstep.EventLeft {
				lr.left[e.Peer] = true
			}
		}
		lr.ref.Advance(rd)
		switch rd.State.Phase {
		case lockstep.PhaseOver, lockstep.PhaseHalted:
			return fmt.Errorf("the game is over (%s): no seat to take", rd.State.Phase)
		}
		if lr.from >= a.Total && rd.State.Phase != lockstep.PhaseSetup {
			return nil
		}
	}
}

// freeSeat is the seat to ask for: want if a bot flies it now, or with
// NoColour the first such seat in seat order; seats is who flew each
// seat from which roll (lockstep's Seats), left the players gone; the
// errors name the game as lobbyName.
func freeSeat(seats []lockstep.SeatOwner, left map[peer.ID]bool, want engine.Colour, lobbyName string) (engine.Colour, error) {
	var order []engine.Colour
	now := map[engine.Colour]lockstep.SeatOwner{}
	for _, o := range seats {
		if _, ok := now[o.Colour]; !ok {
			order = append(order, o.Colour)
		}
		now[o.Colour] = o // later owners come later
	}
	free := func(c engine.Colour) bool {
		o, ok := now[c]
		return ok && (o.Bot || left[o.Player])
	}
	if want < engine.NumColours {
		if !free(want) {
			return engine.NoColour, ui.Errorf("err.seatnotfree", want, lobbyName)
		}
		return want, nil
	}
	slices.Sort(order)
	for _, c := range order {
		if free(c) {
			return c, nil
		}
	}
	return engine.NoColour, ui.Errorf("err.nofreeseat", lobbyName)
}

// playersOf lists everyone who flew a seat of the game: the setup's
// players and the newcomers seated since.
func playersOf(seats []lockstep.SeatOwner) []peer.ID {
	var ids []peer.ID
	for _, o := range seats {
		if !o.Bot && o.Player != "" && !slices.Contains(ids, o.Player) {
			ids = append(ids, o.Player)
		}
	}
	return ids
}

// askAdmission sends a take request to every player until at least one
// admits this program to the game protocol (the others may still, on a
// later ask: each is asked until it answers), for takeAdmitFor at most.
func (s *NetSession) askAdmission(ctx context.Context, gid lockstep.GameID, players []peer.ID) ([]peer.ID, error) {
	var admitted []peer.ID
	var last error = errors.New("no player answered")
	deadline := time.Now().Add(takeAdmitFor)
	for {
		for _, id := range players {
			if id == s.self || slices.Contains(admitted, id) {
				continue
			}
			qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			s.reach(qctx, id)
			b, err := p2p.QueryWatch(qctx, s.h, id, encodeTakeRequest(takeRequest{Game: gid, Name: s.name}))
			cancel()
			var a watchAnswer
			if err == nil {
				a, err = decodeWatchAnswer(b)
			}
			if err == nil && a.Status != watchOK {
				err = fmt.Errorf("%s says: %s", p2p.ShortID(id), a.Status)
			}
			if err != nil {
				last = err
				continue
			}
			admitted = append(admitted, id)
		}
		if len(admitted) == len(players) || len(admitted) > 0 && time.Now().After(deadline.Add(-takeAdmitFor*2/3)) {
			return admitted, nil
		}
		if time.Now().After(deadline) {
			if len(admitted) > 0 {
				return admitted, nil
			}
			return nil, last
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(takeRetry):
		}
	}
}

// awaitStreams waits a while for the game streams to the players who
// admitted this program: the node's hello goes out on its first tick.
func (s *NetSession) awaitStreams(ctx context.Context, ids []peer.ID) {
	deadline := time.Now().Add(takeStreamWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		up := 0
		for _, id := range ids {
			if s.t.Connected(id) {
				up++
			}
		}
		if up == len(ids) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// admitNewcomer is the players' side of a take request: the newcomer may
// use the game protocol (a p2p guest), and is named by the name it gave
// once lockstep seats it.
func (s *NetSession) admitNewcomer(id peer.ID, name string) error {
	if err := s.t.AdmitGuest(id); err != nil {
		s.log.Info("a newcomer asking for a seat refused", "peer", p2p.ShortID(id), "err", err)
		return err
	}
	s.mu.Lock()
	if s.newcomers == nil {
		s.newcomers = map[peer.ID]string{}
	}
	if _, ok := s.newcomers[id]; ok || len(s.newcomers) < maxNewcomerNames {
		s.newcomers[id] = name
	}
	s.mu.Unlock()
	s.log.Info("a newcomer asks for a seat", "peer", p2p.ShortID(id), "name", name)
	return nil
}

// maxNewcomerNames bounds the newcomers' names a game keeps.
const maxNewcomerNames = 4 * p2p.MaxGuests

// seated is the players' side of a newcomer seated (EventSeatTaken): a
// member of the game from now on, named by the name it gave (returned).
// It runs on the driver's goroutine, before the event is translated.
func (s *NetSession) seated(tr *Translator, e lockstep.Event) string {
	s.mu.Lock()
	name := s.newcomers[e.Peer]
	if name != "" && e.Peer != s.self {
		s.names[e.Peer] = name
	}
	s.mu.Unlock()
	if e.Peer == s.self {
		name = s.name
	}
	tr.SetName(e.Peer, name)
	if e.Peer != s.self {
		s.t.AddMember(e.Peer)
	}
	s.log.Info("a newcomer takes a seat", "peer", p2p.ShortID(e.Peer), "name", name, "colour", e.Colour.String(), "roll", e.Roll)
	return name
}

// seatNames keeps the names of the newcomers seated in a game beside its
// log (savegame.SaveNames), for verify and replay to name them. It runs
// on the driver's goroutine; names (the setup's players) is only read.
type seatNames struct {
	log    string // the game's log: the names go beside it
	setup  lockstep.Setup
	names  map[peer.ID]string
	takers []peer.ID
	more   map[peer.ID]string
}

// add keeps newcomer id's name; false if it was kept already.
func (n *seatNames) add(s *NetSession, id peer.ID, name string) bool {
	if name == "" || slices.Contains(n.takers, id) || len(n.takers) >= maxNewcomerNames {
		return false
	}
	if n.more == nil {
		n.more = map[peer.ID]string{}
	}
	n.takers, n.more[id] = append(n.takers, id), name
	all := copyNames(n.names)
	for k, v := range n.more {
		all[k] = v
	}
	if err := s.dir.SaveNamesBeside(n.log, n.setup, all, n.takers...); err != nil {
		s.log.Warn("a newcomer's name not saved: verify shows its peer ID", "err", err)
	}
	return true
}

// keep counts newcomer id, named in the names file already (a game taken
// up from its log), among those a later save names.
func (n *seatNames) keep(id peer.ID, name string) {
	if name == "" || slices.Contains(n.takers, id) || len(n.takers) >= maxNewcomerNames {
		return
	}
	if n.more == nil {
		n.more = map[peer.ID]string{}
	}
	n.takers, n.more[id] = append(n.takers, id), name
}

// tableTaken is the game's table with the seat a newcomer took shown as
// its: a person's, by name, the player's own if it is self.
func tableTaken(t ui.TableUpdate, e lockstep.Event, name string, self peer.ID) ui.TableUpdate {
	if e.Colour >= engine.NumColours {
		return t
	}
	if name == "" {
		name = shortID(e.Peer)
	}
	t.Seats[e.Colour] = ui.Seat{Kind: ui.SeatHuman, Name: name, PeerID: e.Peer.String(), You: e.Peer == self, Present: true, Ready: true}
	return t
}
