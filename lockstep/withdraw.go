package lockstep

import (
	"fmt"
	"slices"
)

// Withdrawing an absence vote (PROTOCOL.md, "Absence"). Lost and late
// frames can cross the absence votes of one reveal step so that no set
// carries and none ever can: with a program of two seats among four, its
// seats vote a player of the other side absent while the other side's
// two vote one of its seats. Each vote blocks the reveal it names,
// nobody goes past the step (so no vote is ever void), and each side is
// voted by only half, so nobody is asked the lone question: the game
// would wait for ever although every reveal has arrived everywhere.
//
// A voter that holds the input of the player it voted absent (its reveal,
// or at a move step a message past it), while the votes it holds carry
// no exclusion at that step, for a whole absence wait, signs
// Withdraw(who, step): its vote is taken back. A lone decision asked
// there loses that player, and the voter signs no go-on vote on it: the
// player is back. Invariants:
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
// it cast at the current step on a player whose input for that step it
// now holds (holdsInput), once the votes held have carried nothing there
// for a whole absence wait (holding counts the ticks). A lone decision
// asked at the step loses the players withdrawn from it. Called on each
// tick.
func (g *game) maybeWithdraw() {
	n := g.n
	if g.phase != PhaseReveal && g.phase != PhaseMove || n.self < 0 || !n.maySign() || n.players[n.self].absent {
		return
	}
	s := g.step()
	var held []int // players whose input we hold, voted absent by us at s
	for i, p := range n.players {
		if v, mine := g.votes[voteKey{i, s}][n.self]; mine && v == voteAbsent && !p.absent && g.holdsInput(i, s) {
			held = append(held, i)
		} else {
			delete(g.holding, i)
		}
	}
	if len(held) == 0 {
		return
	}
	if xs, carry, _ := g.exclusionAt(s, g.liveAbsent()); carry && len(xs) > 0 {
		g.holding = map[int]heldFor{} // settled: checkAbsence applies it
		return
	}
	for _, i := range held {
		h := g.holding[i]
		if h.step != s {
			h = heldFor{step: s}
		}
		h.ticks++
		g.holding[i] = h
		if h.ticks < uint64(max(n.cfg.AbsentTicks, 1)) {
			continue
		}
		delete(g.holding, i)
		if err := n.newMessage(&message{kind: kindAbsent, who: n.players[i].id, step: s, vote: voteWithdraw}); err != nil {
			g.halt(err.Error())
			return
		}
		if a := g.alone; a != nil && a.step == s {
			a.xs = slices.DeleteFunc(slices.Clone(a.xs), func(x int) bool { return x == i })
			if len(a.xs) == 0 {
				g.alone = nil
			}
		}
	}
}

// holdsInput reports whether the local node holds player i's input for
// step s, the current one: its reveal of the roll being collected, or,
// at a move step, a message of a later step (its move, or its reveal of
// the next roll, which carries the move).
func (g *game) holdsInput(i int, s uint64) bool {
	p := g.n.players[i]
	if g.phase == PhaseReveal {
		return p.revealedTo > g.k
	}
	return p.reached > s+1
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
