//go:build race

package lockstep

// raceOn: lockstep starts no goroutines, so the race detector finds nothing
// in the many-games simulation and only makes it ~15x slower; under -race
// the simulations play fewer games (TestSimFaults: unless -sim.games says
// otherwise; CI should also run TestSimFaults without -race for all 2,000).
const raceOn = true
