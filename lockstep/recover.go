package lockstep

import (
	"errors"
	"strings"

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
// player has told it, in a status frame sent after the restore, which of
// its messages it holds, and it holds them all again: they come back as
// answers to its own status frame, and are checked and accepted like any
// relayed message. Plain reveals, the bulk of the traffic, are then never
// waited on a disk.
//
// Messages a player says it holds are waited for however long it takes
// (signing without them would surely contradict them); a player that
// says nothing is waited for AbsentTicks since the restore: it is gone,
// or its frames are, and a message of ours that only it holds is the one
// case left in which a machine crash can still end the game as
// equivocation.

// ErrRecovering is returned by Choose while a restored node is still
// fetching its own messages back from the others.
var ErrRecovering = errors.New("the game is still being recovered from the other players after a restart; try again in a moment")

type recovery struct {
	since uint64 // tick of the restore
	heard uint8  // players (bit per seat-order index) heard from since the restore
	need  uint64 // the highest of our sequence numbers any of them holds
}

// maySign reports whether the node may sign new messages now: not while it
// replays its log, nor while it recovers its own messages after a restore.
func (n *Node) maySign() bool { return !n.restoring && n.rec == nil }

// startRecovery holds a restored player's signatures back and asks every
// other player at once what it holds.
func (n *Node) startRecovery() {
	if n.self < 0 {
		return
	}
	n.rec = &recovery{since: n.tick, heard: 1 << n.self}
	n.lastHave = n.tick
	n.sendHave()
}

// noteHave records a player's status frame while recovering.
func (n *Node) noteHave(from peer.ID, h *have) {
	i, ok := n.pidx[from]
	if n.rec == nil || !ok || len(h.seqs) != len(n.players) {
		return
	}
	n.rec.heard |= 1 << i
	n.rec.need = max(n.rec.need, h.seqs[n.self])
	n.checkRecovered()
}

// checkRecovered ends the recovery once every other player was heard (or
// waited for long enough) and every own message they hold is back; the
// caller then runs progress, which signs what the game waits for.
func (n *Node) checkRecovered() {
	r := n.rec
	if r == nil {
		return
	}
	if n.mySeq < r.need {
		// Someone holds messages of ours that we lack: signing on would
		// surely contradict them, so wait for them however long it takes.
		return
	}
	timedOut := n.cfg.AbsentTicks >= 0 && n.tick-r.since >= uint64(n.cfg.AbsentTicks)
	all := r.heard == uint8(1<<len(n.players))-1
	if !timedOut && !all {
		return
	}
	n.rec = nil
	e := Event{Kind: EventRecovered, Detail: "every other player told us what it holds of our messages"}
	if !all {
		e.Peers = n.ids(^r.heard)
		e.Detail = "gave up waiting to hear from " + shortList(e.Peers) + ": if they hold messages of ours that our log lost, they will see us contradict them"
	}
	n.emit(e)
	// What we held back (reveals, votes, a choice) goes out with the
	// caller's progress: checkReturns casts the readmission votes.
}

func shortList(ids []peer.ID) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(short(id))
	}
	return b.String()
}
