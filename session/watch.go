package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Watch looks for the running game of the lobby named lobbyName on the
// LAN and watches it from its start to its end, holding no seat: the
// game's log is read from one of its players, each record checked by
// this program's own referee (lockstep.NewObserver) before it is shown
// or saved, and the player is left for another if anything it sends
// fails the checks. The screen gets the game's events, a ui.Watching
// after each batch, and the chat; the Observer sees the game as a
// player's would (Started, Ready, Ended); the log saved is
// savegame.Dir.CreateWatched's, which aeroplane verify accepts.
func (s *NetSession) Watch(lobbyName string) error {
	name := p2p.CleanName(lobbyName)
	if name == "" {
		return ui.Errorf("err.watchwhich")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leaveLobby()
	if err := s.idle(); err != nil {
		return err
	}
	s.launch(lobbyPlan{watch: name})
	return nil
}

// stopWatching ends the watching of a game, if one is watched (Leave):
// the watched log is kept as far as it went, and the lobby is back.
func (s *NetSession) stopWatching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watching == nil || s.jobCancel == nil {
		return false
	}
	s.jobCancel()
	s.jobCancel = nil
	return true
}

// errNoWatchChat refuses a watcher's chat line at a table whose creator
// keeps watchers quiet.
var errNoWatchChat = errors.New("this game's creator does not let watchers chat")

// watchSay queues a watcher's chat line for its next request; false
// when nothing is watched.
func (s *NetSession) watchSay(text string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watching == nil {
		return false, nil
	}
	if !s.watching.run.Chat {
		return true, errNoWatchChat
	}
	if len(s.watching.queued) < 4 {
		s.watching.queued = append(s.watching.queued, text)
	}
	return true, nil
}

// watchFind is how often a watcher looks again for the game it wants;
// watchStall how long it reads a player whose log brings nothing new
// before it reads another's (a player may withhold its log).
const (
	watchFind  = 300 * time.Millisecond
	watchStall = 45 * time.Second
)

// spectator is one game being watched: its referee, its log, and where
// it reads from.
type spectator struct {
	s       *NetSession
	lobby   string
	run     lobby.Running
	servers []peer.ID // the game's players, the one found first first
	bad     map[peer.ID]string
	cur     int
	from    uint32   // the next record of the current server's log
	chat    uint32   // the next chat line of the current server
	say     []string // chat lines to say, one per request
	queued  []string // lines the player typed (NetSession.mu)

	setup lockstep.Setup
	node  *lockstep.Node
	log   *savegame.Log
	tr    *Translator
	info  GameInfo
	names map[peer.ID]string
	over  bool
	last  lockstep.State
	// accepted counts the records this program's referee accepted.
	accepted int
	problem  string
}

// spectate finds the game of lobbyName and watches it to its end.
func (s *NetSession) spectate(ctx context.Context, lobbyName string) error {
	s.q.push(ui.Notice{Msg: ui.M("note.watch.looking", lobbyName)})
	sp := &spectator{s: s, lobby: lobbyName, bad: map[peer.ID]string{}}
	host, run, err := s.findRunning(ctx, lobbyName)
	if err != nil {
		return err
	}
	sp.run = run
	sp.servers = []peer.ID{host}
	sp.names = map[peer.ID]string{}
	for _, p := range run.Players {
		sp.names[p.ID] = p.Name
		if p.ID != host && p.ID != s.self {
			sp.servers = append(sp.servers, p.ID)
		}
	}
	s.mu.Lock()
	s.watching = sp
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.watching = nil
		s.mu.Unlock()
		if sp.log != nil {
			_ = sp.log.Sync()
			sp.log.Close()
		}
	}()
	s.log.Info("watching", "lobby", lobbyName, "game", run.Game, "from", p2p.ShortID(host))
	return sp.loop(ctx)
}

