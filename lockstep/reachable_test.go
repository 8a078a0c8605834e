package lockstep

import "testing"

// A player that goes silent while it is to choose a move is waited for the
// long ChooseTicks (a person thinking) unless the driver reports its
// connection down; then the short AbsentTicks applies, it is voted absent
// and the others finish with a bot in its seat.
func TestReachableShortensTheWaitForAChoice(t *testing.T) {
	for _, reported := range []bool{false, true} {
		s := newSim(t, 7, 3, 0, simFaults{}, false)
		for _, p := range s.peers {
			p.cfg.AbsentTicks = 20
			p.cfg.ChooseTicks = 1 << 30 // a person may think for ever
		}
		s.maxTicks = 20000
		s.start()
		victim := s.peers[1]
		victim.onMove = func(s *sim, p *simPeer, e Event) {
			p.down = true // its lid closes while it is to choose
			if reported {
				s.reportDown(p)
			}
		}
		s.run()
		for _, p := range s.peers {
			if p == victim {
				continue
			}
			absent := countEvents(p, EventAbsent, victim)
			switch {
			case reported && (absent != 1 || p.node.g.phase != PhaseOver):
				t.Fatalf("connection reported down: %s saw %d absences of the chooser, phase %v; want 1 and the game over", short(p.id), absent, p.node.g.phase)
			case !reported && absent != 0:
				t.Fatalf("connection not reported: %s voted the thinking chooser absent (%d) before ChooseTicks", short(p.id), absent)
			}
		}
	}
}

// reportDown has every other peer's driver say its connection to p is
// down (Node.Reachable).
func (s *sim) reportDown(p *simPeer) {
	for _, q := range s.peers {
		if q != p {
			q.node.Reachable(p.id, false)
		}
	}
}

// A person to roll (AutoRoll off) holds back its own reveal until it
// presses the key, like a person choosing a move: the others wait the long
// ChooseTicks for it, not AbsentTicks, while its connection is up. At the
// table a player looking away for a few seconds must not lose its seat to
// a bot; one whose connection is reported down still does.
func TestReachableSlowRollerIsWaitedFor(t *testing.T) {
	for seed := uint64(1); seed <= raceScale(4); seed++ {
		s := newSim(t, seed, 3, 1, simFaults{}, false)
		for _, p := range s.peers {
			p.cfg.AbsentTicks = 20
			p.cfg.ChooseTicks = 1 << 30
		}
		slow := s.peers[int(seed)%3]
		s.setManual(s.index(slow.id), 200) // up to ten times AbsentTicks
		s.start()
		s.run()
		s.check(true)
		for _, p := range s.peers {
			if n := countEvents(p, EventAbsent, slow); n != 0 {
				t.Fatalf("seed %d: %s voted the slow roller absent %d times", seed, short(p.id), n)
			}
		}
		if len(slow.rolled) == 0 {
			t.Fatalf("seed %d: the slow roller never rolled", seed)
		}
	}

	// Its connection reported down, the same player is voted absent after
	// AbsentTicks and the game ends with a bot in its seat.
	s := newSim(t, 9, 3, 1, simFaults{}, false)
	for _, p := range s.peers {
		p.cfg.AbsentTicks = 20
		p.cfg.ChooseTicks = 1 << 30
	}
	gone := s.peers[1]
	s.setManual(1, 1<<30) // never rolls
	s.maxTicks = 50000
	s.start()
	s.reportDown(gone)
	s.run()
	for _, p := range s.peers {
		if p == gone {
			continue
		}
		if n := countEvents(p, EventAbsent, gone); n == 0 || p.node.g.phase != PhaseOver {
			t.Fatalf("connection reported down: %s saw %d absences of the roller, phase %v; want some and the game over", short(p.id), n, p.node.g.phase)
		}
	}
}
