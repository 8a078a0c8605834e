package session

import (
	"crypto/rand"
	"errors"
	"reflect"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func newID(t testing.TB) (peer.ID, crypto.PrivKey) {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id, k
}

// fixture is a 3-seat game: me at Red, another person at Blue, a bot at Yellow.
type fixture struct {
	me, other peer.ID
	setup     lockstep.Setup
	rules     engine.Rules
	start     engine.Position // Red to move
}

func newFixture(t *testing.T) fixture {
	me, _ := newID(t)
	other, _ := newID(t)
	f := fixture{me: me, other: other, rules: engine.DefaultRules()}
	f.setup = lockstep.Setup{Version: lockstep.Version, Name: "t", Rules: f.rules, Seats: []lockstep.Seat{
		{Colour: engine.Red, Player: me}, {Colour: engine.Blue, Player: other}, {Colour: engine.Yellow, Bot: "random"}}}
	pos, err := engine.NewGame(engine.Red, engine.Blue, engine.Yellow)
	if err != nil {
		t.Fatal(err)
	}
	if f.start, err = pos.WithToMove(engine.Red); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) translator() *Translator {
	return NewTranslator(f.setup, f.me, map[peer.ID]string{f.me: "Ann", f.other: "Bob"}, "/g/x.log")
}

type batch struct {
	evs []lockstep.Event
	st  lockstep.State
}

func TestTranslate(t *testing.T) {
	f := newFixture(t)
	sixL := f.start.Outcomes(f.rules, 6)
	six := sixL.Slice()
	afterSix, resSix, err := f.start.Play(f.rules, 6, six[0])
	if err != nil {
		t.Fatal(err)
	}
	twoL := f.start.Outcomes(f.rules, 2)
	two := twoL.Slice() // a pass: nothing can leave the hangar
	afterTwo, resTwo, err := f.start.Play(f.rules, 2, two[0])
	if err != nil {
		t.Fatal(err)
	}
	started := lockstep.Event{Kind: lockstep.EventGameStarted, Colour: engine.Red}
	reveal := lockstep.State{Phase: lockstep.PhaseReveal, Roll: 1, Pos: f.start}
	moving := lockstep.State{Phase: lockstep.PhaseMove, Roll: 1, Value: 6, Moves: six, Pos: f.start}
	gs := ui.GameStarted{Position: f.start, Rules: f.rules}

	cases := []struct {
		name    string
		batches []batch
		want    []ui.Event
		canRoll bool
		choices []engine.Move
	}{
		{"roll 0 wait shows nothing", []batch{{[]lockstep.Event{{Kind: lockstep.EventWaiting, Roll: 0, Peers: []peer.ID{f.other}}}, lockstep.State{}}}, nil, false, nil},
		{"start", []batch{{[]lockstep.Event{{Kind: lockstep.EventSetupConfirmed}, started}, reveal}}, []ui.Event{gs}, false, nil},
		{"my roll, once though both events say it", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventYourRoll, Roll: 1, Colour: engine.Red},
			{Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{f.me}}}, reveal}},
			[]ui.Event{gs, ui.DiceWaiting{ToMove: engine.Red, Waiting: []string{"Ann"}, YouRoll: true}}, true, nil},
		{"waiting for others names them", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{f.other}}}, reveal}},
			[]ui.Event{gs, ui.DiceWaiting{ToMove: engine.Red, Waiting: []string{"Bob"}}}, false, nil},
		// While the screen asks for the roll, who else the die waits for
		// is no news: the question is asked once (a screen reading its
		// events late would take a second one for a second roll).
		{"my roll and a slow peer: asked once", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventYourRoll, Roll: 1, Colour: engine.Red},
			{Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{f.me, f.other}}}, reveal}},
			[]ui.Event{gs, ui.DiceWaiting{ToMove: engine.Red, Waiting: []string{"Ann"}, YouRoll: true}}, true, nil},
		{"rolled, mine to choose", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventRolled, Roll: 1, Colour: engine.Red, Value: 6},
			{Kind: lockstep.EventYourMove, Roll: 1, Colour: engine.Red, Value: 6, Moves: six},
			{Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{f.me}}}, moving}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six, YouChoose: true}}, false, six},
		{"my choice learnt only from the state", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventRolled, Roll: 1, Colour: engine.Red, Value: 6}}, moving}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six, YouChoose: true}}, false, six},
		{"your-move in a later batch shows the roll as mine once", []batch{
			{[]lockstep.Event{started, {Kind: lockstep.EventRolled, Roll: 1, Colour: engine.Red, Value: 6}}, lockstep.State{Phase: lockstep.PhaseMove, Roll: 1, Value: 6, Pos: f.start}},
			{[]lockstep.Event{{Kind: lockstep.EventYourMove, Roll: 1, Colour: engine.Red, Value: 6, Moves: six}}, moving}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six},
				ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six, YouChoose: true}}, false, six},
		{"someone else's roll and move", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventRolled, Roll: 1, Colour: engine.Red, Value: 6},
			{Kind: lockstep.EventMoved, Roll: 1, Colour: engine.Red, Value: 6, Move: six[0], Result: resSix, Pos: afterSix},
			{Kind: lockstep.EventRolled, Roll: 2, Colour: engine.Red, Value: 2},
			{Kind: lockstep.EventWaiting, Roll: 2, Peers: []peer.ID{f.other}}},
			lockstep.State{Phase: lockstep.PhaseMove, Roll: 2, Value: 2, Pos: afterSix}}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six},
				ui.Moved{Before: f.start, After: afterSix, Result: resSix},
				ui.Rolled{Colour: engine.Red, Roll: 2, Moves: outcomes(afterSix, f.rules, 2)}}, false, nil},
		{"a pass is rolled and moved without a choice", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventRolled, Roll: 1, Colour: engine.Red, Value: 2},
			{Kind: lockstep.EventMoved, Roll: 1, Colour: engine.Red, Value: 2, Move: two[0], Result: resTwo, Pos: afterTwo},
			{Kind: lockstep.EventTurnPassed, Colour: engine.Blue},
			{Kind: lockstep.EventWaiting, Roll: 2, Peers: []peer.ID{f.other}}},
			lockstep.State{Phase: lockstep.PhaseReveal, Roll: 2, Pos: afterTwo}}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 2, Moves: two},
				ui.Moved{Before: f.start, After: afterTwo, Result: resTwo},
				ui.DiceWaiting{ToMove: engine.Blue, Waiting: []string{"Bob"}}}, false, nil},
		{"absence and return", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue, Roll: 4},
			{Kind: lockstep.EventReturned, Peer: f.other, Colour: engine.Blue, Roll: 9}}, lockstep.State{}}},
			[]ui.Event{ui.Presence{Colour: engine.Blue, Name: "Bob"}, ui.Presence{Colour: engine.Blue, Name: "Bob", Present: true}}, false, nil},
		{"cheating and mismatch name the peer", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventCheating, Peer: f.other, Cheat: lockstep.CheatBadReveal, Detail: "link 3"},
			{Kind: lockstep.EventStateMismatch, Peer: f.other, Roll: 5, Detail: "x"}}, lockstep.State{}}},
			[]ui.Event{ui.CheatDetected{Name: "Bob", PeerID: f.other.String(), What: ui.M("cheat.badreveal", "link 3")},
				ui.CheatDetected{Name: "Bob", PeerID: f.other.String(), What: ui.M("cheat.state", uint64(5), "x")}}, false, nil},
		{"game over carries the log path", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventYourRoll, Roll: 1},
			{Kind: lockstep.EventGameOver, Ranking: []engine.Colour{engine.Blue, engine.Red, engine.Yellow}}},
			lockstep.State{Phase: lockstep.PhaseOver, Roll: 1, Pos: f.start}}},
			[]ui.Event{gs, ui.DiceWaiting{ToMove: engine.Red, Waiting: []string{"Ann"}, YouRoll: true},
				ui.GameOver{Ranking: []engine.Colour{engine.Blue, engine.Red, engine.Yellow}, LogPath: "/g/x.log"}}, false, nil},
		{"an end undone by a roll-back reopens the game", []batch{{[]lockstep.Event{started,
			{Kind: lockstep.EventYourRoll, Roll: 1},
			{Kind: lockstep.EventGameOver, Ranking: []engine.Colour{engine.Blue, engine.Red, engine.Yellow}}},
			lockstep.State{Phase: lockstep.PhaseOver, Roll: 1, Pos: f.start}},
			{[]lockstep.Event{{Kind: lockstep.EventRolledBack, Roll: 1, Peer: f.me}}, lockstep.State{Phase: lockstep.PhaseMove, Roll: 1, Value: 6, Moves: six, Pos: f.start}}},
			[]ui.Event{gs, ui.DiceWaiting{ToMove: engine.Red, Waiting: []string{"Ann"}, YouRoll: true},
				ui.GameOver{Ranking: []engine.Colour{engine.Blue, engine.Red, engine.Yellow}, LogPath: "/g/x.log"},
				ui.GameReopened{},
				ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six, YouChoose: true}}, false, six},
		{"restored mid-game: the state starts the board and asks for the choice", []batch{{nil,
			lockstep.State{Phase: lockstep.PhaseMove, Roll: 7, Value: 6, Moves: six, Pos: f.start}}},
			[]ui.Event{gs, ui.Rolled{Colour: engine.Red, Roll: 6, Moves: six, YouChoose: true}}, false, six},
		{"a board that differs from the state is corrected", []batch{{[]lockstep.Event{started}, lockstep.State{Phase: lockstep.PhaseReveal, Roll: 3, Pos: afterTwo}}},
			[]ui.Event{gs, ui.Resync{Position: afterTwo, Why: ui.M("note.resync")}}, false, nil},
		{"recovery after a restart is news only when a player stayed silent", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventRecovered, Detail: "every other player told us"},
			{Kind: lockstep.EventRecovered, Peers: []peer.ID{f.other}, Detail: "gave up"}}, lockstep.State{}}},
			[]ui.Event{ui.Notice{Msg: ui.M("note.recovered", "Bob")}}, false, nil},
		{"another's program restored from its log is said to be catching up", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventPeerRestored, Peer: f.other, Colour: engine.Blue}}, lockstep.State{}}},
			[]ui.Event{ui.CatchingUp{Colour: engine.Blue, Name: "Bob"}}, false, nil},
		{"a leave names the player and the seat a bot flies", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventLeft, Peer: f.other, Colour: engine.Blue, Roll: 4}}, lockstep.State{}}},
			[]ui.Event{ui.Left{Colour: engine.Blue, Name: "Bob"}}, false, nil},
		{"a pause request names the player, and the paused game says where its log is", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventPauseAsked, Peer: f.other, Roll: 31},
			{Kind: lockstep.EventPaused, Roll: 31, Peers: []peer.ID{f.me, f.other}},
			{Kind: lockstep.EventPauseLifted, Peer: f.other, Roll: 31}}, lockstep.State{}}},
			[]ui.Event{ui.PauseAsked{Colour: engine.Blue, Name: "Bob"}, ui.GamePaused{Roll: 31, LogPath: "/g/x.log"},
				ui.PauseLifted{Colour: engine.Blue, Name: "Bob"}}, false, nil},
		{"a lone decision is asked, and closes once the state has none open", []batch{
			{[]lockstep.Event{{Kind: lockstep.EventAloneDecision, Roll: 4, Peers: []peer.ID{f.other}}},
				lockstep.State{Phase: lockstep.PhaseReveal, Missing: []peer.ID{f.other}}},
			{nil, lockstep.State{Phase: lockstep.PhaseReveal, Missing: []peer.ID{f.other}}},
			{nil, lockstep.State{Phase: lockstep.PhaseReveal}}},
			[]ui.Event{ui.AloneDecision{Missing: []string{"Bob"}}, ui.AloneDecision{}}, false, nil},
		{"solo dice are said when they start and when they stop", []batch{
			{nil, lockstep.State{Phase: lockstep.PhaseReveal, SoloDice: true}},
			{nil, lockstep.State{Phase: lockstep.PhaseReveal, SoloDice: true}},
			{nil, lockstep.State{Phase: lockstep.PhaseReveal}}},
			[]ui.Event{ui.SoloDice{On: true}, ui.SoloDice{On: false}}, false, nil},
		{"halt is a notice and ends the game", []batch{{[]lockstep.Event{
			{Kind: lockstep.EventHalted, Detail: "equivocation"}}, lockstep.State{Phase: lockstep.PhaseHalted}}},
			[]ui.Event{ui.Notice{Msg: ui.M("note.halted.log", "equivocation", "/g/x.log")}}, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := f.translator()
			var got []ui.Event
			for _, b := range tc.batches {
				got = append(got, tr.Translate(b.evs, b.st)...)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events\n got %#v\nwant %#v", got, tc.want)
			}
			if tr.CanRoll() != tc.canRoll {
				t.Errorf("CanRoll = %v, want %v", tr.CanRoll(), tc.canRoll)
			}
			if c := tr.Choices(); !reflect.DeepEqual(c, tc.choices) {
				t.Errorf("Choices = %v, want %v", c, tc.choices)
			}
		})
	}
}

