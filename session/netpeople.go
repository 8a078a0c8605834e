package session

import (
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
	"aeroplane/web/client"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Several people at one program at a LAN table (hot seat): each person
// beyond the program's own player is a seat this program hosts, exactly
// as a web player is (lobby.Control.SeatVia and the rest; Result.SeatHosts
// names this program; the others take that seat's frames only from it),
// with its key kept here (savegame.Dir.SeatKey) and its node run here,
// over the game's Hub, instead of in a browser. Its node writes a log and
// keeps a dice secret of its own (savegame.Dir.CreateSeat), so a program
// killed mid-game takes each of its people's seats up again with it. The
// screen asks each person by name when the turn is theirs (the offline
// hot seat's Translator.SetHotSeats), and their commands go to their own
// node (actTurn). A person's ready is the program's: it follows its own.

// netPerson is one more person playing at this program.
type netPerson struct {
	name string
	id   peer.ID
	key  crypto.PrivKey
}

// AddPerson implements ui.PersonAdder at a LAN table, created here or
// joined: the person sits at the table as a player of their own (their
// own seat key, peer ID, name and colour), hosted by this program, and
// at every table this program sits at from then on.
func (s *NetSession) AddPerson(name string) error {
	name = p2p.CleanName(name)
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return errClosed
	case s.mode == modeGame:
		s.mu.Unlock()
		return ui.Errorf("err.seatsfixed")
	case s.mode != modeLobby || s.cur == nil:
		s.mu.Unlock()
		return ui.Errorf("err.createorjoin")
	}
	p, err := s.newPersonLocked(name)
	ctl, gen := s.cur.ctl, s.cur.gen
	if err == nil {
		s.people = append(s.people, p)
		s.peopleAsked[p.id] = gen
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	s.log.Info("a person joins at this program", "name", name, "seat", p2p.ShortID(p.id))
	if err := ctl.SeatVia(p.id, p.name, false); err != nil {
		s.mu.Lock()
		s.people = slices.DeleteFunc(s.people, func(q netPerson) bool { return q.id == p.id })
		s.mu.Unlock()
		return explain(err)
	}
	return nil
}

// newPersonLocked checks name against the people here and at the table
// and makes the person's seat key; s.mu is held.
func (s *NetSession) newPersonLocked(name string) (netPerson, error) {
	taken := []string{s.name}
	for _, p := range s.people {
		taken = append(taken, p.name)
	}
	if v := s.webView; v != nil && s.mode == modeLobby {
		for _, pl := range v.Players {
			taken = append(taken, pl.Name)
		}
	}
	if err := checkPersonName(name, taken); err != nil {
		return netPerson{}, err
	}
	if len(s.people) >= engine.NumColours-1 {
		return netPerson{}, errors.New("every seat is taken by a person here")
	}
	key, err := s.dir.SeatKey(name)
	if err != nil {
		return netPerson{}, err
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return netPerson{}, fmt.Errorf("the seat key of %q: %w", name, err)
	}
	return netPerson{name: name, id: id, key: key}, nil
}

// person is the person of seat id here (nil: none); s.mu is held.
func (s *NetSession) person(id peer.ID) *netPerson {
	for i := range s.people {
		if s.people[i].id == id {
			return &s.people[i]
		}
	}
	return nil
}

// ours reports whether a person at this program plays seat id (its own
// player, one of its people, or a person's seat of the game on); s.mu is
// held.
func (s *NetSession) ours(id peer.ID) bool {
	if id == s.self || s.person(id) != nil {
		return true
	}
	return slices.ContainsFunc(s.hot, func(h *hotSeat) bool { return h.id == id })
}

// markOurs marks the seats of this program's people in t as theirs (You):
// the screen names whose turn it is among them; s.mu is held.
func (s *NetSession) markOurs(t *ui.TableUpdate) {
	for c, st := range t.Seats {
		if st.Kind != ui.SeatHuman || st.You {
			continue
		}
		if id, err := peer.Decode(st.PeerID); err == nil && s.ours(id) {
			t.Seats[c].You = true
		}
	}
}

// seatPeople keeps this program's people at the table v shows, once its
// own player sits there: each person not seated is asked for once per
// table (p.gen), and each person's ready follows the program's own.
// s.mu is held; the lobby's calls go on goroutines of their own (this
// runs in the lobby's callback).
func (s *NetSession) seatPeople(p lobbyPlan, v lobby.View) {
	if len(s.people) == 0 || p.ctl == nil {
		return
	}
	i := slices.IndexFunc(v.Players, func(pl lobby.Player) bool { return pl.ID == s.self })
	if i < 0 {
		return
	}
	ready := v.Players[i].Ready
	for _, pr := range s.people {
		j := slices.IndexFunc(v.Players, func(pl lobby.Player) bool { return pl.ID == pr.id })
		switch {
		case j < 0 && s.peopleAsked[pr.id] != p.gen:
			s.peopleAsked[pr.id] = p.gen
			go func() {
				if err := p.ctl.SeatVia(pr.id, pr.name, false); err != nil && !errors.Is(err, lobby.ErrGone) {
					s.log.Info("a person here not seated", "name", pr.name, "err", err)
					s.q.push(ui.Notice{Msg: ui.M("note.personnotseated", pr.name, explain(err))})
				}
			}()
		case j >= 0 && v.Players[j].Via == s.self && v.Players[j].Ready != ready && !s.readyAsking[pr.id]:
			s.readyAsking[pr.id] = true
			go func() {
				err := p.ctl.ReadyVia(pr.id, ready)
				s.mu.Lock()
				delete(s.readyAsking, pr.id)
				s.mu.Unlock()
				if err != nil && !errors.Is(err, lobby.ErrGone) {
					s.log.Info("a person's ready not said", "name", pr.name, "err", err)
				}
			}()
		}
	}
}

// readyPeople says ready (or not) for this program's people at the table
// at once, as its own player does: a creator's Start needs them ready.
func (s *NetSession) readyPeople(ctl *lobby.Control, ready bool) error {
	s.mu.Lock()
	var ids []peer.ID
	if v := s.webView; v != nil {
		for _, pl := range v.Players {
			if pl.Via == s.self && s.person(pl.ID) != nil {
				ids = append(ids, pl.ID)
			}
		}
	}
	s.mu.Unlock()
	for _, id := range ids {
		if err := ctl.ReadyVia(id, ready); err != nil {
			return err
		}
	}
	return nil
}

// gamePeople are the seats of the game setup this program hosts for
// people here, their files opened: the seats of res.SeatHosts naming this
// program whose person is here (a new game), or whose files are here (a
// game taken up after a crash: the person's key from the name the game's
// names file gives). A web player's seat is none of them.
func (s *NetSession) gamePeople(setup lockstep.Setup, hosts map[peer.ID]peer.ID, resumed bool, names map[peer.ID]string) ([]*hotSeat, error) {
	var hot []*hotSeat
	closeAll := func() {
		for _, h := range hot {
			h.glog.Close()
		}
	}
	for _, st := range setup.Seats {
		if st.Player == "" || st.Player == s.self || hosts[st.Player] != s.self {
			continue
		}
		s.mu.Lock()
		p := s.person(st.Player)
		s.mu.Unlock()
		var g *savegame.Game
		var err error
		var key crypto.PrivKey
		switch {
		case resumed:
			g, err = s.dir.ResumeSeat(setup, st.Player)
			if errors.Is(err, savegame.ErrNoSeat) {
				continue // a web player's: its browser holds its node
			}
			if err == nil {
				key, err = s.dir.SeatKey(names[st.Player])
				if err == nil && !peerOf(key, st.Player) {
					err = fmt.Errorf("the seat key of %q is not that seat's: its seat cannot be taken up", names[st.Player])
				}
				if err != nil {
					g.Log.Close()
				}
			}
			if err == nil && p == nil {
				// Back at the laptop after the crash: seated at the
				// tables that follow too.
				s.mu.Lock()
				s.people = append(s.people, netPerson{name: names[st.Player], id: st.Player, key: key})
				s.mu.Unlock()
			}
		case p != nil:
			key = p.key
			g, err = s.dir.CreateSeat(setup, st.Player)
		default:
			continue
		}
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("seating %s: %w", names[st.Player], err)
		}
		hot = append(hot, &hotSeat{colour: st.Colour, id: st.Player, key: key, game: g, glog: g.Log, asks: make(chan struct{}, 1)})
	}
	return hot, nil
}

