package lockstep

import (
	"errors"
	"path/filepath"
	"testing"

	"aeroplane/internal/testkit"
)

// pauseAt has peer p call Pause at the first tick from at where the game
// is in play at roll roll or later.
func pauseAt(t *testing.T, s *sim, p *simPeer, at int, roll uint64) {
	var try func(s *sim)
	try = func(s *sim) {
		if p.down {
			return
		}
		if ph := p.node.g.phase; ph != PhaseReveal && ph != PhaseMove || p.node.g.k < roll {
			s.addAction(s.now+1, try)
			return
		}
		if err := p.node.Pause(); err != nil {
			t.Fatalf("seed %d: Pause: %v", s.seed, err)
		}
	}
	s.addAction(at, try)
}

// continueWhenRecovered has peer p call Continue at the first tick from
// at where its restored node signs again.
func continueWhenRecovered(t *testing.T, s *sim, p *simPeer, at int) {
	var try func(s *sim)
	try = func(s *sim) {
		if p.down || p.node.rec != nil {
			s.addAction(s.now+1, try)
			return
		}
		if err := p.node.Continue(); err != nil {
			t.Fatalf("seed %d: Continue: %v", s.seed, err)
		}
	}
	s.addAction(at, try)
}

// absenceVotes counts the absence votes peer p holds from anyone.
func absenceVotes(p *simPeer) int {
	k := 0
	for _, q := range p.node.players {
		for _, m := range q.msgs {
			if m.kind == kindAbsent && (m.vote == voteAbsent || m.vote == voteGoOn) {
				k++
			}
		}
	}
	return k
}

const pauseAbsentTicks = 30

// Every player pauses at roll 30: every node reports the game paused
// (EventPaused once, State.Paused), nobody votes anyone absent for ten
// absence waits, all programs stop; each is restored from its own log,
// stays paused, continues, and the game finishes with one history.
func TestSimPauseTogether(t *testing.T) {
	for _, tc := range []struct {
		players int
		faults  simFaults
	}{
		{2, simFaults{}}, {3, simFaults{}}, {4, simFaults{}},
		{3, simFaults{drop: 0.1, dup: 0.1, maxDelay: 3}}, {4, simFaults{drop: 0.1, maxDelay: 3}},
	} {
		for seed := uint64(1); seed <= raceScale(6); seed++ {
			s := newSim(t, seed, tc.players, 4-tc.players, tc.faults, false)
			for i := range s.peers {
				s.peers[i].cfg.AbsentTicks = pauseAbsentTicks
			}
			if seed%2 == 0 {
				s.setManual(int(seed)%tc.players, 2)
			}
			s.start()
			for i, p := range s.peers {
				pauseAt(t, s, p, 5+i*3, 30)
			}
			pausedAt := 0
			var watch func(s *sim)
			watch = func(s *sim) {
				for _, p := range s.peers {
					if !p.node.state().Paused {
						s.addAction(s.now+1, watch)
						return
					}
				}
				pausedAt = s.now
				s.addAction(s.now+10*pauseAbsentTicks, func(s *sim) {
					for i, p := range s.peers {
						st := p.node.state()
						if !st.Paused || countEvents(p, EventPaused, nil) != 1 || countEvents(p, EventAbsent, nil) != 0 || absenceVotes(p) != 0 {
							t.Fatalf("seed %d: %s after ten absence waits paused: paused=%v EventPaused×%d EventAbsent×%d votes %d%s", seed, short(p.id),
								st.Paused, countEvents(p, EventPaused, nil), countEvents(p, EventAbsent, nil), absenceVotes(p), s.describe())
						}
						if err := p.node.Roll(); !errors.Is(err, ErrPaused) {
							t.Fatalf("seed %d: Roll while paused: %v", seed, err)
						}
						v, err := verifyRecords(p.log, fakeVerify)
						if err != nil || !v.Paused || v.PausedAt != st.Roll || v.Phase == PhaseOver {
							t.Fatalf("seed %d: verifying %s's paused log: %v (paused %v at %d, want at %d)", seed, short(p.id), err, v != nil && v.Paused, v.PausedAt, st.Roll)
						}
						p.down = true // every program stops
						s.addAction(s.now+5, func(s *sim) {
							s.restore(i)
							if !p.node.paused() || p.node.PausedFrom() == 0 {
								t.Fatalf("seed %d: %s restored from its log is not paused", seed, short(p.id))
							}
						})
						continueWhenRecovered(t, s, p, s.now+6+i*7)
					}
				})
			}
			s.addAction(6, watch)
			s.run()
			s.check(true)
			if pausedAt == 0 {
				t.Fatalf("seed %d: the game never paused", seed)
			}
			for _, p := range s.peers {
				if countEvents(p, EventAbsent, nil) != 0 {
					t.Fatalf("seed %d (%d players, %+v): %s saw an absence (paused at %d)%s", seed, tc.players, tc.faults, short(p.id), pausedAt, s.describe())
				}
			}
		}
	}
}