// fakeActor records the intents that reach the node.
type fakeActor struct {
	calls []string
	err   error
}

func (a *fakeActor) Roll() error {
	if a.err != nil {
		return a.err
	}
	a.calls = append(a.calls, "roll")
	return nil
}

func (a *fakeActor) Choose(m engine.Move) error {
	if a.err != nil {
		return a.err
	}
	a.calls = append(a.calls, "choose "+m.String())
	return nil
}

func TestCommands(t *testing.T) {
	f := newFixture(t)
	six := []engine.Move{{Kind: engine.PlaneMove, Colour: engine.Red, Plane: 0}, {Kind: engine.PlaneMove, Colour: engine.Red, Plane: 2}}
	started := lockstep.Event{Kind: lockstep.EventGameStarted, Colour: engine.Red}
	myRoll := batch{[]lockstep.Event{started, {Kind: lockstep.EventYourRoll, Roll: 1}}, lockstep.State{Phase: lockstep.PhaseReveal, Roll: 1, Pos: f.start}}
	myMove := batch{[]lockstep.Event{started, {Kind: lockstep.EventRolled, Roll: 1, Value: 6},
		{Kind: lockstep.EventYourMove, Roll: 1, Value: 6, Moves: six}}, lockstep.State{Phase: lockstep.PhaseMove, Roll: 1, Value: 6, Moves: six, Pos: f.start}}
	over := batch{[]lockstep.Event{started, {Kind: lockstep.EventYourRoll, Roll: 1}, {Kind: lockstep.EventGameOver}}, lockstep.State{Phase: lockstep.PhaseOver}}
	otherRoll := batch{[]lockstep.Event{started, {Kind: lockstep.EventWaiting, Roll: 1, Peers: []peer.ID{f.other}}}, lockstep.State{Phase: lockstep.PhaseReveal, Roll: 1, Pos: f.start}}
	boom := errors.New("boom")

	type cmd struct {
		roll bool
		move engine.Move
	}
	cases := []struct {
		name     string
		state    batch
		cmds     []cmd
		actorErr error
		wantErr  []error // nil entries: must succeed; errAny: any error
		calls    []string
	}{
		{"roll when it is mine", myRoll, []cmd{{roll: true}}, nil, []error{nil}, []string{"roll"}},
		{"roll twice", myRoll, []cmd{{roll: true}, {roll: true}}, nil, []error{nil, ErrAlreadyRolled}, []string{"roll"}},
		{"roll on another's turn", otherRoll, []cmd{{roll: true}}, nil, []error{ErrNotYourRoll}, nil},
		{"roll while I must choose", myMove, []cmd{{roll: true}}, nil, []error{ErrNotYourRoll}, nil},
		{"choose when it is not my move", myRoll, []cmd{{move: six[0]}}, nil, []error{ErrNoChoice}, nil},
		{"choose a move not offered", myMove, []cmd{{move: engine.Move{Kind: engine.PlaneMove, Colour: engine.Red, Plane: 1}}}, nil, []error{errAny}, nil},
		{"choose an offered move, then again", myMove, []cmd{{move: six[1]}, {move: six[0]}}, nil, []error{nil, ErrNoChoice}, []string{"choose R2"}},
		{"node refuses a roll: may retry", myRoll, []cmd{{roll: true}}, boom, []error{boom}, nil},
		{"node refuses a move: choice kept", myMove, []cmd{{move: six[0]}}, boom, []error{boom}, nil},
		{"nothing after the end", over, []cmd{{roll: true}, {move: six[0]}}, nil, []error{ErrGameOver, ErrGameOver}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := f.translator()
			tr.Translate(tc.state.evs, tc.state.st)
			a := &fakeActor{err: tc.actorErr}
			for i, c := range tc.cmds {
				beforeRoll, beforeChoices := tr.CanRoll(), tr.Choices()
				var err error
				if c.roll {
					err = tr.Roll(a)
				} else {
					err = tr.Choose(a, c.move)
				}
				switch want := tc.wantErr[i]; {
				case want == nil && err != nil:
					t.Fatalf("command %d: %v", i, err)
				case want == errAny && err == nil, want != nil && want != errAny && !errors.Is(err, want):
					t.Fatalf("command %d: error %v, want %v", i, err, want)
				}
				if err != nil && (tr.CanRoll() != beforeRoll || !reflect.DeepEqual(tr.Choices(), beforeChoices)) {
					t.Fatalf("command %d failed but changed the translator", i)
				}
			}
			if !reflect.DeepEqual(a.calls, tc.calls) {
				t.Errorf("intents %v, want %v", a.calls, tc.calls)
			}
		})
	}
}

var errAny = errors.New("any error")

func outcomes(p engine.Position, r engine.Rules, roll int) []engine.Move {
	l := p.Outcomes(r, roll)
	return l.Slice()
}