// findRunning asks the peers whose adverts name lobbyName (and the peers
// connected by address) until one says it plays that lobby's game.
func (s *NetSession) findRunning(ctx context.Context, lobbyName string) (peer.ID, lobby.Running, error) {
	for {
		var ids []peer.ID
		if s.d != nil {
			for _, ad := range s.d.Peers() {
				if ad.Lobby == lobbyName && ad.ID != s.self {
					ids = append(ids, ad.ID)
				}
			}
		}
		for _, id := range s.h.Network().Peers() {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		for _, id := range ids {
			qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			s.reach(qctx, id)
			r, err := lobby.QueryRunning(qctx, s.h, id)
			cancel()
			if err == nil && r.Lobby == lobbyName {
				return id, r, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", lobby.Running{}, ctx.Err()
		case <-time.After(watchFind):
		}
	}
}

// loop reads the game from its players until it is over.
func (sp *spectator) loop(ctx context.Context) error {
	s := sp.s
	fails := 0
	progressAt := time.Now()
	for !sp.over {
		if ctx.Err() != nil {
			return nil
		}
		id, ok := sp.server()
		if !ok {
			return fmt.Errorf("watching %q: every player's log failed the checks or refused us (%s); the game cannot be watched", sp.lobby, sp.problem)
		}
		s.mu.Lock()
		sp.say = append(sp.say, sp.queued...)
		sp.queued = nil
		s.mu.Unlock()
		req := watchRequest{Game: sp.run.Game, From: sp.from, ChatFrom: sp.chat, Name: s.name}
		if len(sp.say) > 0 {
			req.Say, sp.say = sp.say[0], sp.say[1:]
		}
		b, err := p2p.QueryWatch(ctx, s.h, id, encodeWatchRequest(req))
		var a watchAnswer
		if err == nil {
			a, err = decodeWatchAnswer(b)
		}
		if err == nil && a.Status != watchOK {
			err = fmt.Errorf("%s says: %s", sp.nameOf(id), a.Status)
		}
		if err == nil && a.From != sp.from {
			err = fmt.Errorf("%s answered from record %d, asked for %d", sp.nameOf(id), a.From, sp.from)
			sp.cutOff(id, err.Error())
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			fails++
			s.log.Info("watch request failed", "peer", p2p.ShortID(id), "err", err)
			if fails%3 == 0 {
				sp.next() // try another player's log
			}
			cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			s.reach(cctx, id)
			cancel()
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(watchFind):
			}
			continue
		}
		fails = 0
		switch {
		case len(a.Records) > 0:
			progressAt = time.Now()
		case time.Since(progressAt) > watchStall && len(sp.servers) > 1:
			// A player that answers but never with more: another's log
			// (a game waiting for everyone costs a re-read, no more).
			s.log.Info("no news from the player watched: reading another's log", "peer", p2p.ShortID(id))
			progressAt = time.Now()
			sp.next()
			continue
		}
		if err := sp.take(id, a); err != nil {
			if errors.Is(err, errLocal) {
				return err
			}
			sp.cutOff(id, err.Error())
			continue
		}
		for _, c := range a.Chat {
			s.q.push(ui.ChatLine{From: c.From, Colour: engine.NoColour, Text: c.Text})
		}
		sp.chat = a.ChatNext
	}
	return sp.end()
}

// server is the player read from now; false when none is left.
func (sp *spectator) server() (peer.ID, bool) {
	for range sp.servers {
		id := sp.servers[sp.cur]
		if sp.bad[id] == "" {
			return id, true
		}
		sp.next()
	}
	return "", false
}

// next moves to another player's log, from its start: its order is its
// own, and what the referee holds already it ignores.
func (sp *spectator) next() {
	sp.cur = (sp.cur + 1) % len(sp.servers)
	sp.from, sp.chat = 0, 0
}

// cutOff stops reading a player whose log failed the checks: it is
// never asked again, its connection is closed, and the screen says so.
func (sp *spectator) cutOff(id peer.ID, why string) {
	s := sp.s
	sp.bad[id] = why
	sp.problem = why
	s.log.Warn("a player's log failed the watcher's checks", "peer", p2p.ShortID(id), "why", why)
	s.q.push(ui.Notice{Msg: ui.M("note.watch.badlog", sp.nameOf(id), why)})
	p2p.ClosePeer(s.h, id)
	sp.next()
	sp.status(id)
}

func (sp *spectator) nameOf(id peer.ID) string {
	if n := sp.names[id]; n != "" {
		return n
	}
	return p2p.ShortID(id)
}

// take checks and applies one answer's records; an error names what the
// player sent that no honest player's log holds.
func (sp *spectator) take(id peer.ID, a watchAnswer) error {
	for i, rec := range a.Records {
		k := int(a.From) + i
		if k == 0 {
			if rec.Type != lockstep.RecordSetup {
				return errors.New("its log does not start with the game's setup")
			}
			if err := sp.begin(rec.Data); err != nil {
				return err
			}
			continue
		}
		if sp.node == nil {
			return errors.New("records before the setup")
		}
		if rec.Type != lockstep.RecordMessage {
			return fmt.Errorf("record %d is a second setup", k)
		}
		if err := sp.node.Step(id, rec.Data); err != nil {
			return fmt.Errorf("record %d: %w", k, err)
		}
	}
	sp.from = a.From + uint32(len(a.Records))
	if sp.node == nil {
		return nil
	}
	if err := sp.flush(); err != nil {
		return err
	}
	sp.status(id)
	return nil
}

// begin starts the referee and the saved log on the setup record, or
// checks that a later player's log is of the same game.
func (sp *spectator) begin(data []byte) error {
	if sp.node != nil {
		if !bytes.Equal(data, sp.setup.Encode()) {
			return errors.New("its log is of another game")
		}
		return nil
	}
	setup, err := lockstep.DecodeSetup(data)
	if err != nil {
		return fmt.Errorf("its setup: %w", err)
	}
	if setup.GameID() != sp.run.Game {
		return fmt.Errorf("its setup is of game %s, it said %s", setup.GameID(), sp.run.Game)
	}
	n, err := lockstep.NewObserver(setup)
	if err != nil {
		return fmt.Errorf("its setup: %w", err)
	}
	s := sp.s
	l, err := s.dir.CreateWatched(setup.GameID(), time.Now())
	if err != nil {
		return fmt.Errorf("%w: %w", errLocal, err)
	}
	sp.setup, sp.node, sp.log = setup, n, l
	sp.tr = NewTranslator(setup, "", sp.names, l.Path())
	sp.info = GameInfo{Setup: setup, Log: l.Path()}
	s.mu.Lock()
	for id, name := range sp.names {
		if id != s.self && name != "" {
			s.names[id] = name
		}
	}
	names := copyNames(s.names)
	s.mu.Unlock()
	t := s.setupTable(setup, names, false)
	t.GameID = sp.lobby
	s.q.push(t)
	if f := s.opts.Observer.Started; f != nil {
		if err := f(sp.info); err != nil {
			return fmt.Errorf("%w: %w", errLocal, err)
		}
	}
	return nil
}

// errLocal marks a failure of this program (its disk), not the player's.
var errLocal = errors.New("watching stopped here")

// flush writes what the referee accepted, shows its events, and notes
// the end.
func (sp *spectator) flush() error {
	s := sp.s
	rd := sp.node.Ready()
	if len(rd.LogEntries) > 0 {
		if err := sp.log.Write(rd.LogEntries); err != nil {
			return fmt.Errorf("%w: %w", errLocal, err)
		}
		sp.accepted += len(rd.LogEntries)
	}
	s.q.push(sp.tr.Translate(rd.Events, rd.State)...)
	if f := s.opts.Observer.Ready; f != nil {
		f(sp.info, rd)
	}
	sp.node.Advance(rd)
	sp.last = rd.State
	// A game the players paused together is watched to its pause: they
	// stop, and its log (and ours) stays unfinished, paused at that roll.
	if rd.State.Phase == lockstep.PhaseOver || rd.State.Phase == lockstep.PhaseHalted || rd.State.Paused {
		sp.over = true
	}
	return nil
}

// status tells the screen what the referee has checked.
func (sp *spectator) status(id peer.ID) {
	sp.s.q.push(ui.Watching{Lobby: sp.lobby, From: sp.nameOf(id), Records: sp.accepted, Roll: sp.last.Roll,
		Problem: sp.problem, Over: sp.over, Paused: sp.last.Paused})
}

// end saves the watched log and says how the game ended.
func (sp *spectator) end() error {
	s := sp.s
	if err := sp.log.Sync(); err != nil {
		return fmt.Errorf("saving the watched game: %w", err)
	}
	s.log.Info("watched game ended", "game", sp.setup.GameID(), "log", sp.log.Path(), "phase", sp.last.Phase, "paused", sp.last.Paused)
	s.ended(&sp.info, sp.last, nil)
	return nil
}

func copyNames(m map[peer.ID]string) map[peer.ID]string {
	out := make(map[peer.ID]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// reach connects to id unless a connection is open: a connection, not a
// game stream, is all the watch and info protocols need, and a player in
// a game serves a non-member nothing else (p2p's watchers' rules).
func (s *NetSession) reach(ctx context.Context, id peer.ID) {
	if s.h.Network().Connectedness(id) != network.Connected {
		_ = s.h.Connect(ctx, peer.AddrInfo{ID: id})
	}
}
