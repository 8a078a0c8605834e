package engine

import (
	"testing"

	"pgregory.net/rapid"
)

func newMC(tb testing.TB) *mcBot {
	tb.Helper()
	b, err := NewBot("rollout")
	if err != nil {
		tb.Fatal(err)
	}
	if b.Name() != "rollout" {
		tb.Fatalf("Name() = %q, want rollout", b.Name())
	}
	return b.(*mcBot)
}

// mcQuick is the rollout bot with a small budget, for property tests
// that call it many times: the code paths are the registered bot's.
func mcQuick() *mcBot {
	b := *newMCDefault()
	b.playouts = 24
	return &b
}

func newMCDefault() *mcBot { b, _ := NewBot("rollout"); return b.(*mcBot) }

// TestMCChoosesAnOutcome: in any reachable position, under any rules, the
// bot returns one of the outcomes, returns it again for the same seed, and
// leaves the position it was shown alone.
func TestMCChoosesAnOutcome(t *testing.T) {
	b := mcQuick()
	rapid.Check(t, func(t *rapid.T) {
		p, rules, roll := randomReachable(t)
		outs := p.Outcomes(rules, roll)
		seed := rapid.Uint64().Draw(t, "botseed")
		before := p
		m := b.Choose(&p, rules, roll, &outs, seed)
		if !outs.Contains(m) {
			t.Fatalf("Choose(%s, %s, roll %d) = %s, not one of %v", p, rules, roll, m, outs.Slice())
		}
		if p != before {
			t.Fatalf("Choose changed the position: %s became %s", before, p)
		}
		if again := mcQuick().Choose(&p, rules, roll, &outs, seed); again != m {
			t.Fatalf("Choose(%s, roll %d, seed %d) gave %s, then %s", p, roll, seed, m, again)
		}
	})
}

// TestMCDeterministic: the registered bot, fresh each time, makes the same
// moves from the same inputs and seed, over every mid-game position and roll.
func TestMCDeterministic(t *testing.T) {
	rules := DefaultRules()
	for _, s := range expertMidGames {
		p := mustParse(t, s)
		for roll := 1; roll <= 6; roll += 3 {
			outs := p.Outcomes(rules, roll)
			m1 := newMC(t).Choose(&p, rules, roll, &outs, 99)
			m2 := newMC(t).Choose(&p, rules, roll, &outs, 99)
			if m1 != m2 {
				t.Errorf("Choose(%s, roll %d, seed 99) gave %s, then %s", s, roll, m1, m2)
			}
		}
	}
}

func TestMCMoves(t *testing.T) {
	cases := []struct {
		name, pos string
		roll      int
		want      string
	}{
		// Finishing leaves one plane needing a 3 instead of two planes
		// needing exact rolls.
		{"finishes a plane", "F,F,52,53/-/F,F,F,54/- R 0 -", 2, "R3"},
		{"third six", "5,H,H,H/-/H,H,H,H/- R 2:0 -", 6, "penalty"},
		{"no legal move", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", 1, "pass"},
		// Y's runner at its 38 is one good roll from home; R1 at 10 with a
		// 2 lands on absolute 12 and sends it back.
		{"captures the runner", "H,10,30,H/-/H,H,H,38/- R 0 -", 2, "R1"},
	}
	b := newMC(t)
	rules := DefaultRules()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.pos)
			outs := p.Outcomes(rules, tc.roll)
			if got := b.Choose(&p, rules, tc.roll, &outs, 7); got.String() != tc.want {
				t.Fatalf("Choose(%s, roll %d) = %s, want %s (outcomes %v)", tc.pos, tc.roll, got, tc.want, outs.Slice())
			}
		})
	}
}
