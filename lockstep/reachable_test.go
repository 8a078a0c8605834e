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
				for _, q := range s.peers {
					if q != p {
						q.node.Reachable(p.id, false)
					}
				}
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