// One player pausing alone is just absent: the others vote it absent
// (after the long wait of a person being asked) and play on with a bot
// in its seat; its node votes nobody meanwhile. Then it takes the pause
// back (Continue): it asks for its seat, is readmitted, and all finish
// on one history.
func TestSimPauseAlone(t *testing.T) {
	for seed := uint64(1); seed <= raceScale(6); seed++ {
		s := newSim(t, seed, 3, 1, simFaults{}, false)
		for i := range s.peers {
			s.peers[i].cfg.AbsentTicks = pauseAbsentTicks
		}
		s.start()
		pauser := s.peers[int(seed)%3]
		pauseAt(t, s, pauser, 10, 30)
		var lift func(s *sim)
		lift = func(s *sim) {
			other := s.peers[(s.index(pauser.id)+1)%3]
			if countEvents(other, EventAbsent, pauser) == 0 {
				s.addAction(s.now+1, lift)
				return
			}
			for _, m := range pauser.node.players[pauser.node.self].msgs {
				if m.kind == kindAbsent {
					t.Fatalf("seed %d: the paused player voted (%+v)", seed, m.vote)
				}
			}
			if err := pauser.node.Continue(); err != nil {
				t.Fatalf("seed %d: Continue: %v", seed, err)
			}
		}
		s.addAction(20, lift)
		s.run()
		s.check(true)
		for _, p := range s.peers {
			if p == pauser {
				continue
			}
			if countEvents(p, EventAbsent, pauser) == 0 || countEvents(p, EventPaused, nil) != 0 || countEvents(p, EventPauseAsked, pauser) != 1 ||
				countEvents(p, EventPauseLifted, pauser) != 1 || countEvents(p, EventReturned, pauser) == 0 {
				t.Fatalf("seed %d: %s: absent×%d paused×%d asked×%d lifted×%d returned×%d, want the pauser voted absent, asked and lifted once, back, never paused%s", seed, short(p.id),
					countEvents(p, EventAbsent, pauser), countEvents(p, EventPaused, nil), countEvents(p, EventPauseAsked, pauser),
					countEvents(p, EventPauseLifted, pauser), countEvents(p, EventReturned, pauser), s.describe())
			}
		}
		if err := pauser.node.Pause(); err == nil {
			t.Fatalf("seed %d: Pause after the game ended succeeded", seed)
		}
	}
}

// The intents' errors: Continue without a pause, Pause twice, Pause
// before the game started and by an observer.
func TestPauseIntents(t *testing.T) {
	s := newSim(t, 1, 2, 0, simFaults{}, false)
	s.start()
	p := s.peers[0]
	if err := p.node.Pause(); err == nil {
		t.Fatal("Pause before the game started succeeded")
	}
	if err := p.node.Continue(); !errors.Is(err, ErrNotPaused) {
		t.Fatalf("Continue without a pause: %v", err)
	}
	obs, err := newNode(Config{Setup: p.cfg.Setup, verify: fakeVerify})
	if err != nil {
		t.Fatal(err)
	}
	if err := obs.Pause(); !errors.Is(err, errObserver) {
		t.Fatalf("observer Pause: %v", err)
	}
	s.maxTicks = 40
	s.run()
	if err := p.node.Pause(); err != nil {
		t.Fatalf("Pause in play: %v", err)
	}
	if err := p.node.Pause(); !errors.Is(err, ErrPaused) {
		t.Fatalf("a second Pause: %v", err)
	}
	if err := p.node.Continue(); err != nil {
		t.Fatalf("Continue: %v", err)
	}
	if err := p.node.Continue(); !errors.Is(err, ErrNotPaused) {
		t.Fatalf("a second Continue: %v", err)
	}
}