func peerOf(key crypto.PrivKey, id peer.ID) bool {
	got, err := peer.IDFromPrivateKey(key)
	return err == nil && got == id
}

// startPeople makes the node and driver of each person's seat over its
// link in g's Hub; OnReady translates for the person's own commands and,
// headless (NetOptions.PersonMove), answers its choices.
func (s *NetSession) startPeople(g *Game, setup lockstep.Setup, names map[peer.ID]string, hot []*hotSeat) error {
	rollWithin := s.rollWithin()
	for _, h := range hot {
		l := g.SeatLink(h.id)
		if l == nil {
			return fmt.Errorf("seating %s: the game holds no link for that seat", names[h.id])
		}
		cfg := lockstep.Config{Setup: setup, Self: h.id, Key: h.key, Entropy: h.game.Entropy,
			AutoRoll: !s.opts.ManualRoll, AbsentTicks: s.opts.AbsentTicks, GoOnAlone: s.opts.GoOnAlone}
		var n *lockstep.Node
		var err error
		if len(h.game.Records) > 0 {
			n, err = lockstep.Restore(cfg, h.game.Records)
		} else {
			n, err = lockstep.NewNode(cfg)
		}
		if err != nil {
			return fmt.Errorf("seating %s: %w", names[h.id], err)
		}
		h.tr = NewTranslator(setup, h.id, names, h.glog.Path())
		if _, pos, ok := History(setup, names, h.game.Records); ok && len(h.game.Records) > 1 {
			h.tr.ResumeAt(pos) // before Run: its driver is not yet touching it
		}
		chosen := int64(-1)
		h.drv, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: l, Log: h.glog, Tick: s.opts.Tick, Linger: s.opts.Linger,
			Logger: s.log.With("seat", p2p.ShortID(h.id)), StopWhenPaused: true, ContinuePaused: true, HoldPaused: g.holdPause,
			OnReady: func(rd lockstep.Ready) {
				h.tr.Translate(rd.Events, rd.State)
				if h.tr.CanRoll() || len(h.tr.choice) > 0 {
					select {
					case h.asks <- struct{}{}:
					default:
					}
				}
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourRoll && s.opts.ManualRoll && rollWithin > 0 && s.opts.PersonMove == nil {
						s.rollLaterHot(h, e.Roll, rollWithin)
					}
				}
				st := rd.State
				if pick := s.opts.PersonMove; pick != nil && st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 && int64(st.Roll) != chosen {
					chosen = int64(st.Roll)
					m := pick(st, setup.Rules)
					go func() { _ = h.drv.Do(func(n *lockstep.Node) error { return n.Choose(m) }) }()
				}
			}})
		if err != nil {
			return fmt.Errorf("seating %s: %w", names[h.id], err)
		}
	}
	return nil
}

