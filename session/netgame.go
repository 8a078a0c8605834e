package session

import (
	"context"
	"errors"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// owner is the one goroutine that reads the transport's inbox outside
// the lobby and the game's TransportLink (which own it while they run): between games it
// takes chat lines and drops the rest.
func (s *NetSession) owner() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case p := <-s.jobs:
			s.runPlan(p)
			s.mu.Lock()
			if s.gen == p.gen {
				s.mode, s.jobCancel = modeIdle, nil
			}
			if s.rematch && s.mode == modeIdle && !s.closed && s.last != nil {
				s.launch(s.rematchPlan())
			}
			s.rematch, s.gameOver, s.pausedTogether = false, false, false
			idle := s.mode == modeIdle
			s.mu.Unlock()
			if idle {
				// No game runs: the host admits strangers again (a
				// peer that dials us to offer its game). Jobs run on
				// this goroutine only, so none has set members since.
				s.t.SetMembers(nil)
			}
		case in := <-s.t.Inbox():
			if in.Kind == p2p.KindChat {
				if l, err := s.chat.Receive(in); err == nil {
					s.onChat(l)
				}
			}
		case <-s.t.Events():
		}
	}
}

// runPlan waits in a lobby until its game starts, then plays the game.
func (s *NetSession) runPlan(p lobbyPlan) {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.mu.Lock()
	if p.gen != s.gen {
		s.mu.Unlock()
		return // left before it began
	}
	s.jobCancel = cancel
	if p.watch != "" {
		s.mu.Unlock()
		s.t.SetMembers(nil)
		if err := s.spectate(ctx, p.watch); err != nil && ctx.Err() == nil {
			s.log.Error("watching", "err", err)
			s.q.push(ui.NoticeOf(explain(err)))
			s.ended(nil, lockstep.State{}, err)
		}
		return
	}
	if p.take != nil {
		s.mu.Unlock()
		s.t.SetMembers(nil)
		if err := s.takeSeat(ctx, p); err != nil && ctx.Err() == nil {
			s.log.Error("taking a seat", "err", err)
			s.q.push(ui.NoticeOf(explain(err)))
			s.ended(nil, lockstep.State{}, err)
		}
		return
	}
	if p.resume != nil {
		s.mu.Unlock()
		defer s.findPaused()
		// The others still hold our seat: no lobby, just the game. They
		// dial us as a member once discovery finds us again.
		// A newcomer seated before the game stopped is one of them.
		s.t.SetMembers(p.resume.Members())
		if err := s.play(ctx, p, lobby.Result{Setup: p.resume.Setup}); err != nil && ctx.Err() == nil {
			s.log.Error("resumed game", "err", err)
			s.q.push(ui.NoticeOf(explain(err)))
			s.ended(nil, lockstep.State{}, err)
		}
		return
	}
	cfg := p.cfg
	cfg.Player = s.name
	cfg.Connect = append([]peer.AddrInfo(nil), s.manual...)
	cfg.StartNow = p.startNow
	s.mu.Unlock()
	cfg.Logger = s.log
	cfg.OnChat = s.onChat
	res, err := lobby.Run(ctx, s.t, s.d, s.chat, cfg)
	if err != nil {
		if s.d != nil {
			// lobby.Run leaves its last advert up: take back the lobby we
			// left, or others would try to join it.
			if err := s.d.Update(p2p.Advert{Name: cfg.Player}); err != nil {
				s.log.Warn("advert update failed", "err", err)
			}
		}
		if ctx.Err() == nil {
			s.q.push(ui.NoticeOf(explain(err)))
			s.ended(nil, lockstep.State{}, err)
		}
		return
	}
	defer s.findPaused() // the game played is no longer one to continue
	if err := s.play(ctx, p, res); err != nil && ctx.Err() == nil {
		s.log.Error("game", "err", err)
		s.q.push(ui.NoticeOf(explain(err)))
		s.ended(nil, lockstep.State{}, err)
	}
}

func (s *NetSession) ended(info *GameInfo, st lockstep.State, err error) {
	if f := s.opts.Observer.Ended; f != nil {
		f(info, st, err)
	}
}

