package engine

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var (
	expertArena  = flag.Bool("expert.arena", false, "play the expert bot's strength arena (slow)")
	expertGames  = flag.Int("expert.games", 300, "games per arena line")
	expertLineup = flag.String("expert.bots", "", "one arena line, e.g. expert,greedy,greedy,greedy (default: the issue-7 lines)")
	expertRotate = flag.Bool("expert.rotate", true, "rotate the seats each game so that every bot sits everywhere")
	expertDepth  = flag.Int("expert.depth", -1, "arena: override the expert's deepest chance layer")
	expertW      = flag.String("expert.w", "", "arena: override the expert's weights: risk,riskToMove,leader,field,finish,stack,out")
)

// arenaBot makes a bot of the kind for the arena, with the expert's
// overrides of -expert.depth and -expert.w applied.
func arenaBot(t testing.TB, kind string) (Bot, error) {
	b, err := NewBot(kind)
	if err != nil || kind != "expert" {
		return b, err
	}
	e := b.(*expertBot)
	if *expertDepth >= 0 {
		e.maxDepth = *expertDepth
	}
	if *expertW != "" {
		w := &e.w
		if _, err := fmt.Sscanf(*expertW, "%d,%d,%d,%d,%d,%d,%d", &w.risk, &w.riskToMove, &w.leader, &w.field, &w.finish, &w.stack, &w.out); err != nil {
			t.Fatalf("-expert.w %q: %v", *expertW, err)
		}
	}
	return e, nil
}

func newExpert(t testing.TB) Bot {
	t.Helper()
	b, err := NewBot("expert")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expertQuick is the expert with one chance layer, for property tests that
// call it thousands of times.
func expertQuick() Bot {
	return newExpertBot(1)
}

// randomReachable draws a position reached by random play from the start
// of a 2-, 3- or 4-player game under drawn rules, and a roll.
func randomReachable(t *rapid.T) (Position, Rules, int) {
	sets := [][]Colour{{Red, Yellow}, {Blue, Green}, {Red, Blue, Yellow}, {Red, Blue, Yellow, Green}}
	cols := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "colours")]
	rules := Rules{
		Takeoff:         Takeoff(rapid.IntRange(0, 2).Draw(t, "takeoff")),
		StayOnOvershoot: rapid.Bool().Draw(t, "stay"),
		NoStacks:        rapid.Bool().Draw(t, "nostack"),
		FlyJump:         rapid.Bool().Draw(t, "flyjump"),
	}
	p, err := NewGame(cols...)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(rapid.Uint64().Draw(t, "seed"))
	plies := rapid.IntRange(0, 400).Draw(t, "plies")
	for i := 0; i < plies && !p.GameOver(); i++ {
		roll := r.Roll()
		outs := p.Outcomes(rules, roll)
		p.Apply(rules, roll, outs.At(r.Intn(outs.Len())))
	}
	if p.GameOver() {
		p, _ = NewGame(cols...)
	}
	return p, rules, rapid.IntRange(1, 6).Draw(t, "roll")
}

func TestExpertRegistered(t *testing.T) {
	b := newExpert(t)
	if b.Name() != "expert" {
		t.Fatalf("Name() = %q, want expert", b.Name())
	}
}

func TestExpertChoosesAnOutcome(t *testing.T) {
	quick := expertQuick()
	rapid.Check(t, func(t *rapid.T) {
		p, rules, roll := randomReachable(t)
		outs := p.Outcomes(rules, roll)
		m := quick.Choose(&p, rules, roll, &outs, 1)
		if !outs.Contains(m) {
			t.Fatalf("Choose(%s, %s, roll %d) = %s, not one of %v", p, rules, roll, m, outs.Slice())
		}
	})
}

func TestExpertDeterministic(t *testing.T) {
	b := newExpert(t)
	rapid.Check(t, func(t *rapid.T) {
		p, rules, roll := randomReachable(t)
		outs := p.Outcomes(rules, roll)
		if outs.Len() < 2 {
			return
		}
		before := p
		m1 := b.Choose(&p, rules, roll, &outs, 1)
		m2 := newExpertBot(expertMaxDepth).Choose(&p, rules, roll, &outs, rapid.Uint64().Draw(t, "seed2"))
		if m1 != m2 {
			t.Fatalf("Choose(%s, roll %d) gave %s and then %s", p, roll, m1, m2)
		}
		if p != before {
			t.Fatalf("Choose changed the position: %s became %s", before, p)
		}
		if !outs.Contains(m1) {
			t.Fatalf("Choose(%s, roll %d) = %s, not one of %v", p, roll, m1, outs.Slice())
		}
	})
}