// rollLaterHot rolls roll k for the person of h if they have not by then,
// as rollLater does for this program's own player.
func (s *NetSession) rollLaterHot(h *hotSeat, k uint64, after time.Duration) {
	time.AfterFunc(after, func() {
		_ = h.drv.Do(func(n *lockstep.Node) error {
			if !h.tr.CanRoll() || h.tr.rollK != k {
				return nil
			}
			s.q.push(ui.Notice{Msg: ui.M("note.autorollperson", h.tr.name(h.id))})
			return h.tr.Roll(n)
		})
	})
}

// runPerson runs h's driver until the game ends or ctx does (play
// closes its log); it is the Relay of a person's seat (the Hub is its
// wire).
func (s *NetSession) runPerson(ctx context.Context, h *hotSeat) {
	if _, err := h.drv.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Error("a person's seat", "seat", p2p.ShortID(h.id), "err", err)
	}
}

// relaySeats is GameConfig.Relay: a person's seat runs its node here,
// any other seat this program hosts is a web player's (relayWeb).
func (s *NetSession) relaySeats(setup lockstep.Setup, hot []*hotSeat) func(ctx context.Context, seat peer.ID, l lockstep.Link) {
	web := s.relayWeb(setup)
	return func(ctx context.Context, seat peer.ID, l lockstep.Link) {
		for _, h := range hot {
			if h.id == seat {
				s.runPerson(ctx, h)
				return
			}
		}
		web(ctx, seat, l)
	}
}

// actTurn runs a command of the screen (f, on the node) for the person
// here whose turn it is: this program's own player's on the game's
// driver, another person's on that seat's (check and done are the
// screen translator's side of it, as LocalSession's).
func (s *NetSession) actTurn(f func(*Translator, *lockstep.Node) error, check func(*Translator) error, done func(*Translator, uint64)) error {
	g, err := s.game()
	if err != nil {
		return err
	}
	s.mu.Lock()
	hot := s.hot
	s.mu.Unlock()
	return actSeats(g.sess.Driver, g.tr, hot, f, check, done)
}

// leavePeople signs the Leave of every person here in the game on: a
// program that leaves takes its people with it.
func (s *NetSession) leavePeople() {
	s.mu.Lock()
	hot := s.hot
	s.mu.Unlock()
	for _, h := range hot {
		if err := h.drv.Do(func(n *lockstep.Node) error { return n.Leave() }); err != nil {
			s.log.Warn("a person's leave not signed: the others see them absent", "seat", p2p.ShortID(h.id), "err", err)
		}
	}
}

// forPeople takes the decision f, which this program's player just took
// for the laptop (pause, play on, go on alone), for each person here in
// the game on too: on the wire they are players of their own, and a
// pause, say, needs every player's.
func (s *NetSession) forPeople(what string, f func(*lockstep.Node) error) {
	s.mu.Lock()
	hot := s.hot
	s.mu.Unlock()
	for _, h := range hot {
		if err := h.drv.Do(f); err != nil {
			s.log.Debug("a person's "+what+" not taken", "seat", p2p.ShortID(h.id), "err", err)
		}
	}
}

var _ ui.PersonAdder = (*NetSession)(nil)

// webTableOf is the table as the browsers here read it (webTable), this
// program's people marked as people at a laptop, not web players
// (hosted through this program too, but not from a phone); s.mu is held.
func (s *NetSession) webTableOf(v lobby.View) client.Table {
	t := webTable(v)
	for i, p := range t.Players {
		if id, err := peer.Decode(p.ID); err == nil && s.ours(id) {
			t.Players[i].Web = false
		}
	}
	return t
}
