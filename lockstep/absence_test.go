package lockstep

import (
	"testing"
)

func withAbsence(s *sim, ticks int) {
	for _, p := range s.peers {
		p.cfg.AbsentTicks = ticks
		p.cfg.ChooseTicks = ticks // simulated players choose at once
	}
}

func countEvents(p *simPeer, kind EventKind, who *simPeer) int {
	n := 0
	for _, e := range p.events {
		if e.Kind == kind && (who == nil || e.Peer == who.id) {
			n++
		}
	}
	return n
}

// A peer that crashes for long is voted absent, a bot flies its seat, and
// after restarting from its log it catches up and takes its seat back; all
// finish with one history.
func TestSimAbsentAndReturn(t *testing.T) {
	returned := 0
	for seed := uint64(1); seed <= raceScale(20); seed++ {
		// With 2 players the one left plays the bot at full speed and
		// finishes before the victim is back; TestSimAbsentForGood covers it.
		players := 3 + int(seed%2)
		s := newSim(t, seed, players, 0, simFaults{}, false)
		withAbsence(s, 20)
		s.start()
		victim := s.peers[int(seed)%players]
		s.crash(30+int(seed%5)*7, 60, s.index(victim.id))
		s.run()
		s.check(true)
		// Every peer's log, the victim's too (with its rolled-back steps),
		// verifies to the one agreed history.
		for _, p := range s.peers {
			recs, err := ParseLog(append(LogHeader(), EncodeRecords(p.log...)...))
			if err != nil {
				t.Fatal(err)
			}
			v, err := verifyRecords(recs, fakeVerify)
			if err != nil || v.Phase != PhaseOver || v.History != p.node.g.hist {
				t.Fatalf("seed %d: %s's log: %v (phase %v)", seed, short(p.id), err, v)
			}
		}
		for _, p := range s.peers {
			if p == victim {
				continue
			}
			if countEvents(p, EventAbsent, victim) != 1 || countEvents(p, EventReturned, victim) > 1 {
				t.Fatalf("seed %d: %s saw %d absences and %d returns of %s%s", seed, short(p.id),
					countEvents(p, EventAbsent, victim), countEvents(p, EventReturned, victim), short(victim.id), s.describe())
			}
		}
		if countEvents(s.peers[(s.index(victim.id)+1)%players], EventReturned, victim) == 1 {
			returned++
		} else {
			ret := 0
			for _, m := range victim.node.players[victim.node.self].msgs {
				if m.kind == kindReturn {
					ret++
				}
			}
			t.Logf("seed %d (%d players): no return; game over at tick %d, roll %d; %d requests", seed, players, s.now, victim.node.g.k, ret)
		}
	}
	// A game can end before the victim is back; most must see it return.
	if games := int(raceScale(20)); returned < games*9/10 {
		t.Fatalf("the victim took its seat back in only %d of %d games", returned, games)
	}
	t.Logf("the victim took its seat back in %d games", returned)
}

// A peer that never comes back: the others finish the game with a bot in
// its seat. In a 2-player game the one left cannot be a majority: it does
// not exclude the other by itself, it asks its player (EventAloneDecision)
// and waits; with GoOnAlone it goes on and finishes (TestSimAloneGoesOn
// has the rest).
func TestSimAbsentForGood(t *testing.T) {
	for _, auto := range []bool{false, true} {
		s := newSim(t, 1, 2, 1, simFaults{}, false)
		withAbsence(s, 20)
		s.peers[0].cfg.GoOnAlone = auto
		s.start()
		s.addAction(40, func(s *sim) { s.peers[1].down = true })
		s.maxTicks = 2000
		s.run()
		g := &s.peers[0].node.g
		if countEvents(s.peers[0], EventAloneDecision, s.peers[1]) != 0 || countEvents(s.peers[0], EventAloneDecision, nil) != 1 {
			t.Fatalf("GoOnAlone %v: the lone peer was asked %d times", auto, countEvents(s.peers[0], EventAloneDecision, nil))
		}
		if went := g.phase == PhaseOver && countEvents(s.peers[0], EventAbsent, s.peers[1]) == 1; went != auto {
			t.Fatalf("GoOnAlone %v: the lone peer of a 2-player game went on: %v (phase %s)", auto, went, g.phase)
		}
	}
	for seed := uint64(1); seed <= raceScale(10); seed++ {
		players := 3 + int(seed%2)
		s := newSim(t, seed, players, 0, simFaults{drop: 0.05, maxDelay: 3}, false)
		withAbsence(s, 20)
		s.start()
		victim := s.peers[int(seed)%players]
		s.addAction(40, func(s *sim) { victim.down = true })
		s.run()
		s.check(true)
	}
}

// A partition that outlasts the absence timeout on one side only: safety
// holds (one history) and the game still finishes.
func TestSimAbsencePartitions(t *testing.T) {
	for seed := uint64(1); seed <= raceScale(40); seed++ {
		players := 3 + int(seed%2)
		s := newSim(t, seed, players, 0, simFaults{drop: 0.05, maxDelay: 2}, false)
		withAbsence(s, 15)
		s.start()
		a := int(seed) % players
		s.isolate(50+int(seed), 60+int(seed%5)*20, a)
		s.partition(200, 40, (a+1)%players, (a+2)%players, true)
		s.run()
		s.check(true)
	}
}
