package session

import (
	"fmt"
	"slices"
	"strings"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Actor is what a command turns into: the local player's intents on a
// lockstep.Node (which satisfies it).
type Actor interface {
	Roll() error
	Choose(m engine.Move) error
}

// Command errors: the interface shows them as notices.
var (
	ErrNotYourRoll   = ui.Errorf("err.notyourroll")
	ErrAlreadyRolled = ui.Errorf("err.alreadyrolled")
	ErrNoChoice      = ui.Errorf("err.nochoice")
	ErrGameOver      = ui.Errorf("err.gameover")
)

// Translator turns one game's lockstep output into ui events and guards the
// local player's commands. It keeps the few facts lockstep events leave
// implicit: the position before each move (Moved.Before), whether the
// local player may roll, and the choices it may make. It does no IO; any
// driver (local or p2p) feeds it every Ready in order.
type Translator struct {
	setup   lockstep.Setup
	self    peer.ID
	names   map[peer.ID]string
	colours map[peer.ID]engine.Colour
	logPath string

	started, over bool
	// resuming: a resumed game catching up (ResumeAt) until the node has
	// its own messages back (EventRecovered), when ui.Resuming ends it.
	resuming bool
	pos      engine.Position

	// the local player's roll: EventYourRoll for rollK, and whether it rolled
	mayRoll bool
	rollK   uint64
	asked   bool

	// the roll whose Rolled was shown last, and whether it asked us to choose
	rolledK   uint64
	hasRolled bool
	youChose  bool
	choice    []engine.Move // empty unless the local player must Choose

	lastWait *ui.DiceWaiting

	// what the screen was last told of a lone decision (State.Missing)
	// and of State.SoloDice, so each change is said once
	asking bool
	solo   bool
	// flown are the seats a bot flies now: bot seats, and the seats of
	// players absent or gone (for the screen's pace, BotFlown)
	flown [engine.NumColours]bool
	// away are the seats shown absent (ui.Presence), so that a rollback
	// that undoes an absence shows the player back (rollbackPresence)
	away [engine.NumColours]bool
	// hot are the other seats of this program (hot seat, SetHotSeats):
	// their people use this screen, so their rolls and choices are asked
	// here too, and their own translators take the commands
	hot map[peer.ID]bool
	// hotAsked: the person of another seat here rolled this roll
	// (HotRolled), so the screen no longer asks for it
	hotAsked  bool
	hotChoice []engine.Move // the choice the screen asks of another person here
	rolls     uint64        // Rolled events so far: which ask a Hot* answer is for
	// split: the table came apart or together again in this game
	// (splitSeen); setAside: the peers whose undone branch's residue the
	// screen was told of (evidence)
	split    bool
	setAside map[peer.ID]bool
}

// Rolls counts the rolls translated: pass it, read with the check, to
// HotRolled and HotChose, so a late answer never closes a later ask.
func (t *Translator) Rolls() uint64 { return t.rolls }

// HotRolled tells the translator that the person of another seat here
// rolled (through that seat's own translator) the roll asked after
// rolls rolls: it is asked no more.
func (t *Translator) HotRolled(rolls uint64) {
	if rolls == t.rolls {
		t.hotAsked = true
	}
}

// HotChose tells the translator that the person of another seat here
// chose the move of the roll rolls counts: it is asked no more.
func (t *Translator) HotChose(rolls uint64) {
	if rolls == t.rolls {
		t.hotChoice = nil
	}
}

// HotRollCheck says whether the screen asks another person here for a
// roll now (nil), or why a roll key does nothing.
func (t *Translator) HotRollCheck() error {
	switch w := t.lastWait; {
	case t.over:
		return ErrGameOver
	case t.hotAsked:
		return ErrAlreadyRolled
	case w == nil || !w.YouRoll || !t.hot[t.owner(w.ToMove)]:
		return ErrNotYourRoll
	}
	return nil
}

// HotChooseCheck says whether the screen asks another person here to
// choose m now (nil), or why not.
func (t *Translator) HotChooseCheck(m engine.Move) error {
	switch {
	case t.over:
		return ErrGameOver
	case len(t.hotChoice) == 0:
		return ErrNoChoice
	case !slices.Contains(t.hotChoice, m):
		return fmt.Errorf("%s is not one of the moves %v", m, t.hotChoice)
	}
	return nil
}

// SetHotSeats names the other seats this program holds (several people at
// one laptop): the screen this translator feeds asks for their rolls and
// choices as for its own seat's. Their commands go to their own nodes,
// through translators of their own.
func (t *Translator) SetHotSeats(ids ...peer.ID) {
	t.hot = map[peer.ID]bool{}
	for _, id := range ids {
		if id != t.self {
			t.hot[id] = true
		}
	}
}

// hotMover reports whether colour c is another seat of this program
// that a person flies now (not a bot).
func (t *Translator) hotMover(c engine.Colour) bool {
	if c >= engine.NumColours || t.flown[c] {
		return false
	}
	for _, st := range t.setup.Seats {
		if st.Colour == c {
			return t.hot[st.Player]
		}
	}
	return false
}

// NewTranslator prepares for the game of setup as seen by self (empty for
// an observer). names gives the people's names by peer ID (missing ones
// show as a short ID; bots show as their kind); logPath is reported in
// GameOver.
func NewTranslator(setup lockstep.Setup, self peer.ID, names map[peer.ID]string, logPath string) *Translator {
	t := &Translator{setup: setup, self: self, names: map[peer.ID]string{}, colours: map[peer.ID]engine.Colour{}, logPath: logPath}
	for _, st := range setup.Seats {
		if st.Player != "" {
			t.colours[st.Player] = st.Colour
			t.names[st.Player] = names[st.Player]
		} else if st.Colour < engine.NumColours {
			t.flown[st.Colour] = true
		}
	}
	return t
}

// SetName names a peer met during the game (a newcomer taking a seat).
// Call it where Translate is called: the names are that goroutine's.
func (t *Translator) SetName(id peer.ID, name string) {
	if name != "" && t.names[id] == "" && len(t.names) < maxTranslatorNames {
		t.names[id] = name
	}
}

// SeatTaken notes that newcomer id flies seat c from now on (lockstep's
// Take): a person's seat, no longer a bot's, and id's colour. Translate
// calls it on EventSeatTaken; a game taken up from its log calls it for
// the seats its log says were taken (savegame.Saved.Seats) before the
// first Translate, since a restored node tells no past event.
func (t *Translator) SeatTaken(c engine.Colour, id peer.ID) {
	if c >= engine.NumColours {
		return
	}
	t.flown[c] = false
	if len(t.colours) < maxTranslatorNames {
		t.colours[id] = c
	}
}

// maxTranslatorNames bounds the names SetName adds: the setup's players
// and a few newcomers.
const maxTranslatorNames = 32

// SetLogPath changes the path GameOver reports (e.g. "" once saving failed).
func (t *Translator) SetLogPath(p string) { t.logPath = p }

// Position is the position after the last translated move.
func (t *Translator) Position() engine.Position { return t.pos }

// Over reports whether the game ended or halted.
func (t *Translator) Over() bool { return t.over }

// CanRoll reports whether Roll would be accepted now.
func (t *Translator) CanRoll() bool { return t.mayRoll && !t.asked && !t.over }

// Choices are the moves Choose accepts now.
func (t *Translator) Choices() []engine.Move { return slices.Clone(t.choice) }

// name is how people see a peer: its chosen name, else a short ID.
func (t *Translator) name(id peer.ID) string {
	if n := t.names[id]; n != "" {
		return n
	}
	if id == "" {
		return "?"
	}
	s := id.String()
	if len(s) > 8 {
		s = "…" + s[len(s)-6:]
	}
	return s
}

// History is what a player resuming game setup from its log saw of it
// before the crash, as ui events (the board from the start, every roll
// and move, absences, leaves, seats taken, cheats; no questions or
// waits, which are past): records are the log's, replayed as an
// observer (lockstep's VerifyRecords), and the position it ends on is
// where the live translator takes up (ResumeAt). A log that does not verify gives no
// history: the game itself then says what is wrong.
func History(setup lockstep.Setup, names map[peer.ID]string, records []lockstep.Record) ([]ui.Event, engine.Position, bool) {
	v, err := lockstep.VerifyRecords(records)
	if err != nil || len(v.Events) == 0 {
		return nil, engine.Position{}, false
	}
	obs := NewTranslator(setup, "", names, "")
	var out []ui.Event
	for _, e := range obs.Translate(v.Events, lockstep.State{}) {
		switch e := e.(type) {
		case ui.GameStarted, ui.Rolled, ui.Moved, ui.Presence, ui.Left, ui.CheatDetected:
			out = append(out, e)
		case ui.Notice:
			// A newcomer flying a seat from a roll on is history too: the
			// players list names the newcomer, the board showed the bot.
			if e.Msg.Key == "note.seat.taken" {
				out = append(out, e)
			}
		}
	}
	if !obs.started {
		return nil, engine.Position{}, false
	}
	return out, obs.pos, true
}

// ResumeAt makes the translator go on from pos, the board History ended
// on, instead of starting the game again; call it before the first
// Translate.
func (t *Translator) ResumeAt(pos engine.Position) {
	t.pos, t.started, t.resuming = pos, true, true
	t.splitSeen() // restored from its log: the others went on without it
}

// BotFlown reports, by colour, the seats a bot flies now: bot seats and
// the seats of players absent or gone for good.
func (t *Translator) BotFlown() [engine.NumColours]bool { return t.flown }

// ColourOf is the seat a peer plays (NoColour for someone without one),
// for chat lines.
func (t *Translator) ColourOf(id peer.ID) engine.Colour {
	if c, ok := t.colours[id]; ok {
		return c
	}
	return engine.NoColour
}

// Translate turns one Ready's events, with the state after them, into ui
// events. Call it for every Ready, in order.
func (t *Translator) Translate(evs []lockstep.Event, st lockstep.State) []ui.Event {
	var out []ui.Event
	for i, e := range evs {
		switch e.Kind {
		case lockstep.EventGameStarted:
			pos, err := engine.NewGame(t.setup.Colours()...)
			if err == nil {
				pos, err = pos.WithToMove(e.Colour)
			}
			if err != nil {
				out = append(out, ui.Notice{Msg: ui.M("note.noboard", err)})
				continue
			}
			t.pos, t.started = pos, true
			out = append(out, ui.GameStarted{Position: pos, Rules: t.setup.Rules})
		case lockstep.EventYourRoll:
			t.mayRoll, t.rollK, t.asked = true, e.Roll, false
			out = t.wait(out, e.Roll, []peer.ID{t.self})
		case lockstep.EventWaiting:
			if !t.started || e.Roll == 0 || (t.hasRolled && e.Roll == t.rolledK) || (st.Phase == lockstep.PhaseMove && st.Roll == e.Roll) {
				// Roll 0 picks the first player before there is a board;
				// a wait after the roll is for a move, which Rolled shows
				// (after a restore too: the state's pending choice below).
				continue
			}
			out = t.wait(out, e.Roll, e.Peers)
		case lockstep.EventRolled:
			t.mayRoll, t.asked, t.hotAsked, t.lastWait = false, false, false, nil
			t.rolls++
			outs := t.pos.Outcomes(t.setup.Rules, e.Value)
			you := youMoveFollows(evs[i+1:], e.Roll) ||
				(st.Phase == lockstep.PhaseMove && st.Roll == e.Roll && len(st.Moves) > 0) ||
				(t.hotMover(e.Colour) && outs.Len() > 1)
			t.rolledK, t.hasRolled, t.youChose = e.Roll, true, you
			if you {
				t.choice = outs.Slice()
			}
			if you && t.hotMover(e.Colour) {
				t.hotChoice = outs.Slice()
			}
			out = append(out, ui.Rolled{Colour: e.Colour, Roll: e.Value, Moves: outs.Slice(), YouChoose: you})
		case lockstep.EventYourMove:
			if t.hasRolled && t.rolledK == e.Roll && t.youChose {
				continue
			}
			// The roll was shown in an earlier Ready (or not at all, after
			// a restore): show it again, this time as ours to choose.
			t.rolledK, t.hasRolled, t.youChose = e.Roll, true, true
			t.choice = slices.Clone(e.Moves)
			out = append(out, ui.Rolled{Colour: e.Colour, Roll: e.Value, Moves: slices.Clone(e.Moves), YouChoose: true})
		case lockstep.EventMoved:
			before := t.pos
			t.pos, t.choice, t.lastWait, t.hotChoice = e.Pos, nil, nil, nil
			out = append(out, ui.Moved{Before: before, After: e.Pos, Result: e.Result})
		case lockstep.EventAbsent, lockstep.EventReturned:
			t.splitSeen()
			if e.Colour < engine.NumColours {
				t.flown[e.Colour] = e.Kind == lockstep.EventAbsent
				t.away[e.Colour] = e.Kind == lockstep.EventAbsent
			}
			out = append(out, ui.Presence{Colour: e.Colour, Name: t.name(e.Peer), Present: e.Kind == lockstep.EventReturned})
		case lockstep.EventPeerRestored:
			t.splitSeen()
			// Its program restarted: said even when no connection went
			// down (reconnects covers a cable cut, where nothing restores).
			out = append(out, ui.CatchingUp{Colour: e.Colour, Name: t.name(e.Peer)})
		case lockstep.EventLeft:
			if e.Colour < engine.NumColours {
				t.flown[e.Colour] = true
			}
			out = append(out, ui.Left{Colour: e.Colour, Name: t.name(e.Peer)})
		case lockstep.EventSeatTaken:
			// A newcomer flies the seat from now on (lockstep's Take):
			// a person's, no longer a bot's.
			t.SeatTaken(e.Colour, e.Peer)
			out = append(out, ui.Notice{Msg: ui.M("note.seat.taken", t.name(e.Peer), e.Colour, e.Roll)})
		case lockstep.EventSeatRefused:
			if e.Peer == t.self && t.self != "" {
				out = append(out, ui.Notice{Msg: ui.M("note.seat.refused", e.Colour, e.Roll)})
			}
		case lockstep.EventPauseAsked:
			out = append(out, ui.PauseAsked{Colour: t.ColourOf(e.Peer), Name: t.name(e.Peer)})
		case lockstep.EventPauseLifted:
			out = append(out, ui.PauseLifted{Colour: t.ColourOf(e.Peer), Name: t.name(e.Peer)})
		case lockstep.EventPaused:
			out = append(out, ui.GamePaused{Roll: e.Roll, LogPath: t.logPath})
		case lockstep.EventAloneDecision:
			t.splitSeen()
			if len(e.Peers) > 0 && !t.over && st.Phase != lockstep.PhaseOver {
				out = append(out, t.aloneAsked(e.Peers))
			}
		case lockstep.EventCheating:
			out = append(out, t.evidence(e, ui.CheatDetected{Name: t.name(e.Peer), PeerID: e.Peer.String(), What: cheatMsg(e.Cheat, e.Detail)})...)
		case lockstep.EventStateMismatch:
			out = append(out, t.evidence(e, ui.CheatDetected{Name: t.name(e.Peer), PeerID: e.Peer.String(),
				What: ui.M("cheat.state", e.Roll, e.Detail)})...)
		case lockstep.EventRecovered:
			if t.resuming {
				t.resuming = false
				out = append(out, ui.Resuming{On: false})
			}
			// Only a give-up is news to a player: it is the one way a
			// machine crash can still stop the game (lockstep/recover.go).
			if len(e.Peers) > 0 {
				var names []string
				for _, id := range e.Peers {
					names = append(names, t.name(id))
				}
				out = append(out, ui.Notice{Msg: ui.M("note.recovered", strings.Join(names, ", "))})
			}
		case lockstep.EventHalted:
			t.over, t.mayRoll, t.choice = true, false, nil
			msg := ui.M("note.halted", e.Detail)
			if t.logPath != "" {
				msg = ui.M("note.halted.log", e.Detail, t.logPath)
			}
			out = append(out, ui.Notice{Msg: msg})
		case lockstep.EventGameOver:
			t.over, t.mayRoll, t.choice, t.hotChoice = true, false, nil, nil
			out = append(out, ui.GameOver{Ranking: slices.Clone(e.Ranking), LogPath: t.logPath})
		case lockstep.EventRolledBack:
			t.splitSeen()
			// An end this player reached alone was undone: the game goes
			// on with the others' moves (the state below resyncs the board).
			if t.over {
				t.over = false
				out = append(out, ui.GameReopened{})
			}
			out = append(out, t.rollbackPresence(st)...)
		}
	}
	// The state is the authority on the position: a node restored from its
	// log reports no past events, so its game starts here.
	if st.Roll > 0 && (st.Phase == lockstep.PhaseReveal || st.Phase == lockstep.PhaseMove || st.Phase == lockstep.PhaseOver) {
		switch {
		case !t.started:
			t.pos, t.started = st.Pos, true
			out = append(out, ui.GameStarted{Position: st.Pos, Rules: t.setup.Rules})
		case t.pos != st.Pos:
			t.pos = st.Pos
			out = append(out, ui.Resync{Position: st.Pos, Why: ui.M("note.resync")})
		}
	}
	// The state is the authority on an open lone decision: once it is no
	// longer open (answered here or elsewhere, or the missing are back)
	// the question closes.
	if t.asking && len(st.Missing) == 0 {
		t.asking = false
		out = append(out, ui.AloneDecision{})
	}
	if st.SoloDice != t.solo && !t.over {
		t.solo = st.SoloDice
		out = append(out, ui.SoloDice{On: st.SoloDice})
	}
	// The state is the authority on a pending choice: it survives batches
	// split anywhere and restores.
	if !t.over && st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 {
		if !(t.hasRolled && t.rolledK == st.Roll && t.youChose) {
			t.rolledK, t.hasRolled, t.youChose = st.Roll, true, true
			out = append(out, ui.Rolled{Colour: t.pos.ToMove(), Roll: st.Value, Moves: slices.Clone(st.Moves), YouChoose: true})
		}
		t.choice = slices.Clone(st.Moves)
	} else {
		t.choice = nil
	}
	// Another person here whose choice the game waits for, this roll not
	// shown (a node restored from its log reports no past roll): the
	// screen asks them, as it would have on their roll.
	if c := t.pos.ToMove(); !t.over && st.Phase == lockstep.PhaseMove && !(t.hasRolled && t.rolledK == st.Roll) && t.hotMover(c) {
		if outs := t.pos.Outcomes(t.setup.Rules, st.Value); outs.Len() > 1 {
			t.rolls++
			t.rolledK, t.hasRolled, t.youChose = st.Roll, true, true
			t.hotChoice = outs.Slice()
			out = append(out, ui.Rolled{Colour: c, Roll: st.Value, Moves: outs.Slice(), YouChoose: true})
		}
	}
	return out
}

// owner is the player of colour c ("" for a bot seat).
func (t *Translator) owner(c engine.Colour) peer.ID {
	for _, st := range t.setup.Seats {
		if st.Colour == c {
			return st.Player
		}
	}
	return ""
}

// aloneAsked is the lone player's question about the players ids.
func (t *Translator) aloneAsked(ids []peer.ID) ui.AloneDecision {
	q := ui.AloneDecision{}
	for _, id := range ids {
		q.Missing = append(q.Missing, t.name(id))
	}
	t.asking = len(q.Missing) > 0
	return q
}

func youMoveFollows(evs []lockstep.Event, k uint64) bool {
	for _, e := range evs {
		switch {
		case e.Kind == lockstep.EventYourMove && e.Roll == k:
			return true
		case e.Kind == lockstep.EventMoved:
			return false
		}
	}
	return false
}

// wait shows whose reveal roll k waits for, unless that is already shown.
func (t *Translator) wait(out []ui.Event, k uint64, ids []peer.ID) []ui.Event {
	if !t.started || t.over {
		return out
	}
	w := ui.DiceWaiting{ToMove: t.pos.ToMove()}
	for _, id := range ids {
		w.Waiting = append(w.Waiting, t.name(id))
		if id == t.self && t.self != "" {
			w.YouRoll = t.mayRoll && !t.asked && t.rollK == k
		}
		if len(ids) == 1 && t.hot[id] && t.hotMover(w.ToMove) && t.owner(w.ToMove) == id {
			// Another person here, the die waiting for their key alone;
			// their own translator checks the key.
			w.YouRoll = !t.hotAsked
		}
	}
	if l := t.lastWait; l != nil && l.ToMove == w.ToMove && l.YouRoll == w.YouRoll && (w.YouRoll || slices.Equal(l.Waiting, w.Waiting)) {
		// While this screen asks for the roll, the others' reveals
		// coming in are no news: the question stands as it was.
		return out
	}
	t.lastWait = &w
	return append(out, w)
}

// Roll passes the local player's roll to a, if it is the player's roll and
// it has not rolled yet; otherwise nothing changes.
func (t *Translator) Roll(a Actor) error {
	switch {
	case t.over:
		return ErrGameOver
	case !t.mayRoll:
		return ErrNotYourRoll
	case t.asked:
		return ErrAlreadyRolled
	}
	if err := a.Roll(); err != nil {
		return ui.Errorf("err.roll", err)
	}
	t.asked = true
	return nil
}

// Choose passes m to a if it is one of the moves the local player must
// choose from now; otherwise nothing changes.
func (t *Translator) Choose(a Actor, m engine.Move) error {
	switch {
	case t.over:
		return ErrGameOver
	case len(t.choice) == 0:
		return ErrNoChoice
	case !slices.Contains(t.choice, m):
		return ui.Errorf("err.notamove", m.String())
	}
	if err := a.Choose(m); err != nil {
		return err
	}
	t.choice = nil
	return nil
}
