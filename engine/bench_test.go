package engine

import (
	"runtime"
	"testing"
	"time"
)

// cpuClock measures the benchmark loop's thread CPU time (see threadCPUTime).
type cpuClock struct {
	start time.Duration
	ok    bool
}

func startCPUClock() cpuClock {
	runtime.LockOSThread()
	d, ok := threadCPUTime()
	return cpuClock{d, ok}
}

// report adds the metric unit per item (e.g. "cpu-ns/ply") when thread CPU time is known.
func (c cpuClock) report(b *testing.B, items int, unit string) {
	end, ok := threadCPUTime()
	runtime.UnlockOSThread()
	if c.ok && ok && items > 0 {
		b.ReportMetric(float64(end-c.start)/float64(items), unit)
	}
}

// randomGame plays one full random game from p: roll with r.Roll(), pick
// uniformly among the outcomes. It returns the number of plies (rolls).
func randomGame(p *Position, rules Rules, r *Rand) int {
	plies := 0
	for !p.GameOver() {
		roll := r.Roll()
		outs := p.Outcomes(rules, roll)
		p.Apply(rules, roll, outs.At(r.Intn(outs.Len())))
		plies++
	}
	return plies
}

// benchPositions are mid-game positions for the move-generation benchmarks.
var benchPositions = []string{
	"H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -",
	"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 0 -",
	"F,F,53,53/12,12,H,L/-/- R 1:23 -",
}

func BenchmarkLegalMoves(b *testing.B) {
	ps := make([]Position, len(benchPositions))
	for i, s := range benchPositions {
		ps[i] = mustParse(b, s)
	}
	rules := DefaultRules()
	b.ReportAllocs()
	n := 0
	clock := startCPUClock()
	for b.Loop() {
		for i := range ps {
			for roll := 1; roll <= 6; roll++ {
				outs := ps[i].Outcomes(rules, roll)
				n += outs.Len()
			}
		}
	}
	clock.report(b, b.N*len(ps)*6, "cpu-ns/roll")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)*6), "ns/roll")
	if n == 0 {
		b.Fatal("no outcomes")
	}
}

func BenchmarkApply(b *testing.B) {
	ps := make([]Position, len(benchPositions))
	for i, s := range benchPositions {
		ps[i] = mustParse(b, s)
	}
	type step struct {
		p    int
		roll int
		m    Move
	}
	var steps []step
	rules := DefaultRules()
	for i := range ps {
		for roll := 1; roll <= 6; roll++ {
			outs := ps[i].Outcomes(rules, roll)
			for k := 0; k < outs.Len(); k++ {
				steps = append(steps, step{i, roll, outs.At(k)})
			}
		}
	}
	b.ReportAllocs()
	var sink Position
	clock := startCPUClock()
	for b.Loop() {
		for _, s := range steps {
			q := ps[s.p]
			q.Apply(rules, s.roll, s.m)
			sink = q
		}
	}
	clock.report(b, b.N*len(steps), "cpu-ns/apply")
	_ = sink
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(steps)), "ns/apply")
}

func BenchmarkPlayout(b *testing.B) {
	for _, bc := range []struct {
		name    string
		colours []Colour
	}{
		{"4p", []Colour{Red, Blue, Yellow, Green}},
		{"2p", []Colour{Red, Yellow}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			start, err := NewGame(bc.colours...)
			if err != nil {
				b.Fatal(err)
			}
			rules := DefaultRules()
			r := NewRand(1)
			b.ReportAllocs()
			plies := 0
			clock := startCPUClock()
			for b.Loop() {
				p := start
				plies += randomGame(&p, rules, &r)
			}
			clock.report(b, plies, "cpu-ns/ply")
			ns := float64(b.Elapsed().Nanoseconds())
			b.ReportMetric(ns/float64(plies), "ns/ply")
			b.ReportMetric(float64(b.N)/(ns/1e9), "games/s")
			b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
		})
	}
}
