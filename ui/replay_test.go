package ui

import (
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// playedReplay is a two-player game of n rolls from a fixed die, each
// roll's first outcome played, as a session would hand it to a replay.
func playedReplay(t fataler, n int) Replay {
	rules := engine.DefaultRules()
	pos, err := engine.NewGame(engine.Red, engine.Yellow)
	if err != nil {
		t.Fatal(err)
	}
	r := Replay{Table: TableUpdate{GameID: "friday", Rules: rules, Started: true}}
	r.Table.Seats[engine.Red] = Seat{Kind: SeatHuman, Name: "Mei", Present: true, Ready: true}
	r.Table.Seats[engine.Yellow] = Seat{Kind: SeatBot, Name: "greedy", Present: true, Ready: true}
	r.Events = append(r.Events, GameStarted{Position: pos, Rules: rules})
	die := []int{6, 4, 2, 6, 3, 5, 1, 6, 6, 2, 4, 3}
	for i := 0; i < n && !pos.GameOver(); i++ {
		roll := die[i%len(die)]
		outs := pos.Outcomes(rules, roll)
		moves := outs.Slice()
		r.Events = append(r.Events, Rolled{Colour: pos.ToMove(), Roll: roll, Moves: moves})
		after, res, err := pos.Play(rules, roll, moves[0])
		if err != nil {
			t.Fatal(err)
		}
		r.Events = append(r.Events, Moved{Before: pos, After: after, Result: res})
		if i == 4 {
			r.Events = append(r.Events, Presence{Colour: engine.Red, Name: "Mei"}) // shown with roll 5, before roll 6
		}
		pos = after
	}
	return r
}

func replayScreen(p *replayer, w, h int) string {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		panic(err)
	}
	s.SetSize(w, h)
	p.Draw(s, w, h)
	return screenText(s)
}

// Goldens of the replay at 80×24: the start, a roll in the middle, the
// last roll, and the go-to-roll prompt, in English and Chinese.
func TestReplayGolden(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, c := range []struct {
			name string
			keys []*tcell.EventKey
		}{
			{"start", nil},
			{"roll5", []*tcell.EventKey{key(tcell.KeyRight), ch('n'), ch(' '), key(tcell.KeyRight), key(tcell.KeyRight), key(tcell.KeyRight), key(tcell.KeyLeft)}},
			{"end", []*tcell.EventKey{key(tcell.KeyEnd)}},
			{"goto", []*tcell.EventKey{ch('g'), ch('1'), ch('2')}},
			{"dice", []*tcell.EventKey{ch('s'), key(tcell.KeyPgDn)}},
		} {
			p := newReplayer(playedReplay(t, 12), Options{Lang: lang})
			for _, k := range c.keys {
				p.HandleKey(k)
			}
			got := replayScreen(p, 80, 24)
			checkGolden(t, "replay-"+c.name+"-"+lang+"-80x24", got)
			for i, l := range strings.Split(got, "\n") {
				if w := uniseg.StringWidth(l); w > 80 {
					t.Errorf("%s %s: line %d is %d cells", lang, c.name, i, w)
				}
			}
		}
	}
}

// Each key takes the replay to the roll it says, within the game, and the
// screen is the game's as it stood then: the board, the event log up to
// that roll, the dice panel's count.
func TestReplayKeys(t *testing.T) {
	r := playedReplay(t, 12)
	cases := []struct {
		keys []*tcell.EventKey
		at   int
	}{
		{nil, 0},
		{[]*tcell.EventKey{key(tcell.KeyLeft)}, 0},
		{[]*tcell.EventKey{key(tcell.KeyRight), key(tcell.KeyRight)}, 2},
		{[]*tcell.EventKey{ch('n'), ch(' '), ch('l'), ch('p')}, 2},
		{[]*tcell.EventKey{key(tcell.KeyPgDn)}, 10},
		{[]*tcell.EventKey{key(tcell.KeyPgDn), key(tcell.KeyPgDn)}, 12},
		{[]*tcell.EventKey{key(tcell.KeyEnd), key(tcell.KeyPgUp)}, 2},
		{[]*tcell.EventKey{key(tcell.KeyEnd), key(tcell.KeyHome)}, 0},
		{[]*tcell.EventKey{ch('g'), ch('7'), key(tcell.KeyEnter)}, 7},
		{[]*tcell.EventKey{ch('g'), ch('9'), ch('9'), key(tcell.KeyEnter)}, 12},
		{[]*tcell.EventKey{ch('g'), ch('8'), key(tcell.KeyBackspace2), ch('3'), key(tcell.KeyEnter)}, 3},
		{[]*tcell.EventKey{ch('g'), ch('5'), key(tcell.KeyEscape), ch('n')}, 1},
	}
	for _, c := range cases {
		p := newReplayer(r, Options{Lang: "en"})
		for _, k := range c.keys {
			p.HandleKey(k)
		}
		if p.at != c.at {
			t.Errorf("%v: at roll %d, want %d", c.keys, p.at, c.at)
			continue
		}
		// The screen at roll k is a UI given the first k moves.
		want := New(newFake(), Options{Lang: "en"})
		want.Apply(r.Table)
		moves := 0
		for _, e := range r.Events {
			if _, ok := e.(Rolled); ok && moves == c.at {
				break // the next roll is not yet on screen
			}
			want.Apply(e)
			if _, ok := e.(Moved); ok {
				moves++
			}
		}
		if p.u.pos != want.pos || p.u.stats.n != want.stats.n || len(p.u.events) != len(want.events) {
			t.Errorf("%v: roll %d shows pos %s, %d rolls counted, %d events; want %s, %d, %d",
				c.keys, c.at, p.u.pos, p.u.stats.n, len(p.u.events), want.pos, want.stats.n, len(want.events))
		}
	}
}

// The real tview loop on a simulation screen: keys step the replay and q
// ends it.
func TestRunReplayOnSimulationScreen(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	done := make(chan error, 1)
	tv, _ := newReplayApp(playedReplay(t, 12), Options{Lang: "en"}, sim)
	go func() { done <- tv.Run() }()
	for range 3 {
		sim.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(screenText(sim), "roll 3 of 12") {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed roll 3:\n%s", screenText(sim))
		}
		time.Sleep(20 * time.Millisecond)
	}
	sim.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q did not end the replay")
	}
}

// BenchmarkReplayStep is one step of a replay of a long game: the screen
// at a roll is made afresh from the events (so stepping back is exact),
// which must stay well under a key repeat.
func BenchmarkReplayStep(b *testing.B) {
	p := newReplayer(playedReplay(b, 300), Options{Lang: "en"})
	b.ResetTimer()
	for i := range b.N {
		p.show(p.rolls() - i%2) // the last rolls: the most events to apply
	}
}