// TestExpertRepliesAsGreedy checks the opponent model: where an opponent
// is to move, the search follows the move the greedy bot would make (with
// seed 0 for its ties), and values what follows from the root's side.
func TestExpertRepliesAsGreedy(t *testing.T) {
	greedy := greedyBot{w: defaultGreedyWeights}
	rapid.Check(t, func(t *rapid.T) {
		p, rules, roll := randomReachable(t)
		outs := p.Outcomes(rules, roll)
		if outs.Len() < 2 {
			return
		}
		root := p.ToMove().Next()
		for !p.InPlay(root) {
			root = root.Next()
		}
		s := expertSearch{rules: rules, tb: expertTablesFor(rules), w: &defaultExpertWeights, fit: &fitWeights, root: root}
		q := p
		q.Apply(rules, roll, greedy.Choose(&p, rules, roll, &outs, 0))
		depth := rapid.IntRange(0, 1).Draw(t, "depth")
		got, want := s.reply(&p, roll, &outs, depth), s.value(q, depth)
		if got != want {
			t.Fatalf("reply(%s, roll %d, depth %d) = %d, want %d: the value after greedy's move %s", p, roll, depth, got, want, greedy.Choose(&p, rules, roll, &outs, 0))
		}
	})
}

func TestExpertMoves(t *testing.T) {
	cases := []struct {
		name, pos, rules string
		roll             int
		want             string
	}{
		// Taxiing is the only alternative; finishing leaves one plane
		// needing a 3 instead of two planes needing exact rolls.
		{"finishes a plane", "F,F,52,53/-/F,F,F,54/- R 0 -", "", 2, "R3"},
		// R1 at 10 rolls 2 onto absolute 12, where Y's plane at its 38 sits
		// one good roll from home; R2 could only wander from 30 to 32.
		{"captures the runner", "H,10,30,H/-/H,H,H,38/- R 0 -", "", 2, "R1"},
		// Y3 on absolute 17 is R's route 17: the shortcut square. A 3 from
		// 14 lands there, captures, and flies on to 29.
		{"captures and flies", "H,14,40,H/-/H,H,H,43/- R 0 -", "", 3, "R1"},
		{"third six", "5,H,H,H/-/H,H,H,H/- R 2:0 -", "", 6, "penalty"},
		{"no legal move", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", "", 1, "pass"},
		{"single move", "F,F,F,53/-/H,H,H,H/- R 0 -", "", 2, "R3"},
	}
	b := newExpert(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.pos)
			rules := mustRules(t, tc.rules)
			outs := p.Outcomes(rules, tc.roll)
			got := b.Choose(&p, rules, tc.roll, &outs, 7)
			if got.String() != tc.want {
				t.Fatalf("Choose(%s, roll %d) = %s, want %s (outcomes %v)\n%s", tc.pos, tc.roll, got, tc.want, outs.Slice(), p.Board())
			}
		})
	}
}

// TestExpertBudget checks that the leaf budget bounds the search: with
// none the expert only scores the outcomes of the roll, and with some it
// searches past the first layer and stops at the budget (a small one, so
// that busy mid-game positions reach it quickly; the latency benchmark
// reports the registered budget's most).
func TestExpertBudget(t *testing.T) {
	rules := DefaultRules()
	const budget = 20000
	for _, s := range expertMidGames {
		p := mustParse(t, s)
		for roll := 1; roll <= 6; roll++ {
			outs := p.Outcomes(rules, roll)
			if outs.Len() < 2 {
				continue
			}
			b := newExpertBot(expertMaxDepth)
			b.budget = 0
			if _, leaves := b.choose(&p, rules, roll, &outs); leaves != outs.Len() {
				t.Errorf("%s roll %d, budget 0: %d leaves, want the %d outcomes alone", s, roll, leaves, outs.Len())
			}
			b.budget = budget
			_, leaves := b.choose(&p, rules, roll, &outs)
			// The search stops once past the budget, which the last leaf
			// and one modelled reply (up to four outcomes) may overshoot.
			if most := budget + 1 + PlanesPerColour; leaves <= outs.Len()*6 || leaves > most {
				t.Errorf("%s roll %d: %d leaves, want more than one layer's %d and at most %d", s, roll, leaves, outs.Len()*6, most)
			}
		}
	}
}

// expertMidGames are positions for the benchmark and the allocation test.
var expertMidGames = []string{
	"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 0 -",
	"10,22,H,L/5,31,44,H/H,18,27,50/2,14,H,H R 0 -",
	"30,30,12,H/40,L,7,H/20,25,H,H/33,H,9,51 Y 1:01 -",
	"45,H,H,L/-/8,19,35,L/- R 0 -",
	"F,F,53,53/12,12,H,L/-/- R 1:23 -",
}

// searchBots are the bots that search: each move must stay free of
// allocations, and BenchmarkSearchBotChoose times one.
var searchBots = []string{"expert", "rollout"}

func TestSearchBotsZeroAllocs(t *testing.T) {
	rules := DefaultRules()
	for _, kind := range searchBots {
		b := newBotOrFail(t, kind)
		for _, s := range expertMidGames {
			p := mustParse(t, s)
			outs := p.Outcomes(rules, 4)
			if n := testing.AllocsPerRun(2, func() { b.Choose(&p, rules, 4, &outs, 1) }); n != 0 {
				t.Errorf("%s: Choose(%s) allocates %.0f times, want 0", kind, s, n)
			}
		}
	}
}

