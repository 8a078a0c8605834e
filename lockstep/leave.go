package lockstep

import (
	"errors"
	"fmt"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Leaving (PROTOCOL.md, "Leaving"): a player that decides to go signs
// Leave(colour, r), r being the first roll whose link it has not
// revealed. Nobody can have derived roll r with its link, so every peer
// can drop it from roll r on without a vote and land on the same
// history:
//
//   - its links count for every roll before r (they precede the Leave in
//     its run, so a peer holding the Leave holds them);
//   - a bot flies its seat from step 2r (the collection of roll r) on,
//     or from the move of roll r-1 when that move is its own and its run
//     holds no Move message for it;
//   - the seat is then absent exactly as after an exclusion at that step
//     (absent-set in the history hash, bot flying, no link), and for good:
//     it is never seated again.
//
// Everything its run holds after the Leave is consumed by nothing (void)
// and named bad-leave.

// ErrLeft is returned by the intents of a node whose player has left.
var ErrLeft = errors.New("you have left this game: a bot flies your seat")

// Leave is the local player's intent to go for good: its seat is handed
// to the seat's bot from the first roll whose link it has not revealed,
// with no vote and no wait. The node signs nothing after it (Roll,
// Choose, GoOn return ErrLeft) but keeps answering the others' status
// frames, so the driver should keep it running a while (until the others
// hold the Leave: their status frames count it) before it quits.
func (n *Node) Leave() error {
	if n.self < 0 {
		return errObserver
	}
	me := n.players[n.self]
	switch {
	case me.leaving:
		return ErrLeft
	case n.g.phase == PhaseOver || n.g.phase == PhaseHalted:
		return fmt.Errorf("leave: the game is %s already", n.g.phase)
	case n.restoring || n.rec != nil:
		return fmt.Errorf("leave: %w", ErrRecovering)
	}
	if err := n.newMessage(&message{kind: kindLeave, colour: me.colour, k: me.revealedTo}); err != nil {
		return err
	}
	n.progress()
	return nil
}

// left reports whether the local player has left (its Leave is in its run).
func (n *Node) left() bool { return n.self >= 0 && n.players[n.self].leaving }

// onLeave checks a Leave as it is accepted, and voids whatever its
// sender signs after an accepted one.
func (g *game) onLeave(p *player, m *message) {
	n := g.n
	m.void = true // a Leave is read here, never in the turn's queue
	switch {
	case p.leaving && m.kind == kindLeave:
		n.cheat(p.id, CheatBadLeave, fmt.Sprintf("a second leave (seq %d) after its leave from roll %d", m.seq, p.leaveRoll))
	case p.leaving:
		n.cheat(p.id, CheatBadLeave, fmt.Sprintf("a %s (seq %d) after it left from roll %d", m.kind, m.seq, p.leaveRoll))
	case m.colour != p.colour:
		n.cheat(p.id, CheatWrongSeat, fmt.Sprintf("a leave for the %s seat, which it does not own", m.colour))
	case m.k < p.revealedTo:
		n.cheat(p.id, CheatBadLeave, fmt.Sprintf("a leave from roll %d, whose link it already revealed (up to roll %d)", m.k, p.revealedTo-1))
	case m.k > p.revealedTo:
		n.cheat(p.id, CheatBadLeave, fmt.Sprintf("a leave from roll %d, not its next unrevealed roll %d", m.k, p.revealedTo))
	default:
		p.leaving, p.leaveRoll, p.leaveSeq = true, m.k, m.seq
	}
}

// checkLeaves hands the seats of leaving players to their bots once the
// game reaches the step their Leave names (see the file comment).
func (g *game) checkLeaves() bool {
	n := g.n
	if g.phase != PhaseReveal && g.phase != PhaseMove {
		return false
	}
	moved := false
	for i, p := range n.players {
		if !p.leaving || p.left {
			continue
		}
		var outs engine.MoveList
		if g.phase == PhaseMove {
			outs = g.pos.Outcomes(n.rules, g.roll)
		}
		switch {
		case g.k >= p.leaveRoll:
		case g.phase == PhaseMove && g.k+1 == p.leaveRoll && g.mover() == i && !g.botFlies(i, g.k) &&
			outs.Len() > 1 && g.peek(p) == nil:
			// Its move for roll r-1 would have come with its link for r:
			// the bot makes it.
		default:
			continue
		}
		if !p.absent {
			p.absent, p.absentFrom, p.wasAbsent = true, g.step(), true
		}
		p.left, p.returnAt = true, 0
		n.emit(Event{Kind: EventLeft, Peer: p.id, Colour: p.colour, Roll: g.k})
		moved = true
	}
	return moved
}

// LeaveDelivered reports, after Leave, whether the others have the
// Leave: every other player's latest status frame counts it, or the game
// went past the leave's roll on this node (every present player's reveal
// for a later roll carried a history without the leaver's seat). The
// driver may then stop the node. A player that is gone never says so, so
// drivers also stop after a few seconds.
func (n *Node) LeaveDelivered() bool {
	if !n.left() {
		return false
	}
	if me := n.players[n.self]; me.left && (n.g.k > me.leaveRoll+1 || n.g.phase == PhaseOver) {
		return true
	}
	for i, p := range n.players {
		if i != n.self && !p.holdsMyLeave {
			return false
		}
	}
	return true
}

// noteLeaveHeld records that player from holds our Leave.
func (n *Node) noteLeaveHeld(from peer.ID, h *have) {
	i, ok := n.pidx[from]
	if !ok || !n.left() || len(h.seqs) != len(n.players) {
		return
	}
	if h.seqs[n.self] >= n.players[n.self].leaveSeq {
		n.players[i].holdsMyLeave = true
	}
}
