package lockstep

import (
	"flag"
	"testing"
)

var (
	simGames = flag.Int("sim.games", 2000, "number of seeded games TestSimFaults plays")
	simSeed  = flag.Uint64("sim.seed", 0, "replay only this seed in TestSimFaults (0: all)")
	simFrom  = flag.Uint64("sim.from", 1, "first seed TestSimFaults plays")
)

// faultySim draws a game and its faults from the seed alone, so a failing
// seed printed by check replays exactly with -sim.seed.
func faultySim(t testing.TB, seed uint64) *sim {
	s := newSim(t, seed, 0, 0, simFaults{}, false) // only to draw the shape
	r := s.rng
	players := 2 + r.IntN(3)
	bots := 0
	if players < 4 && r.IntN(3) == 0 {
		bots = 1 + r.IntN(4-players)
	}
	var f simFaults
	if r.IntN(4) != 0 { // a quarter of the games run without faults
		f.drop = float64(r.IntN(30)) / 100
		f.dup = float64(r.IntN(20)) / 100
		f.maxDelay = 1 + r.IntN(6)
		f.partitions = r.IntN(3)
		f.crashes = r.IntN(2)
	}
	absent := -1
	if r.IntN(3) == 0 { // a third of the games vote silent peers absent and take them back
		absent = 25 + r.IntN(30)
	}
	s = newSim(t, seed, players, bots, f, false)
	s.maxTicks = 40000 // fault-free games take under 1,000 ticks: a stuck one fails fast
	withAbsence(s, absent)
	for range f.partitions {
		at, dur := 1+r.IntN(300), 1+r.IntN(100)
		a := r.IntN(players)
		b := (a + 1 + r.IntN(players-1)) % players
		switch r.IntN(3) {
		case 0:
			s.isolate(at, dur, a)
		case 1:
			s.partition(at, dur, a, b, false)
		default:
			s.partition(at, dur, a, b, true) // partial: a's frames do not reach b
		}
	}
	for range f.crashes {
		s.crash(1+r.IntN(400), 1+r.IntN(60), r.IntN(players))
	}
	return s
}

func TestSimFaults(t *testing.T) {
	games := *simGames
	if raceOn && !flagSet("sim.games") {
		games = 30
	}
	first, last := *simFrom, *simFrom+uint64(games)-1
	if *simSeed != 0 {
		first, last = *simSeed, *simSeed
	}
	var ticks, frames, clean int
	for seed := first; seed <= last; seed++ {
		s := faultySim(t, seed)
		s.start()
		s.run()
		s.check(true)
		if seed%10 == 0 { // every tenth game: each peer's log verifies to the agreed history
			for _, p := range s.peers {
				recs, err := ParseLog(append(LogHeader(), EncodeRecords(p.log...)...))
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				v, err := verifyRecords(recs, fakeVerify)
				if err != nil || v.History != p.node.g.hist {
					t.Fatalf("seed %d: %s's log does not verify to its history: %v%s", seed, short(p.id), err, s.describe())
				}
			}
		}
		ticks += s.now
		frames += s.frames
		if !s.faults.any() {
			clean++
		}
	}
	t.Logf("%d games (%d without faults): %d ticks, %d frames", last-first+1, clean, ticks, frames)
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// raceScale is n, or a fifth of it under the race detector (lockstep has no
// goroutines: -race finds nothing here, it only slows the simulations).
func raceScale(n uint64) uint64 {
	if raceOn {
		return max(2, n/5)
	}
	return n
}
