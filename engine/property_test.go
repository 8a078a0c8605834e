package engine

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// maxPlies bounds a random game. The longest games (takeoff=six,
// overshoot=stay, two players) run to a few thousand rolls; a game that
// reaches this bound is taken to be one that never ends.
const maxPlies = 50000

// drawGame draws a random game setup: 2–4 colours in play and a rule set.
func drawGame(t *rapid.T) (Position, Rules, uint64) {
	ids := rapid.SliceOfNDistinct(rapid.IntRange(0, NumColours-1), 2, 4, func(i int) int { return i }).Draw(t, "colours")
	colours := make([]Colour, len(ids))
	for i, id := range ids {
		colours[i] = Colour(id)
	}
	rules := Rules{
		Takeoff:         rapid.SampledFrom([]Takeoff{TakeoffEven, TakeoffSix, TakeoffFiveSix}).Draw(t, "takeoff"),
		StayOnOvershoot: rapid.Bool().Draw(t, "stay"),
		NoStacks:        rapid.Bool().Draw(t, "nostacks"),
		FlyJump:         rapid.Bool().Draw(t, "flyjump"),
	}
	p, err := NewGame(colours...)
	if err != nil {
		t.Fatalf("NewGame(%v): %v", colours, err)
	}
	return p, rules, rapid.Uint64().Draw(t, "seed")
}

// fataler is what the checks need of *testing.T and *rapid.T alike.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkInvariants asserts what must hold in every position a game reaches
// from its start.
func checkInvariants(t fataler, p Position, rules Rules) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatalf("%s does not validate: %v", p, err)
	}
	text := p.String()
	q, err := ParsePosition(text)
	if err != nil {
		t.Fatalf("reached position %q does not parse: %v", text, err)
	}
	if q != p || q.String() != text {
		t.Fatalf("round trip: %q → %q", text, q.String())
	}
	var owner [TrackSquares]Colour
	for i := range owner {
		owner[i] = NoColour
	}
	for c := Colour(0); c < NumColours; c++ {
		if !p.InPlay(c) {
			continue
		}
		for i := 0; i < PlanesPerColour; i++ {
			at := p.Plane(c, i)
			if at != Hangar && at != Launch && at != Finished && (at < 0 || at > HomeLast) {
				t.Fatalf("%s: %v plane %d in no valid place (%d)", p, c, i, at)
			}
			// Landing on 1, 17 or 21 always sends a plane on.
			if at == 1 || at == ShortcutFrom || at == 21 {
				t.Fatalf("%s: %v plane %d rests on %d", p, c, i, at)
			}
			// Every landing captures, so a track square never holds two colours.
			if onTrack(at) {
				a := Absolute(c, int(at))
				if owner[a] != NoColour && owner[a] != c {
					t.Fatalf("%s: %v and %v share square %d", p, owner[a], c, a)
				}
				owner[a] = c
			}
		}
	}
	if p.Sixes() > 2 {
		t.Fatalf("%s: %d sixes", p, p.Sixes())
	}
	if !rules.NoStacks && p.Sixes() > 0 {
		// With stacks, planes recorded by one six sit together, unless finished.
		var at []Place
		for i := 0; i < PlanesPerColour; i++ {
			if p.MovedBySix(i) {
				at = append(at, p.Plane(p.ToMove(), i))
			}
		}
		if p.Sixes() == 1 && len(slices.Compact(at)) != 1 {
			t.Fatalf("%s: one six moved planes in different places", p)
		}
	}
}

// playRandomGame plays one game from p: roll with r.Roll(), choose uniformly
// among the outcomes, checking each step with Play against Apply. It
// returns the hashes of every position reached.
func playRandomGame(t fataler, p Position, rules Rules, seed uint64, check bool) ([][32]byte, Position) {
	r := NewRand(seed)
	var hashes [][32]byte
	for ply := 0; !p.GameOver(); ply++ {
		if ply == maxPlies {
			t.Fatalf("game not over after %d plies: %s (rules %s, seed %d)", maxPlies, p, rules, seed)
		}
		roll := r.Roll()
		outs := p.Outcomes(rules, roll)
		if outs.Len() == 0 {
			t.Fatalf("%s roll %d: no outcomes in a game that is not over", p, roll)
		}
		m := outs.At(r.Intn(outs.Len()))
		if check {
			q, res, err := p.Play(rules, roll, m)
			if err != nil {
				t.Fatalf("%s roll %d: Play(%s) of a listed outcome: %v", p, roll, m, err)
			}
			a := p
			a.Apply(rules, roll, m)
			if a != q {
				t.Fatalf("%s roll %d %s: Apply %s, Play %s", p, roll, m, a, q)
			}
			if res.Next != q.ToMove() || res.Move != m || res.Roll != roll {
				t.Fatalf("%s roll %d %s: result %s disagrees with %s", p, roll, m, resultSummary(res), q)
			}
			if res.ExtraRoll != (roll == 6 && m.Kind == PlaneMove && q.ToMove() == p.ToMove() && !q.GameOver() && !res.ColourFinished) {
				t.Fatalf("%s roll %d %s: extra roll %t", p, roll, m, res.ExtraRoll)
			}
			p = q
			checkInvariants(t, p, rules)
		} else {
			p.Apply(rules, roll, m)
		}
		hashes = append(hashes, p.Hash(rules))
	}
	return hashes, p
}

func TestRandomGamesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start, rules, seed := drawGame(t)
		hashes, end := playRandomGame(t, start, rules, seed, true)
		ranking := end.Ranking()
		if !slices.Equal(slices.Sorted(slices.Values(ranking)), start.Colours()) {
			t.Fatalf("ranking %v is not a permutation of %v", ranking, start.Colours())
		}
		// Same seed, same game: the fast unchecked path gives the same hashes.
		again, end2 := playRandomGame(t, start, rules, seed, false)
		if end2 != end || !slices.Equal(hashes, again) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	})
}

// TestRandomGameLengths plays many fast games under every rule set and
// checks they all end well inside the bound.
func TestRandomGameLengths(t *testing.T) {
	longest := 0
	for set := 0; set < 24; set++ {
		rules := Rules{Takeoff: Takeoff(set % 3), StayOnOvershoot: set/3%2 == 1, NoStacks: set/6%2 == 1, FlyJump: set/12 == 1}
		for _, cs := range [][]Colour{{Red, Yellow}, {Blue, Yellow, Green}, {Red, Blue, Yellow, Green}} {
			start, _ := NewGame(cs...)
			r := NewRand(uint64(set))
			for g := 0; g < 20; g++ {
				p := start
				n := 0
				for ; !p.GameOver() && n < maxPlies; n++ {
					roll := r.Roll()
					outs := p.Outcomes(rules, roll)
					p.Apply(rules, roll, outs.At(r.Intn(outs.Len())))
				}
				if !p.GameOver() {
					t.Fatalf("rules %s colours %v: game %d not over after %d plies", rules, cs, g, n)
				}
				longest = max(longest, n)
			}
		}
	}
	if longest > maxPlies/5 {
		t.Errorf("longest game %d plies: too close to the bound %d", longest, maxPlies)
	}
	t.Logf("longest game: %d plies", longest)
}

func ExamplePosition_Ranking() {
	p, _ := ParsePosition("F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB")
	fmt.Println(p.Ranking())
	// Output: [Green Red Blue Yellow]
}
