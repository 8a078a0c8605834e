package session

import (
	"errors"
	"slices"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A take request round-trips, and every malformed one is refused as bad
// watch wire.
func TestTakeRequestWire(t *testing.T) {
	gid := lockstep.GameID{1, 2, 3}
	r, err := decodeTakeRequest(encodeTakeRequest(takeRequest{Game: gid, Name: "zoe"}))
	if err != nil || r.Game != gid || r.Name != "zoe" {
		t.Fatalf("round trip: %+v %v", r, err)
	}
	good := encodeTakeRequest(takeRequest{Game: gid, Name: "zoe"})
	for name, b := range map[string][]byte{
		"empty":       nil,
		"watch tag":   append([]byte{'W'}, good[1:]...),
		"version 2":   append([]byte{'T', 2}, good[2:]...),
		"cut short":   good[:20],
		"no name":     encodeTakeRequest(takeRequest{Game: gid}),
		"bad name":    encodeTakeRequest(takeRequest{Game: gid, Name: "a\x00b"}),
		"extra bytes": append(append([]byte(nil), good...), 0),
	} {
		if _, err := decodeTakeRequest(b); !errors.Is(err, errWatchWire) {
			t.Errorf("%s: %v, want errWatchWire", name, err)
		}
	}
	if !isTakeRequest(good) || isTakeRequest(encodeWatchRequest(watchRequest{Game: gid, Name: "zoe"})) {
		t.Error("isTakeRequest does not tell the two requests apart")
	}
}

func FuzzDecodeTakeRequest(f *testing.F) {
	f.Add(encodeTakeRequest(takeRequest{Game: lockstep.GameID{9}, Name: "zoe"}))
	f.Add([]byte("T\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeTakeRequest(b)
		if err != nil {
			return
		}
		again, err := decodeTakeRequest(encodeTakeRequest(r))
		if err != nil || again != r {
			t.Fatalf("re-decode of %+v: %+v %v", r, again, err)
		}
	})
}

// A player's watch server answers take requests under a watcher's
// limits: a request for its game is handed to onTake (admitted: ok; its
// refusal: full), one for another game is no-game, a request that does
// not parse is a strike, and a flood of them cuts the asker off, after
// which even a good one is refused.
func TestWatchServerAnswersTakes(t *testing.T) {
	recs, _ := finishedLog(t)
	srv, _, cut := testServer(t, recs)
	var asked []string
	admit := true
	srv.onTake = func(id peer.ID, name string) error {
		asked = append(asked, name)
		if !admit {
			return p2p.ErrGuestsFull
		}
		return nil
	}
	good := encodeTakeRequest(takeRequest{Game: srv.gid, Name: "zoe"})
	nc := testkit.ID(1)
	for _, tc := range []struct {
		name  string
		req   []byte
		admit bool
		want  watchStatus
		asked int
	}{
		{"admitted", good, true, watchOK, 1},
		{"refused by the transport", good, false, watchFull, 2},
		{"another game", encodeTakeRequest(takeRequest{Game: lockstep.GameID{7}, Name: "zoe"}), true, watchNoGame, 2},
	} {
		admit = tc.admit
		a, ok := ask(t, srv, nc, tc.req)
		if !ok || a.Status != tc.want || len(asked) != tc.asked {
			t.Errorf("%s: answer %v (%v), onTake called %d times; want %s, %d", tc.name, a.Status, ok, len(asked), tc.want, tc.asked)
		}
	}
	if st := srv.Stats(); st.Takes != 1 || st.Strikes != 0 {
		t.Errorf("stats %+v: want 1 take, no strike", st)
	}
	liar := testkit.ID(2)
	for range maxWatchStrikes {
		if _, ok := ask(t, srv, liar, []byte("T\x01garbage")); ok {
			t.Fatal("a take request that does not parse got an answer")
		}
	}
	if len(*cut) != 1 || (*cut)[0] != liar {
		t.Fatalf("cut off %v, want the liar", *cut)
	}
	admit = true
	if a, _ := ask(t, srv, liar, good); a.Status != watchRefused {
		t.Errorf("the cut-off peer's good request: %s, want %s", a.Status, watchRefused)
	}
	if len(asked) != 2 {
		t.Errorf("onTake heard the cut-off peer")
	}
}

// The seat a newcomer asks for: the one named if a bot flies it, else
// the first in seat order that a bot flies (a bot seat, or a seat whose
// player left), never one a person holds, including a newcomer seated
// there before.
func TestFreeSeat(t *testing.T) {
	ann, bob, cat := testkit.ID(1), testkit.ID(2), testkit.ID(3)
	setup := []lockstep.SeatOwner{
		{Colour: engine.Red, Player: ann}, {Colour: engine.Blue, Player: bob},
		{Colour: engine.Yellow, Bot: true}, {Colour: engine.Green, Bot: true},
	}
	for _, tc := range []struct {
		name  string
		seats []lockstep.SeatOwner
		left  []peer.ID
		want  engine.Colour
		got   engine.Colour
		err   string
	}{
		{"the first bot seat", setup, nil, engine.NoColour, engine.Yellow, ""},
		{"the bot seat asked for", setup, nil, engine.Green, engine.Green, ""},
		{"a person's seat asked for", setup, nil, engine.Blue, engine.NoColour, "err.seatnotfree"},
		{"a left player's seat comes first in seat order", setup, []peer.ID{bob}, engine.NoColour, engine.Blue, ""},
		{"a seat taken by a newcomer is a person's", append(setup[:2:2], lockstep.SeatOwner{Colour: engine.Yellow, Player: cat, From: 30}, setup[3]),
			nil, engine.NoColour, engine.Green, ""},
		{"every seat a person's", append(setup[:2:2], lockstep.SeatOwner{Colour: engine.Yellow, Player: cat}), nil, engine.NoColour, engine.NoColour, "err.nofreeseat"},
		{"a seat not in play", setup[:2], nil, engine.Yellow, engine.NoColour, "err.seatnotfree"},
	} {
		left := map[peer.ID]bool{}
		for _, id := range tc.left {
			left[id] = true
		}
		c, err := freeSeat(tc.seats, left, tc.want, "late")
		var ue *ui.Error
		switch {
		case tc.err == "" && (err != nil || c != tc.got):
			t.Errorf("%s: %s %v, want %s", tc.name, c, err, tc.got)
		case tc.err != "" && (!errors.As(err, &ue) || ue.Msg.Key != tc.err):
			t.Errorf("%s: %s %v, want %s", tc.name, c, err, tc.err)
		}
	}
}

// The players' screens say who took which seat from which roll, by the
// name the newcomer gave (SetName); the seat is no longer a bot's; a
// refusal is news only to the newcomer itself.
func TestTranslateSeatTaken(t *testing.T) {
	recs, _ := finishedLog(t)
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	var bot engine.Colour = engine.NoColour
	for _, st := range setup.Seats {
		if st.Player == "" {
			bot = st.Colour
		}
	}
	if bot == engine.NoColour {
		t.Fatal("the golden game has no bot seat to take")
	}
	nc := testkit.ID(9)
	for _, self := range []peer.ID{setup.Players()[0], nc} {
		tr := NewTranslator(setup, self, nil, "")
		tr.SetName(nc, "zoe")
		out := tr.Translate([]lockstep.Event{
			{Kind: lockstep.EventSeatRefused, Peer: nc, Colour: bot, Roll: 20},
			{Kind: lockstep.EventSeatTaken, Peer: nc, Colour: bot, Roll: 25},
		}, lockstep.State{})
		var notes []string
		for _, e := range out {
			if n, ok := e.(ui.Notice); ok {
				notes = append(notes, n.Msg.String())
			}
		}
		want := []string{"zoe takes " + bot.String() + " from roll 25."}
		if self == nc {
			want = append([]string{"The " + bot.String() + " seat was not given from roll 20: asking again."}, want...)
		}
		if len(notes) != len(want) || notes[len(notes)-1] != want[len(want)-1] || notes[0] != want[0] {
			t.Errorf("as %s: notices %q, want %q", lockstep.ShortID(self), notes, want)
		}
		if tr.BotFlown()[bot] {
			t.Errorf("as %s: the seat taken is still a bot's", lockstep.ShortID(self))
		}
	}
}

// The running game lists as its bots' seats those a bot flies for good
// now, the seats a newcomer may ask for: the setup's bot seats, plus a
// seat whose player left, less a seat a newcomer took.
func TestRunningFreeSeats(t *testing.T) {
	recs, _ := finishedLog(t)
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	free := botSeats(setup)
	var bot, person engine.Colour = engine.NoColour, engine.NoColour
	for _, st := range setup.Seats {
		if st.Player == "" {
			bot = st.Colour
		} else {
			person = st.Colour
		}
	}
	if bot == engine.NoColour || person == engine.NoColour || !free[bot] || free[person] {
		t.Fatalf("bot seats of the golden game: %v", free)
	}
	owner := setup.Seats[0].Player
	for _, st := range setup.Seats {
		if st.Colour == person {
			owner = st.Player
		}
	}
	s := &NetSession{}
	srv := newWatchServer(setup.GameID(), true, nil)
	colours := func(f [engine.NumColours]bool) (bots []engine.Colour, players int) {
		r := s.runningNow(setup, nil, lockstep.State{}, srv, f)
		for _, b := range r.Bots {
			bots = append(bots, b.Colour)
		}
		return bots, len(r.Players)
	}
	people := len(setup.Players())
	for _, tc := range []struct {
		name    string
		evs     []lockstep.Event
		bots    []engine.Colour
		players int
	}{
		{"the setup's", nil, []engine.Colour{bot}, people},
		{"a player left", []lockstep.Event{{Kind: lockstep.EventLeft, Peer: owner, Colour: person}}, nil, people - 1},
		{"the bot's seat taken", []lockstep.Event{{Kind: lockstep.EventSeatTaken, Colour: bot}}, nil, people},
	} {
		f := freeAfter(free, tc.evs)
		bots, players := colours(f)
		want := tc.bots
		if tc.name == "a player left" {
			want = nil
			for _, st := range setup.Seats {
				if st.Colour == bot || st.Colour == person {
					want = append(want, st.Colour)
				}
			}
		}
		if !slices.Equal(bots, want) || players != tc.players {
			t.Errorf("%s: bots %v, %d players; want %v, %d", tc.name, bots, players, want, tc.players)
		}
	}
}

// A newcomer ends its game when the game seats another in the seat it
// asked for (before it was seated itself), saying who took it from which
// roll; other seats' changes, and any change once it is seated, do not.
func TestSeatLostToAnother(t *testing.T) {
	self, other := testkit.ID(1), testkit.ID(2)
	taken := func(id peer.ID, c engine.Colour) lockstep.Event {
		return lockstep.Event{Kind: lockstep.EventSeatTaken, Peer: id, Colour: c, Roll: 40}
	}
	var none *takePlan
	if none.lostTo(taken(other, engine.Blue), self, "zoe") != nil {
		t.Error("a player that is no newcomer lost a seat")
	}
	p := &takePlan{lobby: "late", colour: engine.Blue}
	if p.lostTo(taken(other, engine.Green), self, "zoe") != nil {
		t.Error("another seat taken ended the game")
	}
	err := p.lostTo(taken(other, engine.Blue), self, "zoe")
	var ue *ui.Error
	if !errors.As(err, &ue) || ue.Msg.Key != "err.seatlost" || ue.Msg.String() != `The Blue seat of "late" was taken by zoe from roll 40: no seat for you.` {
		t.Errorf("the seat lost: %v", err)
	}
	p = &takePlan{lobby: "late", colour: engine.Blue}
	if p.lostTo(taken(self, engine.Blue), self, "me") != nil || p.lostTo(taken(other, engine.Blue), self, "zoe") != nil {
		t.Error("a seated newcomer lost its seat to a later seat change")
	}
}

// An unseated newcomer's game that stops moving is stopped, saying so;
// one that moves, or a seated newcomer's, is not.
func TestTakeStall(t *testing.T) {
	for _, tc := range []struct {
		name     string
		idle     time.Duration
		seated   bool
		stopped  bool
		errIsSet bool
	}{
		{"moving", takeStallFor / 2, false, false, false},
		{"stalled", takeStallFor, false, true, true},
		{"stalled, but seated", takeStallFor, true, false, false},
	} {
		stopped := make(chan struct{}, 1)
		w := newTakeStall(&takePlan{lobby: "late"}, func() { stopped <- struct{}{} })
		w.mu.Lock()
		w.last, w.seated = time.Now().Add(-tc.idle), tc.seated
		w.timer.Reset(time.Millisecond)
		w.mu.Unlock()
		got := false
		select {
		case <-stopped:
			got = true
		case <-time.After(200 * time.Millisecond): // the ticker fires within 1 ms
		}
		w.stop()
		err := w.err("late")
		var ue *ui.Error
		if got != tc.stopped || (err != nil) != tc.errIsSet || err != nil && (!errors.As(err, &ue) || ue.Msg.Key != "err.takestalled") {
			t.Errorf("%s: stopped %v, err %v", tc.name, got, err)
		}
	}
	w := newTakeStall(nil, func() { t.Error("a player's game stopped by the newcomers' watch") })
	w.saw(lockstep.State{Roll: 3})
	w.stop()
	if w.err("late") != nil {
		t.Error("a player's game has a stall error")
	}
}
