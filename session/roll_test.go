package session

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// rollState is the roll the translator last asked the player for, as the
// driver sees it now (it may be ahead of the events read so far).
func rollState(t *testing.T, s *NetSession) (k uint64) {
	t.Helper()
	if err := s.act(func(tr *Translator, _ *lockstep.Node) error {
		k = tr.rollK
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return k
}

// With ManualRoll a LAN player rolls by key: the die waits for Roll, a
// second Roll of the same die is refused, a roll left too long is made
// for the player (with a notice), and the game reaches its end to a log
// that verifies. Every die of the player's waits for a press (or that
// notice): the extra roll after its own chosen move (a 6) too, which is
// asked for and stays undecided while the player waits.
func TestNetManualRoll(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	const within = 2 * time.Second
	a := newNetTestWith(t, "Ann", func(o *NetOptions) { o.ManualRoll, o.RollWithin = true, within })
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
	c := &checker{t: t, you: engine.Red}
	deadline := time.After(3 * time.Minute) // a hang guard, not a speed claim
	prompts, rolledByKey := 0, 0
	var leftAt time.Time // when the second die was left to roll by itself
	rolledForAnn, stale := false, false
	countdowns := 0       // RollCountdowns for Ann's dice: the turn line counts down to the roll made for her
	presses := 0          // Ann's presses (and rolls made for her) not yet seen as her die
	lastAnnChose := false // the last die was Ann's and she chose its move
	extra := 0            // prompts for an extra roll after her own chosen move
	var over *ui.GameOver
	for over == nil {
		var e ui.Event
		select {
		case ev, ok := <-a.Events():
			if !ok {
				t.Fatal("events closed before the end")
			}
			e = ev
		case <-deadline:
			t.Fatalf("the game did not end (%d prompts)", prompts)
		}
		if cd, ok := e.(ui.RollCountdown); ok {
			if !cd.You || cd.Colour != engine.Red || cd.In != within {
				t.Errorf("countdown %+v, want Ann's Red die in %v", cd, within)
			}
			countdowns++
			continue
		}
		if n, ok := e.(ui.Notice); ok {
			if strings.Contains(n.Msg.String(), "rolled for you") {
				if leftAt.IsZero() {
					t.Fatalf("a die rolled itself though Ann always pressed Roll: %q", n.Msg.String())
				}
				rolledForAnn = true
				presses++
				if waited := time.Since(leftAt); waited < within/2 {
					t.Errorf("the die rolled itself after %v, want about %v", waited, within)
				}
			}
			continue
		}
		c.see(e)
		switch e := e.(type) {
		case ui.DiceWaiting:
			if !e.YouRoll {
				continue
			}
			if lastAnnChose {
				lastAnnChose = false
				if extra++; extra == 1 {
					// The extra roll is asked for and nothing rolls it
					// while Ann waits.
					k := rollState(t, a)
					time.Sleep(300 * time.Millisecond)
					if k2 := rollState(t, a); k2 != k || presses != 0 {
						t.Fatalf("the extra roll %d moved on to %d (%d presses) while Ann waited", k, k2, presses)
					}
				}
			}
			if stale {
				// A second press at the first prompt that was accepted
				// rolled the next die: this is its prompt, queued before.
				stale = false
				continue
			}
			prompts++
			switch prompts {
			case 1:
				time.Sleep(300 * time.Millisecond) // nothing rolls by itself meanwhile
				k := rollState(t, a)
				if err := a.Roll(); err != nil {
					t.Fatalf("Roll when asked: %v", err)
				}
				presses++
				err := a.Roll()
				if err == nil {
					presses++
				}
				if k2 := rollState(t, a); err == nil && k2 == k {
					t.Fatal("the same die was rolled twice")
				} else if err == nil {
					stale = true // no prompt came between: the die after a forced move
				} else if err != nil && !errors.Is(err, ErrAlreadyRolled) && !errors.Is(err, ErrNotYourRoll) {
					t.Fatalf("second Roll: %v", err)
				}
				rolledByKey++
			case 2:
				leftAt = time.Now()
			default:
				if err := a.Roll(); err != nil {
					t.Fatalf("Roll when asked: %v", err)
				}
				presses++
				rolledByKey++
			}
		case ui.Rolled:
			lastAnnChose = false
			if e.Colour == engine.Red {
				if presses--; presses < 0 {
					t.Fatalf("Ann's die came up %d without her pressing roll", e.Roll)
				}
				lastAnnChose = e.YouChoose
			}
			if !e.YouChoose {
				continue
			}
			if err := a.Roll(); err == nil {
				t.Fatal("Roll accepted while a move is to choose")
			}
			if err := a.Choose(e.Moves[0]); err != nil {
				t.Fatalf("choose: %v", err)
			}
		case ui.GameOver:
			over = &e
		}
	}
	if countdowns < prompts {
		t.Errorf("%d countdowns for %d roll prompts: each of Ann's dice counts down", countdowns, prompts)
	}
	if prompts < 3 || !rolledForAnn || extra == 0 {
		t.Fatalf("%d roll prompts (%d for an extra roll); the die left alone rolled itself: %v", prompts, extra, rolledForAnn)
	}
	data, err := os.ReadFile(over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || v.Rolls != uint64(c.rolls) {
		t.Fatalf("log: %v; phase %s, %d rolls (saw %d)", err, v.Phase, v.Rolls, c.rolls)
	}
	if err := a.Roll(); err == nil {
		t.Fatal("Roll accepted after the game")
	}
	t.Logf("%d rolls, %d of Ann's by key, %d extra rolls asked for after her own move", c.rolls, rolledByKey, extra)
}
