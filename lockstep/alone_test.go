package lockstep

import (
	"errors"
	"testing"
)

// goOnAlone sets Config.GoOnAlone on the given peers (before start).
func goOnAlone(s *sim, idx ...int) {
	for _, i := range idx {
		s.peers[i].cfg.GoOnAlone = true
	}
}

// A player that stops for good in a 2-player game: the one left is asked
// (EventAloneDecision, State.Missing) and goes on by itself with
// GoOnAlone, or once it calls GoOn; a bot flies the seat, and the screen
// is told that the dice are one player's alone (State.SoloDice).
func TestSimAloneGoesOn(t *testing.T) {
	for _, tc := range []struct {
		name        string
		auto        bool
		goOnAfter   int
		wantDecided bool
	}{
		{"GoOnAlone", true, 0, true},
		{"GoOn called", false, 30, true},
		{"keeps waiting", false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= raceScale(10); seed++ {
				s := newSim(t, seed, 2, int(seed%3), simFaults{drop: 0.05, maxDelay: 2}, false)
				withAbsence(s, 20)
				if tc.auto {
					goOnAlone(s, 0)
				}
				s.peers[0].goOnAfter = tc.goOnAfter
				s.start()
				s.addAction(40+int(seed)*5, func(s *sim) { s.peers[1].down = true })
				s.maxTicks = 20000
				if !tc.wantDecided {
					s.maxTicks = 3000
				}
				lone := s.peers[0]
				s.run()
				if countEvents(lone, EventAloneDecision, nil) == 0 {
					t.Fatalf("seed %d: no alone-decision event%s", seed, s.describe())
				}
				if !tc.wantDecided {
					st := lone.node.state()
					missing := len(st.Missing) == 1 && st.Missing[0] == s.peers[1].id
					if g := &lone.node.g; g.phase == PhaseOver || countEvents(lone, EventAbsent, nil) != 0 || !missing {
						t.Fatalf("seed %d: the lone peer went on without deciding (phase %s), or State.Missing does not show it (%v)", seed, g.phase, st.Missing)
					}
					if err := lone.node.GoOn(); err != nil {
						t.Fatalf("seed %d: GoOn while asked: %v", seed, err)
					}
					s.drain()
					if countEvents(lone, EventAbsent, s.peers[1]) != 1 {
						t.Fatalf("seed %d: GoOn did not exclude the missing player", seed)
					}
					continue
				}
				s.check(true)
				if countEvents(lone, EventAbsent, s.peers[1]) != 1 || !lone.soloSeen {
					t.Fatalf("seed %d: absences %d, solo dice shown %v%s", seed, countEvents(lone, EventAbsent, s.peers[1]), lone.soloSeen, s.describe())
				}
				if err := lone.node.GoOn(); !errors.Is(err, ErrNoDecision) {
					t.Fatalf("GoOn after the game: %v", err)
				}
			}
		})
	}
}