// play drives one game with a Game (lockstep's driver over the
// transport); it returns when the game is over (after the driver's
// linger) or the session closes.
func (s *NetSession) play(ctx context.Context, p lobbyPlan, res lobby.Result) error {
	// The Setup is checked completely (savegame.Create) before anything
	// is written: a game already on disk is never started again.
	var g *savegame.Game
	var err error
	switch {
	case p.resume != nil:
		g, err = s.dir.Resume(p.resume)
	case p.take != nil:
		g, err = s.dir.CreateTaken(res.Setup, time.Now())
	default:
		g, err = s.dir.Create(res.Setup, s.self, nil)
	}
	if err != nil {
		return err
	}
	gid, glog, logPath := res.Setup.GameID(), g.Log, g.Log.Path()
	defer glog.Close()
	known := res.Names
	if p.resume != nil {
		// No lobby tells the names again after a crash: the game's own
		// file does (savegame.SaveNames, written when it started).
		// A newcomer's game-take-… log has its own beside it.
		known = s.dir.NamesBeside(p.resume.Path)
	}
	s.mu.Lock()
	for id, n := range known {
		if id != s.self {
			s.names[id] = n
		}
	}
	names := make(map[peer.ID]string, len(s.names))
	for id, n := range s.names {
		names[id] = n
	}
	s.mu.Unlock()
	if p.resume == nil {
		if err := s.dir.SaveNamesBeside(logPath, res.Setup, names); err != nil {
			s.log.Warn("players' names not saved: a resumed game shows peer IDs", "err", err)
		}
		if err := s.dir.SaveSeatHosts(res.Setup, res.SeatHosts); err != nil {
			s.log.Warn("seat hosts not saved: a resumed game loses its web players", "err", err)
		}
	}
	var seatMoves [][]byte
	if p.resume != nil {
		res.SeatHosts = s.dir.SeatHosts(res.Setup) // who relays the web players' frames
		seatMoves = s.dir.SeatMoves(gid)           // and the seats moved since it began
	}
	// The people here each fly a seat of their own (netpeople.go).
	hot, err := s.gamePeople(res.Setup, res.SeatHosts, p.resume != nil, names)
	if err != nil {
		return err
	}
	defer func() {
		for _, h := range hot {
			h.glog.Close()
		}
	}()
	srv := s.serveWatchers(gid, g.Records, !res.NoWatchChat)
	defer srv.close()
	var runMu sync.Mutex
	runAt := lockstep.State{}
	free := botSeats(res.Setup) // the seats a newcomer may ask for now (runMu)
	stopInfo := p2p.ServeInfo(s.h, func(peer.ID) []byte {
		runMu.Lock()
		st, fr := runAt, free
		runMu.Unlock()
		return lobby.EncodeRunning(s.runningNow(res.Setup, names, st, srv, fr))
	})
	defer stopInfo()
	s.advertPlaying(res.Setup)
	tr := NewTranslator(res.Setup, s.self, names, logPath)
	var hotIDs []peer.ID
	for _, h := range hot {
		hotIDs = append(hotIDs, h.id)
	}
	tr.SetHotSeats(hotIDs...)
	var taken []lockstep.SeatOwner // the seats newcomers took before a resumed game stopped
	if p.resume != nil {
		taken = takenSeats(p.resume.Seats)
	}
	for _, o := range taken {
		tr.SetName(o.Player, seatName(o.Player, s.self, s.name, names))
		tr.SeatTaken(o.Colour, o.Player)
	}
	catchUps := &reconnects{tr: tr, names: names, push: s.q.push}
	rollWithin := s.rollWithin()
	info := GameInfo{Setup: res.Setup, Log: logPath, Resumed: p.resume != nil, Records: len(g.Records)}
	for _, h := range hot {
		info.People = append(info.People, PersonSeat{Name: names[h.id], Seat: h.id, Log: h.glog.Path()})
	}
	obs := s.opts.Observer
	var sess *Game
	gctx, stopGame := context.WithCancel(ctx)
	defer stopGame()
	setup := newSetupWatch(s.setupWait(), stopGame)
	defer setup.stop()
	takers := &seatNames{log: logPath, setup: res.Setup, names: names}
	for _, o := range taken {
		takers.keep(o.Player, seatName(o.Player, s.self, s.name, names))
	}
	var table ui.TableUpdate // the game's table as pushed (set before Run)
	var seatLost error       // a newcomer's seat taken by another (driver goroutine, read after Run)
	stall := newTakeStall(p.take, stopGame)
	defer stall.stop()
	// A game paused together continues with its people (continuewait.go).
	holdWait := time.Duration(0)
	if p.resume != nil && p.resume.Paused {
		holdWait = s.continueWait()
	}
	pw := newPauseWatch(holdWait > 0)
	var take *lockstep.Take
	var past []lockstep.Record
	var pastFrom peer.ID
	quiet := false // the first Ready holds the past a newcomer read: shown as History
	if p.resume != nil && p.resume.Take != nil {
		// A seat this program took, resumed after a crash: its own log
		// holds the past and the seat (lockstep.Restore seats it again).
		take = p.resume.Take
	}
	if p.take != nil {
		take, past, pastFrom = &lockstep.Take{Colour: p.take.colour}, p.take.past, p.take.from
		if hist, pos, ok := History(res.Setup, names, past); ok {
			tr.ResumeAt(pos) // before Run: the driver is not yet touching it
			s.q.push(hist...)
			quiet = true
		}
	}
	sess, err = NewGame(s.t, GameConfig{
		Take: take, Past: past, PastFrom: pastFrom,
		Setup: res.Setup, Key: s.opts.Key, Entropy: g.Entropy, Log: watchLog{Log: glog, srv: srv}, Records: g.Records,
		Tick: s.opts.Tick, AbsentTicks: s.opts.AbsentTicks, Linger: s.opts.Linger,
		Pending: res.Pending, Chat: s.chat, OnChat: s.onChat, Logger: s.log, ManualRoll: s.opts.ManualRoll,
		GoOnAlone: s.opts.GoOnAlone,
		OnPeer:    catchUps.onPeer,
		SeatHosts: res.SeatHosts, Relay: s.relaySeats(res.Setup, hot),
		AcceptSeats: true, SeatMoves: seatMoves, OnSeatMoved: s.seatMoved(res.Setup),
		HoldPause: holdWait > 0,
		// OnReady runs on the driver's goroutine, as do the Roll and
		// Choose closures: the translator is only ever touched there.
		OnReady: func(rd lockstep.Ready) {
			runMu.Lock()
			runAt = rd.State
			free = freeAfter(free, rd.Events)
			runMu.Unlock()
			setup.saw(rd.State)
			stall.saw(rd.State)
			if pw.saw(rd) {
				s.log.Info("the others continued the paused game after this player left it: this run stops; continue it from the saved games", "game", gid)
				stopGame()
			}
			for _, e := range rd.Events {
				if e.Kind == lockstep.EventSeatTaken {
					name := s.seated(tr, e)
					if e.Peer == s.self {
						stall.seatedNow()
					}
					if lost := p.take.lostTo(e, s.self, name); lost != nil {
						seatLost = lost
						stopGame() // Run returns; the newcomer says why below
					}
					takers.add(s, e.Peer, name)
					// Every screen's list of players shows who flies it now.
					table = tableTaken(table, e, name, s.self)
					s.q.push(table)
				}
			}
			events := rd.Events
			if quiet {
				events, quiet = nil, false
			}
			evs := tr.Translate(events, rd.State)
			// Before the push shows the end or the pause: the person may
			// quit from the lobby while the driver still lingers.
			s.mu.Lock()
			s.gameOver = s.gameOver || tr.Over()
			s.pausedTogether = pw.pausedHere()
			s.mu.Unlock()
			flown := tr.BotFlown()
			s.flown.Store(&flown) // before the push: the queue paces by it
			s.q.push(evs...)
			for _, e := range rd.Events {
				if e.Kind == lockstep.EventYourRoll && s.opts.ManualRoll && rollWithin > 0 {
					s.rollLater(sess, tr, e.Roll, rollWithin)
					s.q.push(ui.RollCountdown{Colour: tr.pos.ToMove(), In: rollWithin, You: true})
				}
			}
			if obs.Ready != nil {
				obs.Ready(info, rd)
			}
		},
	})
	if err != nil {
		return err
	}
	if err := s.startPeople(sess, res.Setup, names, hot); err != nil {
		return err
	}
	done := make(chan struct{})
	s.mu.Lock()
	if p.gen != s.gen || s.closed {
		s.mu.Unlock()
		return nil // the player left the lobby as it started
	}
	last := p
	switch v := s.hostView; {
	case p.resume != nil:
		// Whoever created the game reopens its lobby for a rematch; we
		// cannot tell who that was from the log, so we join it.
		last = lobbyPlan{cfg: lobby.Config{Lobby: res.Setup.Name, FindFor: 24 * time.Hour, ManualReady: !s.opts.AutoReady}}
	case v != nil && v.Lobby == res.Setup.Name && v.Host == s.self:
		// The one rematch rule: the creator reopens the table (launch
		// takes its seats, bots and rules from hostView) ...
		last.hosting, last.cfg.Create = true, true
	default:
		// ... and the others look for it until it is open again.
		last.hosting, last.cfg.Create, last.cfg.FindFor = false, false, 24*time.Hour
	}
	s.last = &last
	s.gameID = gid
	s.sess, s.tr, s.sessDone, s.hot = sess, tr, done, hot
	s.mode = modeGame
	s.myColour = tr.ColourOf(s.self)
	table = s.setupTable(res.Setup, names, p.hosting)
	for _, o := range taken {
		table = tableTaken(table, lockstep.Event{Colour: o.Colour, Peer: o.Player}, seatName(o.Player, s.self, s.name, names), s.self)
		if o.Player == s.self {
			s.myColour = o.Colour
		}
	}
	s.markOurs(&table)
	markWebSeats(&table, res.Setup, res.Phones)
	table.BotPace, table.BotPaceSet = res.Pace.Delay, res.Pace.Set
	pace := res.Pace
	s.tablePace.Store(&pace) // before the game's first event is queued
	s.mu.Unlock()
	s.q.push(table)
	if p.resume != nil && len(g.Records) > 0 {
		// The player resuming sees the game as it was, not a new start.
		if hist, pos, ok := History(res.Setup, names, g.Records); ok {
			tr.ResumeAt(pos) // before Run: the driver is not yet touching it
			s.q.push(hist...)
			s.q.push(ui.Resuming{On: true}) // until the translator's EventRecovered
		}
		s.q.push(savedChat(s.dir.Chat(gid))...)
	}
	if obs.Started != nil {
		if err := obs.Started(info); err != nil {
			close(done)
			s.mu.Lock()
			s.sess, s.hot = nil, nil
			s.mu.Unlock()
			return err
		}
	}
	s.log.Info("game started", "game", gid, "log", logPath)
	if holdWait > 0 {
		want := continueWant(p.resume, s.self, hotIDs)
		absent := func() []peer.ID {
			runMu.Lock()
			defer runMu.Unlock()
			return runAt.Absent
		}
		go s.liftWhenBack(gctx, pw, sess, hot, want, absent, names, holdWait)
	}
	st, err := sess.Run(gctx)
	if paused, ok := pw.leftPaused(); ok && ctx.Err() == nil {
		st, err = paused, nil // this player's run ended at the pause
	}
	close(done)
	s.flown.Store(nil)
	s.tablePace.Store(nil)
	s.mu.Lock()
	s.sess, s.lastColour, s.myColour, s.hot = nil, s.myColour, engine.NoColour, nil
	s.mu.Unlock()
	if missing, ok := setup.timedOut(); ok && ctx.Err() == nil {
		return s.setupTimedOut(gid, res.Setup.Name, missing, names)
	}
	if seatLost == nil {
		seatLost = stall.err(res.Setup.Name)
	}
	if seatLost != nil && ctx.Err() == nil {
		s.log.Info("the seat asked for was taken by another newcomer", "game", gid, "err", seatLost)
		return seatLost
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	s.log.Info("game ended", "game", gid, "phase", st.Phase, "paused", st.Paused)
	if st.Paused && ctx.Err() == nil {
		// Every player paused: the log stays unfinished and the lobby
		// offers it to continue another day. The watchers are given the
		// pauses before this program may stop (a headless one exits).
		srv.close()
		if !srv.drain(ctx, watchDrain) {
			s.log.Info("a watcher did not fetch the pause in time", "wait", watchDrain)
		}
		s.findPaused()
		go s.emitLobby()
	}
	if st.Phase == lockstep.PhaseOver || st.Phase == lockstep.PhaseHalted {
		if err := s.dir.MarkClosed(gid, st.Phase.String()); err != nil {
			s.log.Warn("could not mark the game over", "err", err)
		}
	}
	if ctx.Err() == nil {
		s.ended(&info, st, nil)
	}
	return nil
}

// rollWithin is how long a manual roll is waited for (see NetOptions):
// 60% of how long the other peers wait for a person to roll or choose
// (lockstep's ChooseTicks, ChoosePerAbsent × AbsentTicks by default) before they vote
// it absent, so a player who looks away keeps its seat.
func (s *NetSession) rollWithin() time.Duration {
	if s.opts.RollWithin != 0 {
		return s.opts.RollWithin
	}
	absent := s.opts.AbsentTicks
	switch {
	case absent < 0:
		return -1 // nobody is ever voted absent: wait for the key
	case absent == 0:
		absent = lockstep.DefaultAbsentTicks
	}
	tick := s.opts.Tick
	if tick <= 0 {
		tick = 100 * time.Millisecond // the driver's default
	}
	return time.Duration(lockstep.ChoosePerAbsent*absent) * tick * 6 / 10
}

// rollLater makes roll k for the player if it has not rolled it by then:
// the other peers would soon vote it absent and a bot would fly its seat.
func (s *NetSession) rollLater(sess *Game, tr *Translator, k uint64, after time.Duration) {
	time.AfterFunc(after, func() {
		_ = sess.Do(func(n *lockstep.Node) error {
			if !tr.CanRoll() || tr.rollK != k {
				return nil // rolled by key, or the roll is long gone
			}
			s.q.push(ui.Notice{Msg: ui.M("note.autoroll")})
			return tr.Roll(n)
		})
	})
}

// setupTable is the table as the game's Setup fixed it.
// hosting says this player created the game: its seat may be at any
// colour, so the setup's first seat does not tell.
func (s *NetSession) setupTable(setup lockstep.Setup, names map[peer.ID]string, hosting bool) ui.TableUpdate {
	t := tableOf(setup, names, s.self)
	t.Host = hosting
	return t
}

// markWebSeats marks the seats the lobby said are browsers' (web
// players: lobby.Result.Phones) as on a phone; a hot-seat person hosted
// by a program is not one. A game resumed after a crash knows no phones
// (its start is not read again) and marks none.
func markWebSeats(t *ui.TableUpdate, setup lockstep.Setup, phones map[peer.ID]bool) {
	for _, st := range setup.Seats {
		if st.Player != "" && phones[st.Player] && !t.Seats[st.Colour].You {
			t.Seats[st.Colour].Web = true
		}
	}
}

// tableOf is the table a game's Setup fixed, as self sees it (self ""
// for someone watching a log): people by name, else a short ID.
func tableOf(setup lockstep.Setup, names map[peer.ID]string, self peer.ID) ui.TableUpdate {
	t := ui.TableUpdate{GameID: setup.Name, Rules: setup.Rules, Started: true}
	for _, st := range setup.Seats {
		if st.Player == "" {
			t.Seats[st.Colour] = ui.Seat{Kind: ui.SeatBot, Name: st.Bot, Present: true, Ready: true}
			continue
		}
		n := names[st.Player]
		if n == "" {
			n = shortID(st.Player)
		}
		t.Seats[st.Colour] = ui.Seat{Kind: ui.SeatHuman, Name: n, PeerID: st.Player.String(),
			You: self != "" && st.Player == self, Present: true, Ready: true}
	}
	return t
}
