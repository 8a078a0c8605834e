package lockstep

import (
	"errors"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Recovery after a restore. The driver writes every Ready's entries before
// it sends the Ready's messages but need not flush them to disk first
// (PROTOCOL.md, "Crash"): a killed process loses nothing it wrote, but a
// machine that stops may lose a tail of the log, our own signed messages
// included, which the other players may already hold. Signing anything new
// from the shorter log could give one sequence number two different
// messages: equivocation, which halts every honest peer. So a restored
// node signs nothing (no reveal, vote, return or move) until every other
// player has told it, in a status frame sent after the restore, that it
// holds exactly the messages of ours that we hold. If it holds more, they
// come back as answers to our status frame and are checked and accepted
// like any relayed message; if fewer, our re-sends fill its gap and we
// wait for its next status, since a player that missed one of ours may
// have received later ones out of order, which a status does not show
// (TestSimFaults seed 29: a restored node took a status that counted 42
// of its messages for all a player held, signed a new 44, and met the old
// 44 waiting behind the missing 43). No disk flush is then on any turn's
// critical path.
//
// Messages a player says it holds are waited for however long it takes
// (signing without them would surely contradict them); a player that
// sends nothing at all for AbsentTicks is given up on: it is gone, or its
// frames are, and a message of ours that only it holds is the one case
// left in which a machine crash can still end the game as equivocation.
// A player that keeps sending is waited for until its status agrees (it
// answers ours: answerHave).

// ErrRecovering is returned by Choose while a restored node is still
// fetching its own messages back from the others.
var ErrRecovering = errors.New("the game is still being recovered from the other players after a restart; try again in a moment")

type recovery struct {
	// holds[i] is how many of our messages player i's latest status
	// frame said it holds in a run; heard has bit i once one came.
	holds []uint64
	heard uint8
	// lastFrame[i] is the tick of the last frame of any kind from player
	// i (the restore's tick before the first).
	lastFrame []uint64
}

// maySign reports whether the node may sign new messages now: not while it
// replays its log, nor while it recovers its own messages after a restore,
// nor ever after its player left (leave.go), nor while its player's
// pause is unlifted (pause.go: Continue signs the lift).
func (n *Node) maySign() bool { return !n.restoring && n.rec == nil && !n.left() && !n.paused() }

// startRecovery holds a restored player's signatures back and asks every
// other player at once what it holds.
func (n *Node) startRecovery() {
	if n.self < 0 {
		return
	}
	n.rec = &recovery{holds: make([]uint64, len(n.players)), lastFrame: make([]uint64, len(n.players))}
	for i := range n.rec.lastFrame {
		n.rec.lastFrame[i] = n.tick
	}
	n.lastHave = n.tick
	n.sendHave()
}

// noteFrame records that a frame came from a player while recovering.
func (n *Node) noteFrame(from peer.ID) {
	if i, ok := n.pidx[from]; ok && n.rec != nil {
		n.rec.lastFrame[i] = n.tick
	}
}

// forgetLost drops the messages of a restored player that we only hold
// early, out of order, beyond the count its own status frame gives for
// itself: a player always holds every message it signed, so it lost
// those with its log, and will sign others with their numbers. They were
// never accepted, applied or logged here; keeping them would only make
// its next messages look like equivocation. (A copy someone accepted is
// fetched back by the restored node instead: that peer's count shows it.)
func (n *Node) forgetLost(from peer.ID, h *have) {
	i, ok := n.pidx[from]
	if !ok || len(h.seqs) != len(n.players) {
		return
	}
	p := n.players[i]
	for s := range p.future {
		if s > h.seqs[i] {
			delete(p.future, s)
		}
	}
}

// noteHave records a player's status frame while recovering.
func (n *Node) noteHave(from peer.ID, h *have) {
	i, ok := n.pidx[from]
	if n.rec == nil || !ok || len(h.seqs) != len(n.players) || i >= len(n.rec.holds) {
		return
	}
	n.rec.heard |= 1 << i
	n.rec.holds[i] = h.seqs[n.self]
	n.checkRecovered()
}

// checkRecovered ends the recovery once every other player's latest
// status says it holds exactly our messages, no more (we fetch those
// back first) and no fewer: a player that lacks some of ours may hold
// later ones early, out of order, which its status does not show until
// our re-sends fill the gap and it tells us again. A player that has
// sent nothing at all for AbsentTicks is given up on (unless it said it
// holds messages of ours we lack). The caller then runs progress, which
// signs what the game waits for.
func (n *Node) checkRecovered() {
	r := n.rec
	if r == nil {
		return
	}
	var pending, silent uint8
	for i := range n.players {
		switch {
		case i == n.self:
		case r.heard&(1<<i) != 0 && r.holds[i] == n.mySeq:
		case r.heard&(1<<i) != 0 && r.holds[i] > n.mySeq:
			// It holds messages of ours that we lack: signing on would
			// surely contradict them, so wait for them however long.
			return
		case n.cfg.AbsentTicks >= 0 && n.tick-r.lastFrame[i] >= uint64(n.cfg.AbsentTicks):
			silent |= 1 << i
		default:
			pending |= 1 << i
		}
	}
	if pending != 0 {
		return
	}
	// One last status frame saying we were restored, now that every
	// player we heard from is reachable: one that never got our first
	// (sent before the connections were up) still learns that our
	// program restarted (noteRestored); what we sign next ends it there.
	n.sendHave()
	n.rec = nil
	e := Event{Kind: EventRecovered, Detail: "every other player holds exactly our messages"}
	if silent != 0 {
		e.Peers = n.ids(silent)
		e.Detail = "gave up waiting to hear from " + shortList(e.Peers) + ": if they hold messages of ours that our log lost, they will see us contradict them"
	}
	n.emit(e)
	// What we held back (reveals, votes, a choice) goes out with the
	// caller's progress: checkReturns casts the readmission votes.
}

// noteRestored reports, once per restore, that player from says in its
// own status frame that it was restored and is recovering: its program
// restarted, which the transport may never see as a connection going down
// when the restart is quicker than its heartbeat. Only the sender's own
// frame counts (status frames are never relayed).
func (n *Node) noteRestored(from peer.ID, h *have) {
	i, ok := n.pidx[from]
	if !ok || i == n.self {
		return
	}
	p := n.players[i]
	if h.recovering && !p.restored {
		p.restored, p.restoredAt = true, uint64(len(p.msgs))
		n.emit(Event{Kind: EventPeerRestored, Peer: from, Colour: p.colour})
	}
}
