package perf

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Summary is a distribution of durations reduced to what the report shows.
type Summary struct {
	N                  int
	Min, P50, P95, P99 time.Duration
	Max, Mean          time.Duration
}

// Summarize sorts a copy of ds and reads its quantiles (nearest rank, so
// every reported value is one that was measured).
func Summarize(ds []time.Duration) Summary {
	if len(ds) == 0 {
		return Summary{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return Summary{
		N: len(s), Min: s[0], Max: s[len(s)-1], Mean: sum / time.Duration(len(s)),
		P50: Quantile(s, 0.50), P95: Quantile(s, 0.95), P99: Quantile(s, 0.99),
	}
}

// Quantile is the nearest-rank q-quantile of sorted (0 < q <= 1): the
// smallest value with at least q of the samples at or below it.
func Quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	// ceil(q*n) in millionths, so that 0.95*20 is rank 19, not 20 from a
	// float that came out a hair above 19.
	n := len(sorted)
	qm := int(math.Round(q * 1e6))
	rank := (qm*n + 1e6 - 1) / 1e6
	if rank < 1 {
		rank = 1
	}
	if rank > n {
		rank = n
	}
	return sorted[rank-1]
}

func (s Summary) String() string {
	return fmt.Sprintf("n=%d min=%v p50=%v p95=%v p99=%v max=%v mean=%v", s.N, s.Min, s.P50, s.P95, s.P99, s.Max, s.Mean)
}
