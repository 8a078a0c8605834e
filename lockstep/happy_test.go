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
			s.watch(2)
			s.start()
			s.run()
			s.check(true)
			s.checkWatchers()
			p := s.peers[0]
			t.Logf("%d ticks, %d frames, rolls %d, ranking %v", s.now, s.frames, p.node.g.k, p.node.g.pos.Ranking())
		})
	}
}

// A seed replays exactly: same frames, same history, same final position.
func TestSimReplaysExactly(t *testing.T) {
	run := func() (*sim, [32]byte) {
		s := faultySim(t, 42)
		s.start()
		s.run()
		s.check(true)
		return s, s.peers[0].node.g.hist
	}
	a, ha := run()
	b, hb := run()
	if ha != hb || a.frames != b.frames || a.now != b.now {
		t.Fatalf("seed 42 replayed differently: %x/%d/%d vs %x/%d/%d", ha[:6], a.frames, a.now, hb[:6], b.frames, b.now)
	}
}

// Without AutoRoll a player's link for its own roll waits for Roll.
func TestSimManualRoll(t *testing.T) {
	s := newSim(t, 5, 3, 0, simFaults{maxDelay: 2}, false)
	for _, p := range s.peers {
		p.cfg.AutoRoll = false
	}
	s.start()
	s.run()
	s.check(true)
	if countEvents(s.peers[0], EventYourRoll, nil) == 0 {
		t.Fatal("no EventYourRoll without AutoRoll")
	}
}
