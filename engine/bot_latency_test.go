package engine

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkExpertMoveLatency times the expert's moves (see
// benchMoveLatency) and reports the most leaves one move evaluated,
// which bounds the time on any machine.
//
//	go test ./engine -run '^$' -bench ExpertMoveLatency -benchtime 20x
func BenchmarkExpertMoveLatency(b *testing.B) {
	expert := newExpert(b).(*expertBot)
	maxLeaves := 0
	benchMoveLatency(b, func(p *Position, rules Rules, roll int, outs *MoveList, _ uint64) Move {
		m, leaves := expert.choose(p, rules, roll, outs)
		maxLeaves = max(maxLeaves, leaves)
		return m
	})
	b.ReportMetric(float64(maxLeaves), "max-leaves/move")
}

// BenchmarkMCMoveLatency times the rollout bot's moves (see
// benchMoveLatency).
//
//	go test ./engine -run '^$' -bench MCMoveLatency -benchtime 10x
func BenchmarkMCMoveLatency(b *testing.B) {
	benchMoveLatency(b, newMC(b).Choose)
}

// benchMoveLatency plays whole games (the bot under test against three
// greedy bots, and against one random bot, its seat rotating) and times
// every move of that bot that had a choice, on the thread's CPU clock
// (the machine is shared, so wall time measures the neighbours too). It
// reports the median, the 99th percentile and the worst move.
func benchMoveLatency(b *testing.B, choose func(p *Position, rules Rules, roll int, outs *MoveList, seed uint64) Move) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := threadCPUTime(); !ok {
		b.Skip("no thread CPU clock on this system")
	}
	rules := DefaultRules()
	greedy, random := newBotOrFail(b, "greedy"), newBotOrFail(b, "random")
	var times []time.Duration
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
			seed := dice.Uint64()
			var m Move
			k := slices.Index(cols, p.ToMove())
			if k == int(seat) && outs.Len() > 1 {
				t0, _ := threadCPUTime()
				m = choose(&p, rules, roll, &outs, seed)
				t1, _ := threadCPUTime()
				times = append(times, t1-t0)
			} else {
				m = bots[k].Choose(&p, rules, roll, &outs, seed)
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
