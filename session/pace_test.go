package session

import (
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// TestNetPace: on the LAN a roll of a seat a bot flies (a bot seat, or a
// player's while absent or after leaving) is shown after BotDelay, or the
// pace the table's creator set, which replaces it (not for headless:
// OwnPace); a person's roll, any other event, and everything with no
// delay or between games come at once.
func TestNetPace(t *testing.T) {
	f := newFixture(t) // Ann (me) Red, Bob Blue, a bot Yellow
	const d = 700 * time.Millisecond
	roll := func(c engine.Colour) ui.Event { return ui.Rolled{Colour: c, Roll: 3} }
	cases := []struct {
		name  string
		delay time.Duration
		evs   []lockstep.Event // translated before e is paced
		game  bool
		e     ui.Event
		want  time.Duration
		table *lobby.Pace // the pace the game's table set
		own   bool        // NetOptions.OwnPace (headless)
	}{
		{"a bot's roll waits", d, nil, true, roll(engine.Yellow), d, nil, false},
		{"a person's roll comes at once", d, nil, true, roll(engine.Blue), 0, nil, false},
		{"my roll comes at once", d, nil, true, roll(engine.Red), 0, nil, false},
		{"a move comes at once", d, nil, true, ui.Moved{}, 0, nil, false},
		{"no delay asked", 0, nil, true, roll(engine.Yellow), 0, nil, false},
		{"between games", d, nil, false, roll(engine.Yellow), 0, nil, false},
		{"an absent player's seat waits", d, []lockstep.Event{{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), d, nil, false},
		{"back, at once again", d, []lockstep.Event{{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue},
			{Kind: lockstep.EventReturned, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), 0, nil, false},
		{"a seat left for good waits", d, []lockstep.Event{{Kind: lockstep.EventLeft, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), d, nil, false},
		{"the table's pace replaces mine", d, nil, true, roll(engine.Yellow), 2 * time.Second, &lobby.Pace{Set: true, Delay: 2 * time.Second}, false},
		{"the table's pace with none of mine", 0, nil, true, roll(engine.Yellow), time.Second, &lobby.Pace{Set: true, Delay: time.Second}, false},
		{"the table says instant", d, nil, true, roll(engine.Yellow), 0, &lobby.Pace{Set: true}, false},
		{"the table leaves it to me", d, nil, true, roll(engine.Yellow), d, &lobby.Pace{}, false},
		{"the table's pace, a person's roll", d, nil, true, roll(engine.Blue), 0, &lobby.Pace{Set: true, Delay: time.Second}, false},
		{"headless keeps its own", 0, nil, true, roll(engine.Yellow), 0, &lobby.Pace{Set: true, Delay: time.Second}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &NetSession{opts: NetOptions{BotDelay: c.delay, OwnPace: c.own}}
			s.tablePace.Store(c.table)
			tr := f.translator()
			tr.Translate(c.evs, lockstep.State{})
			if c.game {
				flown := tr.BotFlown()
				s.flown.Store(&flown)
			}
			if got := s.pace(c.e); got != c.want {
				t.Errorf("pace %v, want %v", got, c.want)
			}
		})
	}
}

// TestNetBotPaceLAN: Ann alone with three bots on the LAN and a bot
// delay: the game still ends, and the log says how far apart the bots'
// rolls reached her screen (measured, not asserted).
func TestNetBotPaceLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	const delay = 10 * time.Millisecond
	a := newNetTestWith(t, "Ann", func(o *NetOptions) { o.BotDelay = delay })
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Blue, engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "random"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	var last time.Time
	var gaps []time.Duration
	pa := annPlays(t, a, func(e ui.Event) {
		if r, ok := e.(ui.Rolled); ok && r.Colour != engine.Red {
			if now := time.Now(); !last.IsZero() {
				gaps = append(gaps, now.Sub(last))
			}
			last = time.Now()
		}
	})
	verifyOver(t, pa)
	var sum time.Duration
	for _, g := range gaps {
		sum += g
	}
	if len(gaps) > 0 {
		t.Logf("bot delay %v: %d bot rolls shown, %v apart on average", delay, len(gaps)+1, sum/time.Duration(len(gaps)))
	}
}

// TestNetTablePaceLAN: the creator sets the bots' pace at the table; the
// guest's table shows it and the guest's game is paced by it; only the
// creator may set it, and only within bounds.
func TestNetTablePaceLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	openTable(t, a, engine.DefaultRules())
	const pace = 3 * time.Millisecond
	if err := a.SetBotPace(pace, true); err != nil {
		t.Fatal(err)
	}
	if err := a.SetBotPace(time.Hour, true); err == nil {
		t.Error("a pace of an hour was taken")
	}
	join := joinOnce(t, a, b)
	var shown []ui.TableUpdate
	var inGame *lobby.Pace
	pa, pb := playBoth(t, a, b, nil, func(e ui.Event) {
		join(e)
		switch e := e.(type) {
		case ui.TableUpdate:
			if !e.Started {
				if err := b.SetBotPace(0, true); err == nil {
					t.Error("a guest set the bots' pace")
				}
			}
			shown = append(shown, e)
		case ui.GameStarted:
			inGame = b.tablePace.Load()
		}
	})
	checkBoth(t, pa, pb)
	last := shown[len(shown)-1]
	if !last.BotPaceSet || last.BotPace != pace {
		t.Errorf("Bob's table shows the bots' pace %v (set %v), want Ann's %v", last.BotPace, last.BotPaceSet, pace)
	}
	if inGame == nil || *inGame != (lobby.Pace{Set: true, Delay: pace}) {
		t.Errorf("Bob's game is paced by %+v, want Ann's %v", inGame, pace)
	}
}
