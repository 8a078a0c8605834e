package engine

import "math/bits"

// Rand is a small deterministic generator (SplitMix64) that bots and
// playouts use. Its output is fixed by its algorithm, so every peer that
// seeds it alike draws alike on every machine and Go version. It is not
// for secrets: the dice that players roll come from lockstep's
// commit-reveal protocol, never from here.
type Rand struct{ state uint64 }

// NewRand seeds a generator.
func NewRand(seed uint64) Rand { return Rand{state: seed} }

// Uint64 draws 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn draws uniformly from 0..n-1 (n > 0) without modulo bias (Lemire's method).
func (r *Rand) Intn(n int) int {
	hi, lo := bits.Mul64(r.Uint64(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), uint64(n))
		}
	}
	return int(hi)
}

// Roll draws a die face 1..6.
func (r *Rand) Roll() int { return 1 + r.Intn(6) }