// A paused player that signs what a pause forbids, or a pause that is
// not at its first unrevealed roll, is named bad-message by every honest
// peer and changes nothing.
func TestThreatPause(t *testing.T) {
	clean := cleanHistory(t)
	for _, tc := range []struct {
		name  string
		pause bool // the cheater pauses validly first, and lifts it after
		setup func(s *sim, c *simPeer)
	}{
		{"pause from a later roll", false, func(s *sim, c *simPeer) {
			inject(t, s, c, &message{kind: kindPause, k: c.node.players[c.node.self].revealedTo + 5})
		}},
		{"pause from a roll already revealed", false, func(s *sim, c *simPeer) {
			inject(t, s, c, &message{kind: kindPause, k: c.node.players[c.node.self].revealedTo - 1})
		}},
		{"continue without a pause", false, func(s *sim, c *simPeer) {
			inject(t, s, c, &message{kind: kindPause, k: 0})
		}},
		{"second pause", true, func(s *sim, c *simPeer) {
			signAfterLeave(t, s, c, &message{kind: kindPause, k: c.node.players[c.node.self].revealedTo})
		}},
		{"reveal while paused", true, func(s *sim, c *simPeer) {
			k := c.node.players[c.node.self].revealedTo
			link, _, _ := c.node.myLink(k)
			signAfterLeave(t, s, c, &message{kind: kindReveal, k: k, link: link, state: c.node.g.hist})
		}},
		{"absence vote while paused", true, func(s *sim, c *simPeer) {
			signAfterLeave(t, s, c, &message{kind: kindAbsent, who: s.peers[0].id, step: c.node.g.step(), vote: voteAbsent})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := threatRig(t, true, func(s *sim, c *simPeer) {
				if tc.pause {
					if err := c.node.Pause(); err != nil {
						t.Fatal(err)
					}
					s.drain()
				}
				tc.setup(s, c)
				if tc.pause {
					if err := c.node.Continue(); err != nil {
						t.Fatal(err)
					}
					s.drain()
				}
			})
			assertCaught(t, s, c, EventCheating, CheatBadMessage)
			assertUnchanged(t, s, clean)
		})
	}
}

// TestVerifyPausedLog: the log of a game its two players paused at roll
// 30 verifies, with real Ed25519 keys, as unfinished and paused at the
// roll every node stopped at; pause.log pins the format of a pause and
// its log (aeroplane verify's tests read it).
func TestVerifyPausedLog(t *testing.T) {
	s := newSim(t, 3, 2, 1, simFaults{}, true)
	s.start()
	for _, p := range s.peers {
		pauseAt(t, s, p, 5, 30)
	}
	var watch func(s *sim)
	watch = func(s *sim) {
		for _, p := range s.peers {
			if !p.node.state().Paused {
				s.addAction(s.now+1, watch)
				return
			}
		}
		s.maxTicks = s.now + 20 // a while paused, then every program stops
	}
	s.addAction(6, watch)
	s.run()
	p := s.peers[0]
	data := append(LogHeader(), EncodeRecords(p.log...)...)
	testkit.Golden(t, filepath.Join("testdata", "pause.log"), data)
	v, err := Verify(data)
	if err != nil || !v.Paused || v.PausedAt != p.node.g.k || v.PausedAt < 30 || v.Phase == PhaseOver {
		t.Fatalf("the paused log: %v, paused %v at %d (the node at %d)", err, v != nil && v.Paused, v.PausedAt, p.node.g.k)
	}
	if v.History != p.node.g.hist {
		t.Fatalf("verified history %x, the node's %x", v.History[:6], p.node.g.hist[:6])
	}
}
