//go:build mctune

package engine

import (
	"flag"
	"strconv"
	"strings"
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
	t.Log(tuneOnSameGames(t, "rollout vs "+*mcTuneLineup, strings.Split(*mcTuneVariants, ";"),
		func(spec string) Bot { return mcTuneBot(t, spec) }, strings.Split(*mcTuneLineup, ","), *mcTuneGames, *mcTuneWorkers, *mcTuneOffset))
}
