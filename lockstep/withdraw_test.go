package lockstep

import "testing"

// Games of four with a program holding two seats whose absence votes
// once crossed two against two and waited for ever (seed 276: every
// reveal had arrived everywhere, each side's votes blocked the other's
// reveal, none could carry or be voided): the voters holding the reveal
// they voted missing withdraw their votes, and the game finishes on one
// history, to which every seat's log, withdrawals and all, verifies.
func TestSimHotSeatCrossedVotesWithdrawn(t *testing.T) {
	for _, seed := range []uint64{276} {
		s := hotSeatSim(t, seed)
		s.start()
		s.run()
		if !s.done() {
			t.Fatalf("seed %d: the game did not finish in %d ticks", seed, s.now)
		}
		s.check(true)
		withdrawals := 0
		for _, p := range s.peers {
			v, err := verifyRecords(p.log, fakeVerify)
			if err != nil || v.Phase != PhaseOver || v.History != p.node.g.hist {
				t.Fatalf("seed %d: %s's log: %v", seed, short(p.id), err)
			}
			for _, m := range p.node.players[p.node.self].msgs {
				if m.kind == kindAbsent && m.vote == voteWithdraw {
					withdrawals++
				}
			}
		}
		if withdrawals == 0 {
			t.Errorf("seed %d finished with no vote withdrawn: the crossing it reproduces is gone", seed)
		}
		t.Logf("seed %d: %d votes withdrawn, %d ticks", seed, withdrawals, s.now)
	}
}

// A withdrawal of an absence vote its sender never cast is named and
// changes nothing; one of a vote it did cast (below, while the others
// play on) is no cheat.
func TestThreatWithdraw(t *testing.T) {
	clean := cleanHistory(t)
	s, c := threatRig(t, true, func(s *sim, c *simPeer) {
		inject(t, s, c, &message{kind: kindAbsent, who: s.peers[0].id, step: c.node.g.step(), vote: voteWithdraw})
	})
	assertCaught(t, s, c, EventCheating, CheatBadMessage)
	assertUnchanged(t, s, clean)
}

// Three players: one dies for good while another is cut off from the
// third, which goes on alone (GoOnAlone) and may finish; when the cut
// heals, the two that are left vote the dead one out and finish on one
// history. Before withdrawals, 3 of these 10 seeds waited for ever with
// every input held (4 with both going on alone): the rolled-back player
// blocked the other's reveal with its own vote, and the cut-off one its
// move the same way, while its lone question stood unanswered.
func TestSimAloneDeadAndCut(t *testing.T) {
	for _, alone := range [][]int{{1}, {1, 2}} {
		for seed := uint64(1); seed <= raceScale(10); seed++ {
			s := newSim(t, seed, 3, 0, simFaults{drop: 0.02, maxDelay: 2}, false)
			withAbsence(s, 20)
			goOnAlone(s, alone...)
			s.start()
			at, dur := 40+int(seed)*3, 200+int(seed)*10
			s.addAction(at, func(s *sim) { s.peers[0].down = true })
			s.partition(at, dur, 2, 1, false)
			s.maxTicks = 20000
			s.run()
			a, b := &s.peers[1].node.g, &s.peers[2].node.g
			if a.phase != PhaseOver || b.phase != PhaseOver || a.hist != b.hist {
				t.Errorf("going on alone %v, seed %d: the two left end %s at roll %d and %s at roll %d (one history: %v)", alone, seed, a.phase, a.k, b.phase, b.k, a.hist == b.hist)
			}
		}
	}
}