// BenchmarkSearchBotChoose times one move of each registered search bot,
// cycling through mid-game positions and all six rolls.
func BenchmarkSearchBotChoose(b *testing.B) {
	rules := DefaultRules()
	var ps []Position
	for _, s := range expertMidGames {
		ps = append(ps, mustParse(b, s))
	}
	for _, kind := range searchBots {
		b.Run(kind, func(b *testing.B) {
			bot := newBotOrFail(b, kind)
			b.ReportAllocs()
			i := 0
			var outs MoveList // outside the loop: passed to an interface method, it escapes
			for b.Loop() {
				p := &ps[i%len(ps)]
				roll := 1 + (i/len(ps))%6
				outs = p.Outcomes(rules, roll)
				bot.Choose(p, rules, roll, &outs, uint64(i))
				i++
			}
		})
	}
}

// expertWinner plays one game with bots[k] in the k-th colour of cols and
// returns the index of the bot that finished first.
func expertWinner(t testing.TB, bots []Bot, cols []Colour, seed uint64) int {
	p, err := NewGame(cols...)
	if err != nil {
		t.Fatal(err)
	}
	rules := DefaultRules()
	dice := NewRand(seed)
	for p.nOrder == 0 {
		c := p.ToMove()
		roll := dice.Roll()
		outs := p.Outcomes(rules, roll)
		k := 0
		for cols[k] != c {
			k++
		}
		m := bots[k].Choose(&p, rules, roll, &outs, dice.Uint64())
		if !outs.Contains(m) {
			t.Fatalf("%s chose %s, not one of %v in %s", bots[k].Name(), m, outs.Slice(), p)
		}
		p.Apply(rules, roll, m)
	}
	for k, c := range cols {
		if c == p.order[0] {
			return k
		}
	}
	t.Fatalf("winner %s not seated", p.order[0])
	return -1
}

// wilson is the 95% Wilson score interval of k wins in n games.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959964
	ph, nf := float64(k)/float64(n), float64(n)
	mid := (ph + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(ph*(1-ph)/nf+z*z/(4*nf*nf))
	return mid - half, mid + half
}

// TestExpertArena measures strength; run it with
//
//	go test ./engine -run TestExpertArena -expert.arena -expert.games 2000
func TestExpertArena(t *testing.T) {
	if !*expertArena {
		t.Skip("strength arena: run with -expert.arena")
	}
	lines := []string{"expert,random", "expert,greedy,greedy,greedy"}
	if *expertLineup != "" {
		lines = []string{*expertLineup}
	}
	for _, line := range lines {
		kinds := strings.Split(line, ",")
		var bots []Bot
		for _, k := range kinds {
			b, err := arenaBot(t, k)
			if err != nil {
				t.Skipf("arena %s: %v", line, err)
			}
			bots = append(bots, b)
		}
		cols := []Colour{Red, Yellow}
		if len(bots) == 3 {
			cols = []Colour{Red, Blue, Yellow}
		} else if len(bots) == 4 {
			cols = []Colour{Red, Blue, Yellow, Green}
		}
		n := len(bots)
		wins := make([]int, n)
		seatWins, seatGames := make([]int, n), make([]int, n) // bot 0 by seat
		for g := 0; g < *expertGames; g++ {
			shift := 0
			if *expertRotate {
				shift = g % n
			}
			seated := make([]Bot, n)
			for k := range bots {
				seated[(k+shift)%n] = bots[k]
			}
			w := expertWinner(t, seated, cols, uint64(g)*0x9e3779b97f4a7c15+1)
			wins[(w-shift+n)%n]++
			seatGames[shift]++
			if w == shift {
				seatWins[shift]++
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "arena %s, %d games, seats rotated=%v, depth %d, weights %s\n", line, *expertGames, *expertRotate, *expertDepth, *expertW)
		for k := range bots {
			lo, hi := wilson(wins[k], *expertGames)
			fmt.Fprintf(&b, "  bot %d %-7s wins %5d = %5.1f%%  95%% CI [%5.1f%%, %5.1f%%]\n", k, kinds[k], wins[k],
				100*float64(wins[k])/float64(*expertGames), 100*lo, 100*hi)
		}
		for s := range seatGames {
			if seatGames[s] > 0 {
				lo, hi := wilson(seatWins[s], seatGames[s])
				fmt.Fprintf(&b, "  %s in seat %s: %d/%d = %5.1f%%  95%% CI [%5.1f%%, %5.1f%%]\n", kinds[0], cols[s], seatWins[s], seatGames[s],
					100*float64(seatWins[s])/float64(seatGames[s]), 100*lo, 100*hi)
			}
		}
		t.Log(b.String())
	}
}

func BenchmarkExpertScores(b *testing.B) {
	rules := DefaultRules()
	tb := expertTablesFor(rules)
	p := mustParse(b, expertMidGames[1])
	w := defaultExpertWeights
	var sink int32
	for b.Loop() {
		s := tb.scores(&p, true, &w)
		sink += s[0]
	}
	_ = sink
}
