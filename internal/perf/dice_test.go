package perf

import (
	"testing"
	"time"
)

// The in-memory table plays a real game: every node applies every roll and
// the frames carry signed messages.
func TestDiceTable(t *testing.T) {
	for _, tc := range []struct {
		players, rolls int
	}{{2, 0}, {4, 30}} {
		d, err := NewDiceTable(tc.players)
		if err != nil {
			t.Fatal(err)
		}
		rolls, err := d.Play(tc.rolls)
		if err != nil {
			t.Fatalf("%d players: %v", tc.players, err)
		}
		if tc.rolls > 0 && rolls < tc.rolls || rolls < 10 {
			t.Errorf("%d players: %d rolls, want at least %d", tc.players, rolls, max(tc.rolls, 10))
		}
		// At least one reveal per roll from every player to every other.
		if min := rolls * tc.players * (tc.players - 1); d.Frames < min {
			t.Errorf("%d players: %d frames for %d rolls, want >= %d", tc.players, d.Frames, rolls, min)
		}
	}
	if _, err := NewDiceTable(5); err == nil {
		t.Error("NewDiceTable(5): no error")
	}
}

// BenchmarkDiceRoll: one roll of the dice protocol among 2 or 4 players,
// in memory: every message signed by its sender and verified by every
// receiver, no network. One op is a whole game; ns/roll is what counts.
func BenchmarkDiceRoll(b *testing.B) {
	for _, players := range []int{2, 4} {
		b.Run(map[int]string{2: "2p", 4: "4p"}[players], func(b *testing.B) {
			b.ReportAllocs()
			rolls, frames, bytes := 0, 0, 0
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				d, err := NewDiceTable(players)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				c0 := ProcessCPU()
				n, err := d.Play(0)
				cpu += ProcessCPU() - c0
				if err != nil {
					b.Fatal(err)
				}
				rolls, frames, bytes = rolls+n, frames+d.Frames, bytes+d.Bytes
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rolls), "ns/roll")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(rolls), "cpu-ns/roll")
			b.ReportMetric(float64(frames)/float64(rolls), "frames/roll")
			b.ReportMetric(float64(bytes)/float64(rolls), "B-sent/roll")
			reportLoad(b)
		})
	}
}
