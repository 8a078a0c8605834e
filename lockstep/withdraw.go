package lockstep

import "fmt"

// Withdrawing an absence vote (PROTOCOL.md, "Absence"). Lost and late
// frames can cross the absence votes of one reveal step so that no set
// carries and none ever can: with a program of two seats among four, its
// seats vote a player of the other side absent while the other side's
// two vote one of its seats. Each vote blocks the reveal it names,
// nobody goes past the step (so no vote is ever void), and each side is
// voted by only half, so nobody is asked the lone question: the game
// would wait for ever although every reveal has arrived everywhere.
//
// A voter that holds the reveal of the player it voted absent, while the
// votes it holds carry nothing at that step for a whole absence wait,
// signs Withdraw(who, step): its vote is taken back. Invariants:
//
//   - A withdrawal is signed only at the voter's current step, after its
//     vote and before anything it signs past that step (one sender's
//     messages are read in order), and the voter never votes who absent
//     at that step again (myVotes keeps the key).
//   - Votes only grow but for withdrawals, which are final, so every node
//     ends holding the same votes at the step and settles it alike. A
//     node that had settled an exclusion the withdrawal no longer carries
//     rolls back to the step (rollbackIfExcluded); nothing it did past it
//     was final, since its next roll needs the withdrawer's reveal, which
//     carries the history without that exclusion.
//   - undoNews counts withdrawals, so the undo they call for is never
//     refused as one without news.

// withdrawals records, per (who, step), the voters that took their absence
// vote back: it keeps a withdrawn vote from counting again.
type withdrawals map[voteKey]map[int]bool

// onWithdraw takes voter vi's absence vote on player wi at m.step back.
// A withdrawal of a vote never cast is named and changes nothing.
func (g *game) onWithdraw(p *player, vi, wi int, m *message) {
	key := voteKey{wi, m.step}
	if v, ok := g.votes[key][vi]; !ok || v != voteAbsent {
		if !g.withdrawn[key][vi] {
			g.n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a withdrawal (seq %d) of an absence vote on %s at step %d it never cast", m.seq, short(m.who), m.step))
		}
		return
	}
	delete(g.votes[key], vi)
	if len(g.votes[key]) == 0 {
		delete(g.votes, key)
	}
	if g.withdrawn[key] == nil {
		g.withdrawn[key] = map[int]bool{}
	}
	g.withdrawn[key][vi] = true
}

// maybeWithdraw signs the local player's withdrawal of each absence vote
// it cast at the current reveal step on a player whose reveal it now
// holds, once the votes held have carried nothing there for a whole
// absence wait (hold counts the ticks). Called on each tick.
func (g *game) maybeWithdraw() {
	n := g.n
	if g.phase != PhaseReveal || n.self < 0 || !n.maySign() || n.players[n.self].absent {
		return
	}
	s := g.step()
	if xs, carry, _ := g.exclusionAt(s, g.liveAbsent()); carry && len(xs) > 0 {
		return // it is being settled: checkAbsence applies it
	}
	for i, p := range n.players {
		key := voteKey{i, s}
		if v, mine := g.votes[key][n.self]; !mine || v != voteAbsent || p.absent || p.revealedTo <= g.k {
			delete(g.holding, i)
			continue
		}
		if g.holding[i].step != s {
			g.holding[i] = heldFor{step: s}
		}
		h := g.holding[i]
		h.ticks++
		g.holding[i] = h
		if h.ticks < uint64(max(n.cfg.AbsentTicks, 1)) {
			continue
		}
		delete(g.holding, i)
		if err := n.newMessage(&message{kind: kindAbsent, who: p.id, step: s, vote: voteWithdraw}); err != nil {
			g.halt(err.Error())
			return
		}
	}
}

// heldFor counts the ticks the local player has held the reveal of a
// player it voted absent at step.
type heldFor struct {
	step  uint64
	ticks uint64
}

// withdrawnAt counts the withdrawals held at step s (undoNews).
func (g *game) withdrawnAt(s uint64) uint64 {
	var c uint64
	for key, ws := range g.withdrawn {
		if key.step == s {
			c += uint64(len(ws))
		}
	}
	return c
}