// The gone player comes back: restored from its log, it learns it was
// excluded by the lone player's go-on, asks for its seat back and plays on;
// both finish on one history. Both with the lone player going on by
// itself and calling GoOn.
func TestSimAloneThenReturn(t *testing.T) {
	returned := 0
	games := 0
	for _, auto := range []bool{true, false} {
		for seed := uint64(1); seed <= raceScale(10); seed++ {
			games++
			s := newSim(t, seed, 2, 1, simFaults{drop: 0.05, maxDelay: 2}, false)
			withAbsence(s, 20)
			if auto {
				goOnAlone(s, 0, 1)
			} else {
				s.peers[0].goOnAfter, s.peers[1].goOnAfter = 10, 10
			}
			// The one left rolls by hand, so the game is still on when
			// the other is back (a bot-fast game would be over).
			s.setManual(0, 6)
			s.start()
			s.crash(40+int(seed)*3, 150, 1)
			s.run()
			s.check(true)
			if countEvents(s.peers[0], EventAbsent, s.peers[1]) != 1 {
				t.Fatalf("seed %d: the victim was not excluded once%s", seed, s.describe())
			}
			if countEvents(s.peers[0], EventReturned, s.peers[1]) == 1 {
				returned++
			}
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
	if returned < games*8/10 {
		t.Fatalf("the victim took its seat back in only %d of %d games", returned, games)
	}
}

// Two of four players vanish at once: the two left have no majority; after
// GoOn (one of them) both go on and finish on one history.
func TestSimAloneTwoOfFour(t *testing.T) {
	for seed := uint64(1); seed <= raceScale(10); seed++ {
		s := newSim(t, seed, 4, 0, simFaults{drop: 0.05, maxDelay: 2}, false)
		withAbsence(s, 20)
		a, b := int(seed)%4, (int(seed)+1)%4
		s.peers[(a+2)%4].goOnAfter = 15 // one of the two left decides
		s.start()
		s.addAction(40+int(seed)*5, func(s *sim) { s.peers[a].down, s.peers[b].down = true, true })
		s.run()
		s.check(true)
		for i, p := range s.peers {
			if i == a || i == b {
				continue
			}
			if countEvents(p, EventAloneDecision, nil) == 0 || countEvents(p, EventAbsent, nil) != 2 {
				t.Fatalf("seed %d: %s: %d decisions, %d absences%s", seed, short(p.id),
					countEvents(p, EventAloneDecision, nil), countEvents(p, EventAbsent, nil), s.describe())
			}
		}
	}
}

// Both halves of a split go on alone (GoOnAlone everywhere): 1-1, 2-2 and
// 1-2 (where the majority excludes the lone one). When the split heals,
// the complete votes settle the split step one way on every node: the
// other half rolls back (EventRolledBack), asks for its seats back, and
// every node finishes on one history; no divergence, no halt.
func TestSimAloneSplitMeets(t *testing.T) {
	for _, tc := range []struct {
		players int
		side    []int // the peers cut off from the others
	}{
		{2, []int{1}}, {2, []int{0}}, {4, []int{0, 1}}, {4, []int{1, 3}}, {3, []int{0}}, {3, []int{2}},
	} {
		for seed := uint64(1); seed <= raceScale(10); seed++ {
			s := newSim(t, seed, tc.players, 0, simFaults{drop: 0.02, maxDelay: 2}, false)
			withAbsence(s, 20)
			all := make([]int, tc.players)
			for i := range all {
				all[i] = i
			}
			goOnAlone(s, all...)
			s.start()
			at, dur := 40+int(seed)*3, 200+int(seed)*10
			s.minTicks = at + dur + 200 // the halves meet again, finished or not
			for _, i := range tc.side {
				for j := range s.peers {
					if !containsInt(tc.side, j) {
						s.partition(at, dur, i, j, false)
					}
				}
			}
			s.run()
			s.check(true)
			// One peer cut from the rest comes back through a return
			// request: what it signed on its undone branch is never read,
			// so no peer calls it a cheat and the others see no mismatch.
			// (It may itself, between two rollbacks; and two sides of two
			// that both went on still do: PROTOCOL.md, residuals.)
			if len(tc.side) == 1 {
				for i, p := range s.peers {
					n := countEvents(p, EventCheating, nil)
					if i != tc.side[0] {
						n += countEvents(p, EventStateMismatch, nil)
					}
					if n > 0 {
						t.Errorf("seed %d %v: %s saw %d mismatches or cheats of honest peers%s", seed, tc.side, short(p.id), n, s.describe())
					}
				}
			}
			rolledBack := 0
			for _, p := range s.peers {
				rolledBack += countEvents(p, EventRolledBack, nil)
			}
			if rolledBack == 0 {
				t.Logf("seed %d %v: the split healed with no rollback (one side finished first?)", seed, tc.side)
			}
		}
	}
}
