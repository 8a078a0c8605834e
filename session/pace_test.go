package session

import (
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// TestNetPace: on the LAN a roll of a seat a bot flies (a bot seat, or a
// player's while absent or after leaving) is shown after BotDelay; a
// person's roll, any other event, and everything with BotDelay 0 or
// between games come at once.
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
	}{
		{"a bot's roll waits", d, nil, true, roll(engine.Yellow), d},
		{"a person's roll comes at once", d, nil, true, roll(engine.Blue), 0},
		{"my roll comes at once", d, nil, true, roll(engine.Red), 0},
		{"a move comes at once", d, nil, true, ui.Moved{}, 0},
		{"no delay asked", 0, nil, true, roll(engine.Yellow), 0},
		{"between games", d, nil, false, roll(engine.Yellow), 0},
		{"an absent player's seat waits", d, []lockstep.Event{{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), d},
		{"back, at once again", d, []lockstep.Event{{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue},
			{Kind: lockstep.EventReturned, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), 0},
		{"a seat left for good waits", d, []lockstep.Event{{Kind: lockstep.EventLeft, Peer: f.other, Colour: engine.Blue}}, true, roll(engine.Blue), d},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &NetSession{opts: NetOptions{BotDelay: c.delay}}
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
