//go:build experttune

package engine

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var diagSpec = flag.String("expert.diag", "", "diagnose: expert spec to play against three greedy bots")

// TestExpertDiag counts, per seat kind, what happens in games: captures
// suffered and made, passes, penalties, stacked moves, plies.
func TestExpertDiag(t *testing.T) {
	if *diagSpec == "" {
		t.Skip("name the expert with -expert.diag, e.g. base")
	}
	type counts struct{ capChances, capTaken, games, wins, captured, capturedEv, captures, passes, penalties, stackMoves, moves, taxis int }
	var c [2]counts // 0 expert, 1 greedy (sum of three)
	rules := DefaultRules()
	cols := []Colour{Red, Blue, Yellow, Green}
	var winnerLeft [5]int // planes the expert still had out when it lost
	for g := 0; g < *expertGames; g++ {
		shift := g % 4
		bots := make([]Bot, 4)
		for k := range bots {
			bots[k], _ = NewBot("greedy")
		}
		bots[shift] = tuneBot(t, *diagSpec)
		kind := func(col Colour) int {
			if int(col) == shift {
				return 0
			}
			return 1
		}
		p, _ := NewGame(cols...)
		dice := NewRand(uint64(g)*0x9e3779b97f4a7c15 + 1)
		for p.nOrder == 0 {
			col := p.ToMove()
			roll := dice.Roll()
			outs := p.Outcomes(rules, roll)
			m := bots[col].Choose(&p, rules, roll, &outs, dice.Uint64())
			if outs.Len() > 1 {
				can := false
				for j := 0; j < outs.Len(); j++ {
					q := p
					q.Apply(rules, roll, outs.At(j))
					if !sameOpponents(&p, &q, col) {
						can = true
					}
				}
				if can {
					c[kind(col)].capChances++
					q := p
					q.Apply(rules, roll, m)
					if !sameOpponents(&p, &q, col) {
						c[kind(col)].capTaken++
					}
				}
			}
			next, res, err := p.Play(rules, roll, m)
			if err != nil {
				t.Fatal(err)
			}
			k := kind(col)
			switch m.Kind {
			case Pass:
				c[k].passes++
			case Penalty:
				c[k].penalties++
			default:
				c[k].moves++
				if res.From == Hangar {
					c[k].taxis++
				}
				if res.Group&(res.Group-1) != 0 {
					c[k].stackMoves++
				}
			}
			var hitCols [4]bool
			for i := 0; i < int(res.NCaptures); i++ {
				c[k].captures++
				c[kind(res.Captures[i].Colour)].captured++
				hitCols[res.Captures[i].Colour] = true
			}
			for o, h := range hitCols {
				if h {
					c[kind(Colour(o))].capturedEv++
				}
			}
			p = next
		}
		for k := range c {
			if k == 0 {
				c[0].games++
			} else {
				c[1].games += 3
			}
		}
		if int(p.order[0]) == shift {
			c[0].wins++
		} else {
			c[1].wins++
			left := 0
			for i := 0; i < 4; i++ {
				if p.planes[shift][i] != Finished {
					left++
				}
			}
			winnerLeft[left]++
		}
	}
	var b strings.Builder
	for k, name := range []string{"expert", "greedy"} {
		x := c[k]
		g := float64(x.games)
		fmt.Fprintf(&b, "%s: wins %.3f capturedEv %.2f captured %.2f captures %.2f passes %.1f penalties %.2f moves %.1f taxis %.1f stackMoves %.1f (per game) captures taken %d of %d chances\n",
			name, float64(x.wins)/g, float64(x.capturedEv)/g, float64(x.captured)/g, float64(x.captures)/g, float64(x.passes)/g, float64(x.penalties)/g, float64(x.moves)/g, float64(x.taxis)/g, float64(x.stackMoves)/g, x.capTaken, x.capChances)
	}
	fmt.Fprintf(&b, "expert's unfinished planes when it lost: %v\n", winnerLeft)
	t.Log(b.String())
}
