package lockstep

import (
	"testing"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The threat tests put one cheating peer (real Ed25519 keys) into a
// simulated 3-player game. Each asserts that the honest peers name the
// culprit with the right kind and that, where the cheater then goes on
// honestly, the honest peers finish with exactly the history of the same
// seed played without the cheat: the bad input changed nothing.

const threatSeed = 7

func cleanHistory(t *testing.T) [32]byte {
	t.Helper()
	s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
	s.start()
	s.run()
	s.check(true)
	return s.peers[0].node.g.hist
}

// inject has the cheater sign and send msg as its next message (a valid
// signature, a valid hash link), then resume honest play.
func inject(t *testing.T, s *sim, p *simPeer, m *message) {
	t.Helper()
	n := p.node
	saved := n.g.myRevealed
	if err := n.newMessage(m); err != nil {
		t.Fatal(err)
	}
	n.g.myRevealed = saved
	n.progress()
	s.drain()
}

// when runs do once, at the first tick where cond holds for the cheater.
func when(s *sim, p *simPeer, cond func(g *game) bool, do func()) {
	var try func(s *sim)
	try = func(s *sim) {
		if cond(&p.node.g) {
			do()
			return
		}
		s.addAction(s.now+1, try)
	}
	s.addAction(20, try)
}

// inPlayPast5 holds at a move past roll 5: the point where the leave and
// pause threats act.
func inPlayPast5(g *game) bool { return g.phase == PhaseMove && g.k > 5 }

// threatRig plays the threat game with peers[1] as the cheater, which
// is marked a cheater when cheater is set, and runs act once it is in play
// past roll 5; it returns the sim, run to its end, and the cheater.
func threatRig(t *testing.T, cheater bool, act func(s *sim, c *simPeer)) (*sim, *simPeer) {
	t.Helper()
	s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
	c := s.peers[1]
	c.cheater = cheater
	s.start()
	when(s, c, inPlayPast5, func() { act(s, c) })
	s.run()
	return s, c
}

func assertCaught(t *testing.T, s *sim, cheater *simPeer, kind EventKind, cheat Cheat) {
	t.Helper()
	for _, p := range s.peers {
		if p == cheater {
			continue
		}
		found := false
		for _, e := range p.events {
			if e.Kind == kind && e.Peer == cheater.id && (kind != EventCheating || e.Cheat == cheat) {
				found = true
				t.Logf("%s saw: %s", short(p.id), e)
				break
			}
		}
		if !found {
			t.Fatalf("%s did not name %s for %s/%s", short(p.id), short(cheater.id), kind, cheat)
		}
	}
}

func assertUnchanged(t *testing.T, s *sim, clean [32]byte) {
	t.Helper()
	s.check(true)
	for _, p := range s.peers {
		if !p.cheater && p.node.g.hist != clean {
			t.Fatalf("%s finished with history %x, the clean game %x", short(p.id), p.node.g.hist[:6], clean[:6])
		}
	}
}

func TestThreats(t *testing.T) {
	clean := cleanHistory(t)
	othersMove := func(c *simPeer) func(g *game) bool {
		return func(g *game) bool {
			return g.phase == PhaseMove && g.k > 3 && g.mover() >= 0 && g.n.players[g.mover()].id != c.id
		}
	}
	for _, tc := range []struct {
		name  string
		kind  EventKind
		cheat Cheat
		setup func(s *sim, c *simPeer)
	}{
		{"bad reveal", EventCheating, CheatBadReveal, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				inject(t, s, c, &message{kind: kindReveal, k: g.k + 1, link: [32]byte{1, 2, 3}, state: g.hist})
			})
		}},
		{"state hash mismatch", EventStateMismatch, 0, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				link, _, _ := c.node.myLink(g.k + 1)
				inject(t, s, c, &message{kind: kindReveal, k: g.k + 1, link: link, state: [32]byte{9}})
			})
		}},
		{"move out of turn", EventCheating, CheatOutOfTurn, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				link, _, _ := c.node.myLink(g.k + 1)
				inject(t, s, c, &message{kind: kindReveal, k: g.k + 1, link: link, state: g.hist,
					hasMove: true, move: engine.Move{Kind: engine.PlaneMove, Colour: c.node.players[c.node.self].colour}})
			})
		}},
		{"move for a seat not owned", EventCheating, CheatWrongSeat, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				link, _, _ := c.node.myLink(g.k + 1)
				inject(t, s, c, &message{kind: kindReveal, k: g.k + 1, link: link, state: g.hist,
					hasMove: true, move: engine.Move{Kind: engine.PlaneMove, Colour: g.pos.ToMove()}})
			})
		}},
		{"move alone out of turn", EventCheating, CheatOutOfTurn, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				inject(t, s, c, &message{kind: kindMove, k: g.k, state: g.hist,
					hasMove: true, move: engine.Move{Kind: engine.PlaneMove, Colour: c.node.players[c.node.self].colour}})
			})
		}},
		{"move alone for a seat not owned", EventCheating, CheatWrongSeat, func(s *sim, c *simPeer) {
			when(s, c, othersMove(c), func() {
				g := &c.node.g
				inject(t, s, c, &message{kind: kindMove, k: g.k, state: g.hist,
					hasMove: true, move: engine.Move{Kind: engine.PlaneMove, Colour: g.pos.ToMove()}})
			})
		}},
		{"second move alone for one roll", EventCheating, CheatOutOfTurn, func(s *sim, c *simPeer) {
			secondMove(t, s, c, true)
		}},
		{"move alone after a move in a reveal", EventCheating, CheatOutOfTurn, func(s *sim, c *simPeer) {
			secondMove(t, s, c, false)
		}},
		{"illegal move", EventCheating, CheatIllegalMove, func(s *sim, c *simPeer) {
			done := false
			c.onMove = func(s *sim, p *simPeer, e Event) {
				if !done {
					done = true
					g := &p.node.g
					bad := engine.Move{Kind: engine.PlaneMove, Colour: e.Colour}
					outs := g.pos.Outcomes(p.node.rules, g.roll)
					for bad.Plane = 0; outs.Contains(bad) && bad.Plane < 3; bad.Plane++ {
					}
					if outs.Contains(bad) {
						bad = engine.Move{Kind: engine.Pass, Colour: e.Colour}
					}
					link, _, _ := p.node.myLink(g.k + 1)
					inject(t, s, p, &message{kind: kindReveal, k: g.k + 1, link: link, state: g.hist, hasMove: true, move: bad})
				}
				m := e.Moves[p.rng.Intn(len(e.Moves))]
				if err := p.node.Choose(m); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"replayed and foreign messages", 0, 0, func(s *sim, c *simPeer) {
			when(s, c, func(g *game) bool { return g.k > 20 }, func() {
				victim := s.peers[(s.index(c.id)+1)%len(s.peers)]
				for _, m := range c.node.players[c.node.pidx[victim.id]].msgs[:5] {
					s.post(s.index(c.id), "", m.raw) // old signed messages of another player
				}
				// A validly signed message of another game: rejected, never applied.
				other := &message{kind: kindReveal, game: GameID{1}, from: c.id, seq: 99, k: 21}
				if err := other.seal(c.cfg.Key.Sign); err != nil {
					t.Fatal(err)
				}
				s.post(s.index(c.id), "", other.raw)
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
			c := s.peers[1]
			c.cheater = true
			s.start()
			tc.setup(s, c)
			s.run()
			if tc.kind != 0 {
				assertCaught(t, s, c, tc.kind, tc.cheat)
			} else {
				for _, p := range s.peers {
					if p != c && p.node.g.stats.Duplicates == 0 {
						t.Fatalf("%s saw no duplicates", short(p.id))
					}
				}
			}
			assertUnchanged(t, s, clean)
		})
	}
}

// secondMove has the cheater, once it moved for a roll it rolls again
// after, sign a second move message for that roll. manual makes it a
// manual player, whose first move went out alone too.
func secondMove(t *testing.T, s *sim, c *simPeer, manual bool) {
	if manual {
		s.setManual(s.index(c.id), 1)
		c.node.cfg.AutoRoll = false // the node was made before the test's setup
	}
	done := false
	c.onMove = func(s *sim, p *simPeer, e Event) {
		g := &p.node.g
		m := e.Moves[p.rng.Intn(len(e.Moves))]
		next, _, _ := g.pos.Play(p.node.rules, g.roll, m)
		again := !done && next.ToMove() == e.Colour
		if err := p.node.Choose(m); err != nil {
			t.Fatal(err)
		}
		if again {
			done = true
			inject(t, s, p, &message{kind: kindMove, k: g.k - 1, state: g.hist, hasMove: true, move: e.Moves[0]})
		}
	}
}

// A forged signature is blamed on the peer that handed the frame over.
func TestThreatForgedSignature(t *testing.T) {
	s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
	s.start()
	a, b, c := s.peers[0], s.peers[1], s.peers[2]
	m := &message{kind: kindReveal, game: a.node.gid, from: a.id, seq: 2, k: 0}
	m.seal(func([]byte) ([]byte, error) { return make([]byte, 64), nil })
	if err := b.node.Step(c.id, m.raw); err == nil {
		t.Fatal("a forged message was accepted")
	}
	rd := b.node.Ready()
	found := false
	for _, e := range rd.Events {
		found = found || (e.Kind == EventCheating && e.Cheat == CheatBadSignature && e.Peer == c.id)
	}
	if !found {
		t.Fatalf("the relaying peer was not named: %v", rd.Events)
	}
	if len(b.node.players[b.node.pidx[a.id]].msgs) != 0 {
		t.Fatal("the forged message entered the history")
	}
}

// A copied chain anchor is named at setup; the copy never verifies because
// every link is bound to its player's ID, so the copier cannot reveal.
func TestThreatCopiedChain(t *testing.T) {
	s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
	victim, c := s.peers[0], s.peers[1]
	c.cheater = true
	for _, p := range s.peers {
		var err error
		if p == c {
			p.node, err = newNode(p.cfg)
			if err == nil {
				p.node.chain = buildChain(p.node.gid, victim.id, 0, victim.cfg.Entropy, DefaultChainLen)
				err = p.node.sendConfirm()
			}
		} else {
			p.node, err = NewNode(p.cfg)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s.maxTicks = 200
	s.run()
	assertCaught(t, s, c, EventCheating, CheatCopiedChain)
	assertCaught(t, s, c, EventCheating, CheatBadReveal)
	for _, p := range s.peers {
		if p != c && p.node.g.k != 0 {
			t.Fatalf("%s derived a roll with a copied chain in play", short(p.id))
		}
	}
}

// Equivocation: the mover signs two different moves with one sequence
// number, one for each honest peer, in a reveal or (a manual player rolling
// again) in a move message. Relaying makes the copies meet; both honest
// peers name the cheater and halt rather than diverge.
func TestThreatEquivocation(t *testing.T) {
	for _, alone := range []bool{false, true} {
		name := "move in a reveal"
		if alone {
			name = "move alone"
		}
		t.Run(name, func(t *testing.T) { equivocate(t, alone) })
	}
}

func equivocate(t *testing.T, alone bool) {
	s := newSim(t, threatSeed, 3, 0, simFaults{}, true)
	a, c, b := s.peers[0], s.peers[1], s.peers[2]
	c.cheater = true
	if alone {
		s.setManual(1, 1)
	}
	s.start()
	done := false
	c.onMove = func(s *sim, p *simPeer, e Event) {
		g := &p.node.g
		first, _, _ := g.pos.Play(p.node.rules, g.roll, e.Moves[0])
		if done || len(e.Moves) < 2 || alone && first.ToMove() != e.Colour {
			if err := p.node.Choose(e.Moves[0]); err != nil {
				t.Fatal(err)
			}
			return
		}
		done = true
		// Sign the second version by hand with the same sequence and link.
		alt := e.Moves[1]
		next, _, _ := g.pos.Play(p.node.rules, g.roll, alt)
		h := nextHist(g.hist, g.k, g.roll, alt, next, p.node.rules, g.absentMask())
		m2 := &message{kind: kindMove, game: p.node.gid, from: p.id, seq: p.node.mySeq + 1, prev: p.node.myPrev,
			k: g.k, state: h, hasMove: true, move: alt}
		if !alone {
			link, _, _ := p.node.myLink(g.k + 1)
			m2.kind, m2.k, m2.link = kindReveal, g.k+1, link
		}
		if err := m2.seal(p.cfg.Key.Sign); err != nil {
			t.Fatal(err)
		}
		p.outbound = func(s *sim, to peer.ID, data []byte) []simFrame {
			if m, err := decodeMessage(data); err == nil && m.from == p.id && m.seq == m2.seq {
				if m.kind != m2.kind {
					t.Errorf("the cheater's own move went out as a %s, its forgery is a %s", m.kind, m2.kind)
				}
				return []simFrame{{a.id, data}, {b.id, m2.raw}}
			}
			return []simFrame{{to, data}}
		}
		if err := p.node.Choose(e.Moves[0]); err != nil {
			t.Fatal(err)
		}
	}
	s.maxTicks = 5000
	s.run()
	if !done {
		t.Fatal("the cheater never had a choice to equivocate on")
	}
	assertCaught(t, s, c, EventCheating, CheatEquivocation)
	ga, gb := &a.node.g, &b.node.g
	if ga.phase != PhaseHalted || gb.phase != PhaseHalted {
		t.Fatalf("honest peers did not halt: %s %s", ga.phase, gb.phase)
	}
	// Neither finalised a roll after the equivocated move with a different history.
	var ra, rb []Event
	for _, e := range a.events {
		if e.Kind == EventRolled {
			ra = append(ra, e)
		}
	}
	for _, e := range b.events {
		if e.Kind == EventRolled {
			rb = append(rb, e)
		}
	}
	if len(ra) != len(rb) {
		t.Fatalf("honest peers finalised %d and %d rolls", len(ra), len(rb))
	}
	for i := range ra {
		if ra[i].Value != rb[i].Value {
			t.Fatalf("roll %d differs: %d vs %d", ra[i].Roll, ra[i].Value, rb[i].Value)
		}
	}
}
