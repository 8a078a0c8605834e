//go:build experttune

package engine

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	tuneVariants = flag.String("expert.tune", "", "compare expert variants on the same games: specs separated by ';', e.g. 'base;d=1;d=1,w=64:32:0:64:2:64:96'")
	tuneLineup   = flag.String("expert.tunebots", "expert,greedy,greedy,greedy", "tune: the line-up, the expert first")
	tuneWorkers  = flag.Int("expert.workers", 2, "tune: games played at once")
	tuneOffset   = flag.Int("expert.offset", 0, "tune: number of the first game (a different sample of games)")
)

// tuneBot makes an expert from a spec of key=value pairs: d (depth) and
// w (weights risk:riskToMove:leader:field:finish:stack:out); "base" is
// the registered expert.
func tuneBot(t testing.TB, spec string) *expertBot {
	b := &expertBot{maxDepth: expertMaxDepth, budget: expertLeafBudget, w: defaultExpertWeights}
	if spec == "" || spec == "base" {
		return b
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "d":
			b.maxDepth = n
		case "w":
			w := &b.w
			if _, err := fmt.Sscanf(v, "%d:%d:%d:%d:%d:%d:%d", &w.risk, &w.riskToMove, &w.leader, &w.field, &w.finish, &w.stack, &w.out); err != nil {
				t.Fatalf("spec %q: %v", spec, err)
			}
		default:
			t.Fatalf("spec %q: unknown key %q", spec, k)
		}
	}
	return b
}

// TestExpertTune plays every variant on the same games (same dice, same
// seats, rotated game by game) and reports each one's wins and its paired
// difference from the first variant.
//
//	go test -tags experttune ./engine -run TestExpertTune -expert.tune 'base;d=1' -expert.games 400
//
// It and TestExpertDiag are behind the experttune build tag: they are
// tools that take minutes, not tests of the default run.
func TestExpertTune(t *testing.T) {
	if *tuneVariants == "" {
		t.Skip("name the variants with -expert.tune")
	}
	specs := strings.Split(*tuneVariants, ";")
	kinds := strings.Split(*tuneLineup, ",")
	n := len(kinds)
	cols := []Colour{Red, Yellow}
	if n == 3 {
		cols = []Colour{Red, Blue, Yellow}
	} else if n == 4 {
		cols = []Colour{Red, Blue, Yellow, Green}
	}
	games := *expertGames
	won := make([][]bool, len(specs))
	for v, spec := range specs {
		won[v] = make([]bool, games)
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < *tuneWorkers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bots := []Bot{tuneBot(t, spec)}
				for _, k := range kinds[1:] {
					b, err := NewBot(k)
					if err != nil {
						t.Error(err)
						return
					}
					bots = append(bots, b)
				}
				for g := range next {
					shift := g % n
					seated := make([]Bot, n)
					for k := range bots {
						seated[(k+shift)%n] = bots[k]
					}
					w := expertWinner(t, seated, cols, uint64(g+*tuneOffset)*0x9e3779b97f4a7c15+1)
					won[v][g] = w == shift
				}
			}()
		}
		for g := 0; g < games; g++ {
			next <- g
		}
		close(next)
		wg.Wait()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d games, seats rotated\n", *tuneLineup, games)
	for v, spec := range specs {
		wins, plus, minus := 0, 0, 0
		for g := range won[v] {
			if won[v][g] {
				wins++
			}
			if won[v][g] && !won[0][g] {
				plus++
			}
			if !won[v][g] && won[0][g] {
				minus++
			}
		}
		lo, hi := wilson(wins, games)
		fmt.Fprintf(&b, "  %-40s %5.1f%% [%4.1f, %4.1f]  vs first: +%d -%d\n", spec, 100*float64(wins)/float64(games), 100*lo, 100*hi, plus, minus)
	}
	t.Log(b.String())
}
