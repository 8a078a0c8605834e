package lockstep

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Pausing together (PROTOCOL.md, "Pausing"): a player that wants to stop
// for today signs Pause(k), k being the first roll whose link it has not
// revealed: from then on it signs nothing for rolls k and later (no
// reveal, no move of roll k-1 carried by a reveal, no absence vote) until
// it signs the lift, Pause(0). A pause is a fact of its sender's run, not
// of a branch: it changes no game state and no history hash, only who
// votes and how the screens read the wait.
//
//   - A node whose own player paused votes nobody absent while paused.
//   - A node whose own player did not pause votes as usual: a player that
//     pauses alone is voted absent, as a player who walked away. It is
//     waited the long ChooseTicks (a person is being asked to pause too),
//     not AbsentTicks.
//   - When every present player holds an unlifted pause the game is
//     paused (State.Paused, EventPaused once): nobody signs, nobody votes,
//     nothing moves. Each program may stop; its log ends unfinished with
//     its own pause in it, and a node restored from it stays paused until
//     Continue.
//
// A reveal for roll k or later, or an absence vote, that a player signs
// after its pause and before its lift is named bad-message and not
// applied; so is a pause whose k is not its first unrevealed roll, a
// second pause, or a lift without a pause.

// ErrPaused is returned by the intents of a node whose player paused.
var ErrPaused = errors.New("you paused the game: continue it first")

// ErrNotPaused is returned by Continue when the local player has not paused.
var ErrNotPaused = errors.New("you have not paused the game")

// Pause is the local player's wish to stop the game for everyone from
// the first roll whose link it has not revealed.
func (n *Node) Pause() error {
	if n.self < 0 {
		return errObserver
	}
	me := n.players[n.self]
	switch {
	case me.leaving:
		return ErrLeft
	case me.pauseFrom > 0:
		return ErrPaused
	case n.g.phase == PhaseOver || n.g.phase == PhaseHalted:
		return fmt.Errorf("pause: the game is %s already", n.g.phase)
	case n.g.phase == PhaseSetup || me.revealedTo == 0:
		return fmt.Errorf("pause: the game has not started yet")
	case n.restoring || n.rec != nil:
		return fmt.Errorf("pause: %w", ErrRecovering)
	}
	if err := n.newMessage(&message{kind: kindPause, k: me.revealedTo}); err != nil {
		return err
	}
	n.progress()
	return nil
}

// Continue lifts the local player's pause: it signs again from the roll
// it paused at.
func (n *Node) Continue() error {
	if n.self < 0 {
		return errObserver
	}
	me := n.players[n.self]
	switch {
	case me.pauseFrom == 0:
		return ErrNotPaused
	case n.restoring || n.rec != nil:
		return fmt.Errorf("continue: %w", ErrRecovering)
	}
	if err := n.newMessage(&message{kind: kindPause, k: 0}); err != nil {
		return err
	}
	for _, p := range n.players {
		p.waited = 0 // the wait starts again: the others may continue later
	}
	n.g.payVotes()
	n.progress()
	return nil
}

// paused reports whether the local player's pause is unlifted.
func (n *Node) paused() bool { return n.self >= 0 && n.players[n.self].pauseFrom > 0 }

// PausedFrom is the roll the local player's unlifted pause names (0: not paused).
func (n *Node) PausedFrom() uint64 {
	if n.self < 0 {
		return 0
	}
	return n.players[n.self].pauseFrom
}

// PauseDelivered reports whether the game is paused and every other
// present player's latest status frame counts the local player's pause:
// they all hold every pause, so they are paused too, and the driver may
// stop the node (DriverConfig.StopWhenPaused).
func (n *Node) PauseDelivered() bool {
	if !n.paused() || !n.g.gamePaused() {
		return false
	}
	me := n.players[n.self]
	for i, p := range n.players {
		if i != n.self && !p.absent && p.holdsOfMine < me.pauseSeq {
			return false
		}
	}
	return true
}

// noteHeldOfMine records how many of our messages player from holds.
func (n *Node) noteHeldOfMine(from peer.ID, h *have) {
	if i, ok := n.pidx[from]; ok && n.self >= 0 && len(h.seqs) == len(n.players) {
		n.players[i].holdsOfMine = h.seqs[n.self]
	}
}

// onPause checks a pause or lift as it is accepted, and voids what its
// sender signs while paused that a pause forbids. It reports whether the
// message is dealt with (a pause, a lift, or voided).
func (g *game) onPause(p *player, m *message) bool {
	n := g.n
	if m.kind == kindPause {
		m.void = true // read here, never in the turn's queue
		switch {
		case m.k == 0 && p.pauseFrom == 0:
			n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a continue (seq %d) without a pause", m.seq))
		case m.k == 0:
			p.pauseFrom = 0
			if m.from != n.cfg.Self && !n.restoring {
				n.emit(Event{Kind: EventPauseLifted, Peer: p.id, Roll: g.k})
			}
		case p.pauseFrom > 0:
			n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a second pause (seq %d) from roll %d while paused from roll %d", m.seq, m.k, p.pauseFrom))
		case m.k != p.revealedTo:
			n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a pause from roll %d, not its first unrevealed roll %d", m.k, p.revealedTo))
		default:
			p.pauseFrom, p.pauseSeq = m.k, m.seq
			if m.from != n.cfg.Self && !n.restoring {
				n.emit(Event{Kind: EventPauseAsked, Peer: p.id, Roll: m.k})
			}
		}
		return true
	}
	if p.pauseFrom == 0 {
		return false
	}
	switch {
	case m.kind == kindReveal && m.k >= p.pauseFrom:
		m.void = true
		n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a reveal for roll %d (seq %d) while paused from roll %d", m.k, m.seq, p.pauseFrom))
		return true
	case m.kind == kindAbsent && (m.vote == voteAbsent || m.vote == voteGoOn):
		m.void = true
		n.cheat(p.id, CheatBadMessage, fmt.Sprintf("an absence vote (seq %d) while paused from roll %d", m.seq, p.pauseFrom))
		return true
	}
	return false
}

// gamePaused reports whether every present player holds an unlifted
// pause while the game is in play: nobody signs, so nothing moves.
func (g *game) gamePaused() bool {
	n := g.n
	if g.phase != PhaseReveal && g.phase != PhaseMove {
		return false
	}
	someone := false
	for _, p := range n.players {
		if p.absent {
			continue
		}
		if p.pauseFrom == 0 {
			return false
		}
		someone = true
	}
	return someone
}

// reportPaused emits EventPaused once each time the game becomes paused.
func (n *Node) reportPaused() {
	paused := n.g.gamePaused()
	if paused && !n.toldPaused {
		n.emit(Event{Kind: EventPaused, Roll: n.g.k, Peers: n.pausedPeers(),
			Detail: fmt.Sprintf("every present player paused; the game stops at roll %d until they continue", n.g.k)})
	}
	n.toldPaused = paused
}

// pausedPeers lists the players holding an unlifted pause.
func (n *Node) pausedPeers() []peer.ID {
	var ids []peer.ID
	for _, p := range n.players {
		if p.pauseFrom > 0 {
			ids = append(ids, p.id)
		}
	}
	return ids
}
