package lockstep

import (
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A node tells what the game waits for again whenever a screen may have
// lost it: restored from its log (its replay's events are dropped), and
// when a game paused together goes on. A hot seat's screen asks another
// person of its program for a roll from that event alone, so without it
// a game continued while it waited for that person's roll stood still
// (offline, 3 of 20 continued hot-seat games).
func TestWaitingToldAgain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pause bool
	}{{"restored after a crash", false}, {"paused together and continued", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, 3, 3, 1, simFaults{}, false)
			// Peer 1 is a person who, asked for a roll, waits until this
			// test says (nobody votes it absent meanwhile).
			s.setManual(1, 1<<30)
			mover := s.peers[1]
			for _, p := range s.peers {
				p.cfg.AbsentTicks, p.cfg.ChooseTicks = 1000, 1000
			}
			s.start()
			var k uint64
			told := map[int]int{} // peer -> its EventWaiting for k alone after the test's step
			var wait func(s *sim)
			wait = func(s *sim) {
				g := &s.peers[0].node.g
				if g.phase != PhaseReveal || g.k < 1 || g.awaiting() != 1<<1 {
					s.addAction(s.now+1, wait)
					return
				}
				k = g.k
				for i, p := range s.peers {
					told[i] = len(p.waits)
					if tc.pause {
						if err := p.node.Pause(); err != nil {
							t.Fatalf("Pause %d: %v", i, err)
						}
					} else {
						p.down = true
					}
				}
				if tc.pause {
					s.addAction(s.now+20, func(s *sim) {
						for i, p := range s.peers {
							if !p.node.state().Paused {
								t.Fatalf("peer %d is not paused", i)
							}
							if err := p.node.Continue(); err != nil {
								t.Fatalf("Continue %d: %v", i, err)
							}
						}
					})
				} else {
					s.addAction(s.now+5, func(s *sim) {
						for i := range s.peers {
							s.restore(i)
						}
					})
				}
				s.addAction(s.now+60, func(s *sim) {
					for i, p := range s.peers {
						if !slices.ContainsFunc(p.waits[told[i]:], func(e Event) bool {
							return e.Roll == k && slices.Equal(e.Peers, []peer.ID{mover.id})
						}) {
							t.Errorf("peer %d never said again that roll %d waits for %s alone (it said %v)", i, k, short(mover.id), p.waits[told[i]:])
						}
					}
					if err := mover.node.Roll(); err != nil {
						t.Fatalf("the mover's Roll: %v", err)
					}
					mover.rollDelay = 1
				})
			}
			s.addAction(2, wait)
			s.run()
			s.check(true)
		})
	}
}
