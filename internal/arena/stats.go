package arena

import "math"

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Share is the fraction of games in which seat s finished in place k.
func (st Stats) Share(s, k int) float64 {
	if st.Games == 0 {
		return 0
	}
	return float64(st.Seats[s].Places[k]) / float64(st.Games)
}

// WinRate is the fraction of games seat s won.
func (st Stats) WinRate(s int) float64 { return st.Share(s, 0) }

// Interval is the 95% Wilson score interval of Share(s, k).
func (st Stats) Interval(s, k int) (lo, hi float64) {
	return Wilson(st.Seats[s].Places[k], st.Games, z95)
}

// Wilson is the Wilson score interval for k successes in n trials at
// normal quantile z. Unlike the plain normal interval it stays inside
// [0, 1] and behaves near 0% and 100%, where strong bots live.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if k == 0 {
		lo = 0 // exactly, not a rounding error away from it
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}
