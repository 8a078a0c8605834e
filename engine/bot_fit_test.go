package engine

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The integer table must be exp itself: a drift in its powers would
// bend every chance the expert compares.
func TestFitExpTable(t *testing.T) {
	for i, got := range fitExp {
		want := math.Round(math.Exp(-float64(i)/256) * (1 << 24))
		if math.Abs(float64(got)-want) > 1 {
			t.Fatalf("fitExp[%d] = %d, want %.0f", i, got, want)
		}
	}
}

// The chances are a distribution over the colours in play: none below 0
// or above one, summing to one within the rounding of each division.
func TestFitWinProbIsADistribution(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, rules, _ := randomReachable(t)
		tb := expertTablesFor(rules)
		s := tb.fitScores(&p, !rules.NoStacks, &fitWeights)
		pr := fitWinProb(&p, &s)
		sum := int32(0)
		for c := Colour(0); c < NumColours; c++ {
			if !p.InPlay(c) && pr[c] != 0 {
				t.Fatalf("%s: colour %s not in play has chance %d", p, c, pr[c])
			}
			if pr[c] < 0 || pr[c] > fitProbOne {
				t.Fatalf("%s: chance of %s is %d, outside 0..%d", p, c, pr[c], fitProbOne)
			}
			sum += pr[c]
		}
		if sum > fitProbOne || sum < fitProbOne-NumColours {
			t.Fatalf("%s: chances %v sum to %d, want %d", p, pr, sum, fitProbOne)
		}
	})
}

// The search computes only the features that weigh (fitNeed); the scores
// must be those of every feature, for the registered weights and for
// weights that use features the registered ones leave out.
func TestFitNeedKeepsScores(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, rules, _ := randomReachable(t)
		tb := expertTablesFor(rules)
		w := fitWeights
		for i := range fitNF {
			if fitNeed(&fitWeights)&(1<<i) == 0 && rapid.Bool().Draw(t, "use") {
				for k := range w {
					w[k][i] = int32(rapid.IntRange(1, 400).Draw(t, "w"))
				}
			}
		}
		got := tb.fitScoresOf(&p, !rules.NoStacks, &w, fitNeed(&w))
		want := tb.fitScoresOf(&p, !rules.NoStacks, &w, 1<<fitNF-1)
		if got != want {
			t.Fatalf("%s: scores %v from the needed features (%016b), %v from all", p, got, fitNeed(&w), want)
		}
	})
}

// Table-driven sanity of the fitted chances: the colour that is plainly
// ahead is the favourite, and once a colour has finished first its chance
// is certain.
func TestFitWinProbFavourite(t *testing.T) {
	cases := []struct {
		name, pos string
		want      Colour
	}{
		{"the side to move at the start", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -", Blue},
		{"three planes home", "F,F,F,40/20,30,H,H/10,L,H,H/5,H,H,H Y 0 -", Red},
		{"far ahead, not to move", "30,40,45,52/H,H,L,3/8,H,H,H/H,H,12,L G 0 -", Red},
		{"finished first", "F,F,F,F/F,F,51,H/H,H,H,H/H,H,H,H B 0 R", Red},
	}
	rules := DefaultRules()
	tb := expertTablesFor(rules)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.pos)
			s := tb.fitScores(&p, true, &fitWeights)
			pr := fitWinProb(&p, &s)
			for c := Colour(0); c < NumColours; c++ {
				if c != tc.want && pr[c] >= pr[tc.want] {
					t.Fatalf("chances %v: %s at least as likely as %s to finish first\n%s", pr, c, tc.want, p.Board())
				}
			}
			if p.nOrder > 0 && pr[tc.want] != fitProbOne {
				t.Fatalf("chances %v: the winner's is not certain", pr)
			}
		})
	}
}

func BenchmarkFitScores(b *testing.B) {
	rules := DefaultRules()
	tb := expertTablesFor(rules)
	p := mustParse(b, expertMidGames[1])
	var sink int32
	for b.Loop() {
		s := tb.fitScores(&p, true, &fitWeights)
		sink += fitWinProb(&p, &s)[0]
	}
	_ = sink
}
