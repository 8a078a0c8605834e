//go:build experttune

package engine

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
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
	b := newExpertBot(expertMaxDepth)
	if spec == "" || spec == "base" {
		return b
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "d":
			b.maxDepth = n
		case "fit": // fit=0: the hand-made utility of bot_expert_eval.go
			b.fit = nil
			if n == 1 {
				w := fitWeights
				b.fit = &w
			}
		case "fz": // zero fitted features, e.g. fz=5+8
			for _, f := range strings.Split(v, "+") {
				k, _ := strconv.Atoi(f)
				for kn := range b.fit {
					b.fit[kn][k] = 0
				}
			}
		case "fs": // scale a fitted feature, e.g. fs=5:50 (percent)
			var k, pc int32
			fmt.Sscanf(v, "%d:%d", &k, &pc)
			for kn := range b.fit {
				b.fit[kn][k] = b.fit[kn][k] * pc / 100
			}
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
	kinds := strings.Split(*tuneLineup, ",")
	t.Log(tuneOnSameGames(t, *tuneLineup, strings.Split(*tuneVariants, ";"),
		func(spec string) Bot { return tuneBot(t, spec) }, kinds[1:], *expertGames, *tuneWorkers, *tuneOffset))
}
