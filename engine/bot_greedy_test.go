package engine

import (
	"testing"

	"pgregory.net/rapid"
)

func botTestPosition(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func botTestBot(t testing.TB, kind string) Bot {
	t.Helper()
	b, err := NewBot(kind)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGreedyChoices checks each thing greedy values on positions where one
// outcome is clearly right, for many seeds (the seed only breaks ties).
func TestGreedyChoices(t *testing.T) {
	tests := []struct {
		name, rules, pos string
		roll             int
		want             string
	}{
		// R0 2→4 lands on Y0 (Y's 30 is absolute 4); R1 10→12 and a taxi capture nothing.
		{"capture", "", "2,10,H,H/-/30,H,H,H/- R 0 -", 2, "R0"},
		// R0 53→55 finishes; R1 19→21 jumps to 25, more steps but no plane home.
		{"finish over jump", "", "53,19,F,F/-/H,H,H,H/- R 0 -", 2, "R0"},
		// Both move 3 steps without effects; R0 3→6 lands on absolute 6,
		// which Y0 on absolute 4 hits with a 2; R1 20→23 is out of reach.
		{"avoid threat", "", "3,20,H,H/-/30,H,H,H/- R 0 -", 3, "R1"},
		// The same with R's two planes swapped.
		{"avoid threat other plane", "", "20,3,H,H/-/30,H,H,H/- R 0 -", 3, "R0"},
		// R0 16→17 takes the shortcut to 29 (+13 steps); R1 30→31 does not.
		{"shortcut", "", "16,30,F,F/-/H,H,H,H/- R 0 -", 1, "R0"},
		// R0 0→1 jumps to 5; R1 10→11 is a plain step.
		{"jump", "", "0,10,F,F/-/H,H,H,H/- R 0 -", 1, "R0"},
		// Y0 sits on R's H3; Y1 16→17 flies over it and sends it home.
		{"crossing capture", "", "52,F,F,F/-/16,22,F,F/- Y 0 -", 1, "Y0"},
		// R0 on 46 (absolute 46) is hit by Y0 on Y's 16 with a 4; moving it
		// into the home column saves it, moving R1 20→24 leaves it there.
		{"escape home", "", "46,20,F,F/-/16,H,H,H/- R 0 -", 4, "R0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules, err := ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			p := botTestPosition(t, tc.pos)
			outs := p.Outcomes(rules, tc.roll)
			if outs.Len() < 2 {
				t.Fatalf("test position offers %v: want a choice", outs.Slice())
			}
			g := botTestBot(t, "greedy")
			for seed := uint64(0); seed < 32; seed++ {
				if got := g.Choose(&p, rules, tc.roll, &outs, seed).String(); got != tc.want {
					t.Fatalf("seed %d: greedy chose %s, want %s (outcomes %v)\n%s", seed, got, tc.want, outs.Slice(), p.Board())
				}
			}
		})
	}
}

// TestGreedyThreats checks the squares an opponent's next roll can hit,
// including a jump, the shortcut and the crossing of the mover's H3.
func TestGreedyThreats(t *testing.T) {
	// Y0 on Y's 12: a 1 lands on 13 (abs 39), jumps to 17 (abs 43) and flies
	// to 29 (abs 3) over R's H3; 2,3,4 land on 14..16 (abs 40..42); a 5 lands
	// on 17 and flies; a 6 lands on 18 (abs 44).
	p := botTestPosition(t, "52,H,H,H/-/12,H,H,H/- R 0 -")
	var hits [TrackSquares + 1]uint8
	p.threats(Rules{}, Red, &hits)
	want := map[int]uint8{39: 1, 43: 2, 3: 2, 40: 1, 41: 1, 42: 1, 44: 1, TrackSquares: 2}
	for a := range hits {
		if hits[a] != want[a] {
			t.Errorf("hits[%d] = %d, want %d", a, hits[a], want[a])
		}
	}
	// With flyjump=on the direct landing on 17 (a 5) also jumps to 33 (abs 7);
	// the jump onto 17 (a 1) never jumps again.
	hits = [TrackSquares + 1]uint8{}
	p.threats(Rules{FlyJump: true}, Red, &hits)
	if hits[7] != 1 {
		t.Errorf("flyjump: hits[7] = %d, want 1", hits[7])
	}
	// Blue (not opposite Red) crossing Yellow's H3 does not threaten Red's H3.
	q := botTestPosition(t, "52,H,H,H/12,H,H,H/H,H,H,H/- R 0 -")
	hits = [TrackSquares + 1]uint8{}
	q.threats(Rules{}, Red, &hits)
	if hits[TrackSquares] != 0 {
		t.Errorf("Blue's shortcut counted as crossing Red's H3: %d", hits[TrackSquares])
	}
}

// TestGreedySingleOutcome checks that a lone pass, penalty or move comes back unchanged.
func TestGreedySingleOutcome(t *testing.T) {
	tests := []struct {
		pos  string
		roll int
		want Move
	}{
		{"H,H,H,H/-/H,H,H,H/- R 0 -", 1, Move{Kind: Pass, Colour: Red}},
		{"L,H,H,H/-/H,H,H,H/- R 2:0 -", 6, Move{Kind: Penalty, Colour: Red}},
		{"L,H,H,H/-/H,H,H,H/- R 0 -", 3, Move{Kind: PlaneMove, Colour: Red, Plane: 0}},
	}
	g := botTestBot(t, "greedy")
	for _, tc := range tests {
		p := botTestPosition(t, tc.pos)
		outs := p.Outcomes(Rules{}, tc.roll)
		if got := g.Choose(&p, Rules{}, tc.roll, &outs, 7); got != tc.want {
			t.Errorf("%s roll %d: got %v, want %v", tc.pos, tc.roll, got, tc.want)
		}
	}
}

// TestGreedyTieBreakBySeed checks that equal outcomes are chosen by the
// seed: each seed always gives the same answer, and different seeds reach
// both answers.
func TestGreedyTieBreakBySeed(t *testing.T) {
	p := botTestPosition(t, "20,30,F,F/-/H,H,H,H/- R 0 -") // 20→22 and 30→32: equal
	outs := p.Outcomes(Rules{}, 2)
	g := botTestBot(t, "greedy")
	seen := map[Move]bool{}
	for seed := uint64(0); seed < 64; seed++ {
		m := g.Choose(&p, Rules{}, 2, &outs, seed)
		for k := 0; k < 3; k++ {
			if again := g.Choose(&p, Rules{}, 2, &outs, seed); again != m {
				t.Fatalf("seed %d: chose %v then %v", seed, m, again)
			}
		}
		seen[m] = true
	}
	if len(seen) != 2 {
		t.Errorf("64 seeds chose %v, want both R0 and R1", seen)
	}
}

// TestGreedyNoAllocs keeps the bot cheap enough for playouts and search.
func TestGreedyNoAllocs(t *testing.T) {
	p := botTestPosition(t, "3,20,L,H/H,7,L,H/30,H,12,H/5,H,H,H R 0 -")
	outs := p.Outcomes(Rules{}, 6)
	g := botTestBot(t, "greedy")
	if a := testing.AllocsPerRun(100, func() { g.Choose(&p, Rules{}, 6, &outs, 1) }); a != 0 {
		t.Errorf("Choose allocates %.1f times per call, want 0", a)
	}
}

// TestBotsProperties plays random games under random rules with the
// random and greedy bots in random seats (the expert bot, much slower, is
// tested by its own file): each choice is one of the outcomes, the same
// inputs give the same choice, and the game ends.
func TestBotsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := Rules{
			Takeoff:         Takeoff(rapid.IntRange(0, 2).Draw(t, "takeoff")),
			StayOnOvershoot: rapid.Bool().Draw(t, "stay"),
			NoStacks:        rapid.Bool().Draw(t, "nostacks"),
			FlyJump:         rapid.Bool().Draw(t, "flyjump"),
		}
		colours := rapid.SliceOfNDistinct(rapid.IntRange(0, 3), 2, 4, rapid.ID[int]).Draw(t, "colours")
		cs := make([]Colour, len(colours))
		for i, c := range colours {
			cs[i] = Colour(c)
		}
		p, err := NewGame(cs...)
		if err != nil {
			t.Fatal(err)
		}
		var bots [NumColours]Bot
		kinds := []string{"random", "greedy"}
		for c := range bots {
			bots[c], _ = NewBot(kinds[rapid.IntRange(0, len(kinds)-1).Draw(t, "bot")])
		}
		r := NewRand(rapid.Uint64().Draw(t, "seed"))
		for ply := 0; !p.GameOver(); ply++ {
			if ply > 20000 {
				t.Fatalf("game not over after %d plies: %s", ply, p)
			}
			roll := r.Roll()
			outs := p.Outcomes(rules, roll)
			seed := r.Uint64()
			b := bots[p.ToMove()]
			m := b.Choose(&p, rules, roll, &outs, seed)
			if !outs.Contains(m) {
				t.Fatalf("%s chose %v, not one of %v in %s roll %d", b.Name(), m, outs.Slice(), p, roll)
			}
			q := p
			if again := b.Choose(&q, rules, roll, &outs, seed); again != m {
				t.Fatalf("%s chose %v then %v in %s roll %d", b.Name(), m, again, p, roll)
			}
			if q != p {
				t.Fatalf("%s changed the position it was shown", b.Name())
			}
			p.Apply(rules, roll, m)
		}
	})
}

func BenchmarkGreedyChoose(b *testing.B) {
	p := botTestPosition(b, "3,20,L,H/H,7,L,H/30,H,12,H/5,H,H,H R 0 -")
	outs := p.Outcomes(Rules{}, 6)
	g := botTestBot(b, "greedy")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Choose(&p, Rules{}, 6, &outs, uint64(i))
	}
}
