package lockstep

import (
	"errors"
	"testing"
)

// leaveAt has peer p call Leave at the first tick from at where the game
// is in play, and records the tick.
func leaveAt(t *testing.T, s *sim, p *simPeer, at int, tick *int) {
	var try func(s *sim)
	try = func(s *sim) {
		if ph := p.node.g.phase; ph != PhaseReveal && ph != PhaseMove || p.node.g.k < 3 {
			s.addAction(s.now+1, try)
			return
		}
		if err := p.node.Leave(); err != nil {
			t.Fatalf("seed %d: Leave: %v", s.seed, err)
		}
		*tick = s.now
	}
	s.addAction(at, try)
}

// A player that leaves hands its seat to its bot at once: in 2-, 3- and
// 4-player games the others finish with a bot in the seat, on one history
// (the leaver's node, which lingers, too), with no absence vote (nobody
// votes: AbsentTicks is off) and within a few ticks of the Leave.
func TestSimLeave(t *testing.T) {
	worst := map[bool]int{} // by faults: the most ticks from Leave to a peer's EventLeft
	defer func() {
		t.Logf("ticks from Leave to EventLeft, at most: %d without faults, %d with drops", worst[false], worst[true])
	}()
	for _, tc := range []struct {
		players int
		faults  simFaults
	}{
		{2, simFaults{}}, {3, simFaults{}}, {4, simFaults{}},
		{2, simFaults{drop: 0.1, maxDelay: 3}}, {3, simFaults{drop: 0.1, dup: 0.1, maxDelay: 3}}, {4, simFaults{drop: 0.1, maxDelay: 3}},
	} {
		for seed := uint64(1); seed <= raceScale(10); seed++ {
			s := newSim(t, seed, tc.players, 0, tc.faults, false)
			leaver := s.peers[int(seed)%tc.players]
			if seed%2 == 0 {
				s.setManual(s.index(leaver.id), 2) // its reveals wait for its key
			}
			s.start()
			left := 0
			leaveAt(t, s, leaver, 20+int(seed)*7, &left)
			s.run()
			s.check(true)
			if left == 0 {
				t.Fatalf("seed %d: the leaver never left", seed)
			}
			for _, p := range s.peers {
				if countEvents(p, EventAbsent, nil) != 0 {
					t.Fatalf("seed %d: %s saw an absence", seed, short(p.id))
				}
				at := -1
				for j, e := range p.events {
					if e.Kind == EventLeft && e.Peer == leaver.id && e.Colour == leaver.node.players[leaver.node.self].colour {
						at = p.at[j]
					}
				}
				// A leave takes effect as soon as the message and the
				// leaver's earlier messages are in: a few ticks, re-sends
				// under drops included (ResendTicks 3), never an absence wait.
				worst[tc.faults.any()] = max(worst[tc.faults.any()], at-left)
				if limit := left + 40; at < 0 || at > limit {
					t.Fatalf("seed %d (%d players): %s saw the leave at tick %d, the leave was at %d%s", seed, tc.players, short(p.id), at, left, s.describe())
				}
			}
			if !leaver.node.LeaveDelivered() {
				t.Fatalf("seed %d: the leaver does not know its Leave was delivered", seed)
			}
			if err := leaver.node.Roll(); !errors.Is(err, ErrLeft) {
				t.Fatalf("Roll after Leave: %v", err)
			}
			if err := leaver.node.Leave(); !errors.Is(err, ErrLeft) {
				t.Fatalf("a second Leave: %v", err)
			}
			// Every log verifies to the agreed history.
			for _, p := range s.peers {
				recs, err := ParseLog(append(LogHeader(), EncodeRecords(p.log...)...))
				if err != nil {
					t.Fatal(err)
				}
				v, err := verifyRecords(recs, fakeVerify)
				if err != nil || v.Phase != PhaseOver || v.History != p.node.g.hist {
					t.Fatalf("seed %d: %s's log: %v", seed, short(p.id), err)
				}
			}
		}
	}
}

// A leaver restored from its log signs nothing more: it never asks for its
// seat back.
func TestSimLeaveThenRestore(t *testing.T) {
	s := newSim(t, 3, 3, 0, simFaults{}, false)
	withAbsence(s, 20)
	s.start()
	leaver := s.peers[1]
	left := 0
	leaveAt(t, s, leaver, 30, &left)
	s.crash(60, 30, 1)
	s.run()
	s.check(true)
	for _, m := range leaver.node.players[leaver.node.self].msgs {
		if m.kind == kindReturn {
			t.Fatal("the leaver asked for its seat back after a restore")
		}
	}
}

