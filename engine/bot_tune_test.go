//go:build experttune || mctune

package engine

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// tuneOnSameGames plays every variant (bot(spec), in the first seat of
// the line-up, against the opponents) on the same games: same dice, seats
// rotated game by game. It returns each variant's wins with a 95%
// interval and its paired difference from the first variant, which sees
// through the dice far better than the intervals do.
func tuneOnSameGames(t *testing.T, title string, specs []string, bot func(spec string) Bot, opponents []string, games, workers, offset int) string {
	n := len(opponents) + 1
	cols := []Colour{Red, Yellow}
	if n == 3 {
		cols = []Colour{Red, Blue, Yellow}
	} else if n == 4 {
		cols = []Colour{Red, Blue, Yellow, Green}
	}
	won := make([][]bool, len(specs))
	for v, spec := range specs {
		won[v] = make([]bool, games)
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				bots := []Bot{bot(spec)}
				for _, k := range opponents {
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
					won[v][g] = expertWinner(t, seated, cols, uint64(g+offset)*0x9e3779b97f4a7c15+1) == shift
				}
			})
		}
		for g := 0; g < games; g++ {
			next <- g
		}
		close(next)
		wg.Wait()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d games, seats rotated\n", title, games)
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
	return b.String()
}
