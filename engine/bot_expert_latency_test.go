package engine

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkExpertMoveLatency plays whole games (the expert against three
// greedy bots, and against one random bot) and times every expert move
// that had a choice, on the thread's CPU clock (the machine is shared, so
// wall time measures the neighbours too). It reports the median, the
// 99th percentile and the worst move, and the most leaves one move
// evaluated, which bounds the time on any machine.
//
//	go test ./engine -run '^$' -bench ExpertMoveLatency -benchtime 20x
func BenchmarkExpertMoveLatency(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := threadCPUTime(); !ok {
		b.Skip("no thread CPU clock on this system")
	}
	rules := DefaultRules()
	expert := newExpert(b).(*expertBot)
	greedy, random := newBotOrFail(b, "greedy"), newBotOrFail(b, "random")
	var times []time.Duration
	maxLeaves := 0
	g := uint64(0)
	for b.Loop() {
		cols := []Colour{Red, Blue, Yellow, Green}
		bots := []Bot{greedy, greedy, greedy, greedy}
		if g%2 == 1 {
			cols = []Colour{Red, Yellow}
			bots = []Bot{random, random}
		}
		seat := Colour(g/2) % Colour(len(cols))
		p, err := NewGame(cols...)
		if err != nil {
			b.Fatal(err)
		}
		dice := NewRand(g*0x9e3779b97f4a7c15 + 12345)
		for !p.GameOver() {
			roll := dice.Roll()
			outs := p.Outcomes(rules, roll)
			var m Move
			k := slices.Index(cols, p.ToMove())
			if k == int(seat) && outs.Len() > 1 {
				t0, _ := threadCPUTime()
				var leaves int
				m, leaves = expert.choose(&p, rules, roll, &outs)
				t1, _ := threadCPUTime()
				times = append(times, t1-t0)
				maxLeaves = max(maxLeaves, leaves)
			} else {
				m = bots[k].Choose(&p, rules, roll, &outs, dice.Uint64())
			}
			p.Apply(rules, roll, m)
		}
		g++
	}
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	at := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), "p50-µs/move")
	b.ReportMetric(at(0.99), "p99-µs/move")
	b.ReportMetric(float64(times[len(times)-1].Microseconds()), "max-µs/move")
	b.ReportMetric(float64(maxLeaves), "max-leaves/move")
	b.ReportMetric(float64(len(times)), "moves")
}

func newBotOrFail(tb testing.TB, kind string) Bot {
	tb.Helper()
	bot, err := NewBot(kind)
	if err != nil {
		tb.Fatal(err)
	}
	return bot
}
