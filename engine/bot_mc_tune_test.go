//go:build mctune

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
	mcTuneVariants = flag.String("mc.tune", "", "compare rollout variants on the same games: specs separated by ';', e.g. 'base;p=256;pol=0'")
	mcTuneLineup   = flag.String("mc.bots", "greedy,greedy,greedy", "tune: the opponents")
	mcTuneWorkers  = flag.Int("mc.workers", 2, "tune: games played at once")
	mcTuneGames    = flag.Int("mc.games", 300, "tune: games per variant")
	mcTuneOffset   = flag.Int("mc.offset", 0, "tune: number of the first game (a different sample of games)")
)

// mcTuneBot makes a rollout bot from a spec of key=value pairs: p
// (playouts a move) and pol (0 random, 1 capture-first); "base" is the
// registered bot.
func mcTuneBot(t testing.TB, spec string) *mcBot {
	b, _ := NewBot("rollout")
	m := *b.(*mcBot)
	if spec == "" || spec == "base" {
		return &m
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("spec %q: %v", spec, err)
		}
		switch k {
		case "p":
			m.playouts = n
		case "pol":
			m.policy = mcPolicy(n)
		case "t":
			m.plies = n
		default:
			t.Fatalf("spec %q: unknown key %q", spec, k)
		}
	}
	return &m
}

// TestMCTune plays every variant on the same games (seats rotated) and
// reports wins with 95% intervals and the paired difference from the first.
//
//	nice -n 10 go test -tags mctune ./engine -run TestMCTune -mc.tune 'base;pol=0' -mc.games 300
func TestMCTune(t *testing.T) {
	if *mcTuneVariants == "" {
		t.Skip("name the variants with -mc.tune")
	}
	specs := strings.Split(*mcTuneVariants, ";")
	opp := strings.Split(*mcTuneLineup, ",")
	n := len(opp) + 1
	cols := []Colour{Red, Yellow}
	if n == 3 {
		cols = []Colour{Red, Blue, Yellow}
	} else if n == 4 {
		cols = []Colour{Red, Blue, Yellow, Green}
	}
	games := *mcTuneGames
	won := make([][]bool, len(specs))
	for v, spec := range specs {
		won[v] = make([]bool, games)
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < *mcTuneWorkers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bots := []Bot{mcTuneBot(t, spec)}
				for _, k := range opp {
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
					won[v][g] = expertWinner(t, seated, cols, uint64(g+*mcTuneOffset)*0x9e3779b97f4a7c15+1) == shift
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
	fmt.Fprintf(&b, "rollout vs %s, %d games, seats rotated\n", *mcTuneLineup, games)
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
		fmt.Fprintf(&b, "  %-30s %5.1f%% [%4.1f, %4.1f]  vs first: +%d -%d\n", spec, 100*float64(wins)/float64(games), 100*lo, 100*hi, plus, minus)
	}
	t.Log(b.String())
}
