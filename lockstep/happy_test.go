package lockstep

import "testing"

func TestSimHappyPath(t *testing.T) {
	for _, tc := range []struct {
		name          string
		players, bots int
		real          bool
	}{
		{"2p", 2, 0, true}, {"3p", 3, 0, true}, {"4p", 4, 0, true}, {"2p+2bots", 2, 2, true}, {"1p+1bot", 1, 1, true}, {"4p-fake", 4, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, 1, tc.players, tc.bots, simFaults{}, tc.real)
			s.start()
			s.run()
			s.check(true)
			p := s.peers[0]
			t.Logf("%d ticks, %d frames, rolls %d, ranking %v", s.now, s.frames, p.node.g.k, p.node.g.pos.Ranking())
		})
	}
}
