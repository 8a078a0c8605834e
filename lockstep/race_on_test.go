//go:build race

package lockstep

// raceOn: lockstep starts no goroutines, so the race detector finds nothing
// in the many-games simulation and only makes it ~15x slower; under -race
// TestSimFaults plays fewer games unless -sim.games says otherwise.
const raceOn = true
