package engine

import "testing"

// TestPlayoutAllocatesNothing pins the zero-allocation promise of the fast
// path (Outcomes, Apply, Rand) that searches and playouts stand on.
func TestPlayoutAllocatesNothing(t *testing.T) {
	start, _ := NewGame(Red, Blue, Yellow, Green)
	r := NewRand(3)
	rules := Rules{FlyJump: true}
	plies := 0
	allocs := testing.AllocsPerRun(20, func() {
		p := start
		plies += randomGame(&p, rules, &r)
	})
	if allocs != 0 {
		t.Errorf("a random game allocates %.1f times, want 0", allocs)
	}
	if plies == 0 {
		t.Fatal("no plies played")
	}
}