// The threats of leaving: each bad leave is named and changes nothing (the
// cheater then plays on honestly and the game ends as the clean one); a
// second leave or a return after a valid leave is named and the game ends
// as with the one honest leave.
func TestThreatLeave(t *testing.T) {
	clean := cleanHistory(t)
	// The same game with the cheater leaving honestly at the same point.
	leftHistory := func(t *testing.T) [32]byte {
		s, _ := threatRig(t, false, func(s *sim, c *simPeer) {
			if err := c.node.Leave(); err != nil {
				t.Fatal(err)
			}
			s.drain()
		})
		s.check(true)
		return s.peers[0].node.g.hist
	}(t)
	for _, tc := range []struct {
		name     string
		cheat    Cheat
		leaves   bool // the cheater leaves validly first
		setup    func(s *sim, c *simPeer)
		wantHist [32]byte
	}{
		{"leave for another's seat", CheatWrongSeat, false, func(s *sim, c *simPeer) {
			other := s.peers[0].node.players[s.peers[0].node.self].colour
			inject(t, s, c, &message{kind: kindLeave, colour: other, k: c.node.players[c.node.self].revealedTo})
		}, clean},
		{"leave from a roll already revealed", CheatBadLeave, false, func(s *sim, c *simPeer) {
			me := c.node.players[c.node.self]
			inject(t, s, c, &message{kind: kindLeave, colour: me.colour, k: me.revealedTo - 1})
		}, clean},
		{"leave from a later roll", CheatBadLeave, false, func(s *sim, c *simPeer) {
			me := c.node.players[c.node.self]
			inject(t, s, c, &message{kind: kindLeave, colour: me.colour, k: me.revealedTo + 5})
		}, clean},
		{"second leave", CheatBadLeave, true, func(s *sim, c *simPeer) {
			me := c.node.players[c.node.self]
			signAfterLeave(t, s, c, &message{kind: kindLeave, colour: me.colour, k: me.revealedTo})
		}, leftHistory},
		{"return after leaving", CheatBadLeave, true, func(s *sim, c *simPeer) {
			signAfterLeave(t, s, c, &message{kind: kindReturn, step: c.node.g.k + 4})
		}, leftHistory},
		{"reveal after leaving", CheatBadLeave, true, func(s *sim, c *simPeer) {
			g := &c.node.g
			link, _, _ := c.node.myLink(c.node.players[c.node.self].revealedTo)
			signAfterLeave(t, s, c, &message{kind: kindReveal, k: c.node.players[c.node.self].revealedTo, link: link, state: g.hist})
		}, leftHistory},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := threatRig(t, true, func(s *sim, c *simPeer) {
				if tc.leaves {
					if err := c.node.Leave(); err != nil {
						t.Fatal(err)
					}
					s.drain()
				}
				tc.setup(s, c)
			})
			assertCaught(t, s, c, EventCheating, tc.cheat)
			assertUnchanged(t, s, tc.wantHist)
		})
	}
	t.Run("forged leave", func(t *testing.T) {
		s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
		s.start()
		a, b, c := s.peers[0], s.peers[1], s.peers[2]
		m := &message{kind: kindLeave, game: a.node.gid, from: a.id, seq: 2, colour: a.node.players[a.node.self].colour}
		m.seal(func([]byte) ([]byte, error) { return make([]byte, 64), nil })
		if err := b.node.Step(c.id, m.raw); err == nil {
			t.Fatal("a forged leave was accepted")
		}
		found := false
		for _, e := range b.node.Ready().Events {
			found = found || e.Kind == EventCheating && e.Cheat == CheatBadSignature && e.Peer == c.id
		}
		if !found || b.node.players[b.node.pidx[a.id]].leaving {
			t.Fatalf("the forged leave: relayer named %v, leaving %v", found, b.node.players[b.node.pidx[a.id]].leaving)
		}
	})
}

// signAfterLeave signs m as the next message of a player that left,
// which an honest node never does (its maySign is false for good).
func signAfterLeave(t *testing.T, s *sim, p *simPeer, m *message) {
	t.Helper()
	n := p.node
	m.game, m.from, m.seq, m.prev = n.gid, n.cfg.Self, n.mySeq+1, n.myPrev
	if err := m.seal(n.cfg.Key.Sign); err != nil {
		t.Fatal(err)
	}
	if err := n.accept(n.cfg.Self, n.players[n.self], m); err != nil {
		t.Fatal(err)
	}
	n.progress()
	s.drain()
}
