package ui

import (
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
)

// fakeClock is a clock the test moves, and the timers the interface set.
type fakeClock struct {
	t      time.Time
	timers []func()
}

func (c *fakeClock) attach(u *UI) {
	u.now = func() time.Time { return c.t }
	u.after = func(d time.Duration, f func()) { c.timers = append(c.timers, f) }
}

// fire runs the timers set so far, after moving the clock by d.
func (c *fakeClock) fire(d time.Duration) {
	c.t = c.t.Add(d)
	ts := c.timers
	c.timers = nil
	for _, f := range ts {
		f()
	}
}

// TestRollCountdown: before the session rolls for the player, and before
// a bot's roll is shown, the turn line counts the seconds down; the roll
// ends it, and a stale tick does nothing.
func TestRollCountdown(t *testing.T) {
	u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", engine.DefaultRules())
	clk := &fakeClock{t: time.Unix(1000, 0)}
	clk.attach(u)
	u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
	u.Apply(RollCountdown{Colour: engine.Red, In: 30 * time.Second, You: true})
	if got := render(t, u, 80, 24); !strings.Contains(got, "Rolled for you in 30 s") {
		t.Fatalf("no countdown on the turn line:\n%s", got)
	}
	clk.fire(12*time.Second + 400*time.Millisecond)
	checkGolden(t, "countdown-you-80x24", render(t, u, 80, 24))
	checkGolden(t, "countdown-you-78x22", render(t, u, 78, 22))
	if got := render(t, u, 80, 24); !strings.Contains(got, "in 18 s") {
		t.Errorf("after 12.4 s the countdown does not say 18 s:\n%s", got)
	}
	if len(clk.timers) != 1 {
		t.Errorf("%d ticks pending, want the next second's", len(clk.timers))
	}
	u.Apply(Rolled{Colour: engine.Red, Roll: 3, Moves: []engine.Move{{Kind: engine.Pass, Colour: engine.Red}}})
	clk.fire(time.Second)
	if got := render(t, u, 80, 24); strings.Contains(got, "Rolled for you") {
		t.Errorf("the roll left the countdown on:\n%s", got)
	}
	if len(clk.timers) != 0 {
		t.Errorf("a stale countdown still ticks")
	}

	// A bot's roll shown after a pause.
	u.Apply(DiceWaiting{ToMove: engine.Blue, Waiting: []string{"alice", "bob"}})
	u.Apply(RollCountdown{Colour: engine.Blue, In: 2 * time.Second})
	clk.fire(900 * time.Millisecond)
	got := render(t, u, 80, 24)
	checkGolden(t, "countdown-bot-80x24", got)
	if !strings.Contains(got, "Blue rolls in 2 s") {
		t.Errorf("the bot's countdown is not on the turn line:\n%s", got)
	}
}
