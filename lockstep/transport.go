package lockstep

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// player is what a node knows of one player: its accepted messages (a
// contiguous, hash-linked run from sequence 1), messages that arrived early,
// and its chain and seat bookkeeping.
type player struct {
	id     peer.ID
	colour engine.Colour
	msgs   []*message
	future map[uint64]*message
	cheats int
	// brokenChain: it signed a reveal off its committed chain (a
	// bad-reveal cheat), so it can never reveal a valid link with it:
	// readmitting it would only cost another absence wait (voteReadmit).
	brokenChain bool
	maxReveal   uint64 // highest roll of its accepted reveals
	reached     uint64 // 1 + the highest step its signed messages prove it reached
	// returnReached: 1 + the step its latest return request shows it
	// followed the game to, absent (a Return names a roll returnLead
	// ahead of its own).
	returnReached uint64
	waited        uint64 // ticks the game has waited for this player at the current step
	// unreachable is the driver's word that its connection to this player
	// is down (Reachable); it only shortens the wait for a choice.
	unreachable bool
	haveReplied uint64 // tick we last answered its status frame with ours (answerHave)
	resent      resent // what we re-sent it lately (answerHave)
	revealedTo  uint64 // 1 + the highest roll of its accepted reveals (0: none yet)
	heardAt     uint64 // tick of the last frame it handed us (Step)
	// leaving: its Leave (sequence leaveSeq) is accepted; from roll
	// leaveRoll on a bot flies its seat (leave.go). Facts of its run,
	// not of a branch: a rollback keeps them.
	leaving      bool
	leaveRoll    uint64
	leaveSeq     uint64
	holdsMyLeave bool // its status frame counts our own Leave (LeaveDelivered)
	// pauseFrom: the roll its unlifted pause names (0: none; pause.go).
	// A fact of its run, like leaving: a rollback keeps it.
	pauseFrom uint64
	pauseSeq  uint64 // the sequence number of that pause
	// holdsOfMine: how many of our messages its latest status frame
	// counts (PauseDelivered).
	holdsOfMine uint64
	// restored: its status frame said it is recovering after a restore,
	// when we held restoredAt of its messages; a message it signed past
	// those (it signs again only once recovered) ends it.
	restored   bool
	restoredAt uint64
	// askIdx is the index in msgs of its latest accepted return request,
	// askStep the roll it asks for. A fact of its run: a rollback keeps it.
	askIdx  int
	askStep uint64
	pstate
}

// pstate is the part of a player's record that the game changes; a
// snapshot copies it so a step can be undone (see rollback).
type pstate struct {
	next int // index in msgs of the next message the game has not consumed

	confirmed bool
	chainLen  uint64
	anchors   [][32]byte // per epoch
	epoch     uint64     // epoch and position of the last verified link
	j         uint64
	cur       [32]byte

	have bool // its link for the roll being collected is in
	link [32]byte

	absent     bool
	left       bool   // its Leave took effect: absent for good
	wasAbsent  bool   // it was absent once: its reveals from then are stale, not cheating
	absentFrom uint64 // step from which a bot flies the seat
	returnAt   uint64 // roll from which it flies its seat again (0: none agreed)
}

// maxAhead bounds how far past the next expected sequence number we buffer.
const maxAhead = 1024

// ErrOtherGame is returned for a frame of another game (a stale or replayed frame).
var ErrOtherGame = errors.New("frame for another game")

// receive checks a decoded message and accepts it, buffers it or rejects it.
func (n *Node) receive(from peer.ID, m *message) error {
	if m.game != n.gid {
		n.g.stats.Rejected++
		return fmt.Errorf("%w: %s from %s, ours is %s", ErrOtherGame, m.game, short(m.from), n.gid)
	}
	pi, ok := n.pidx[m.from]
	if !ok {
		return n.receiveNewcomer(from, m) // takeseat.go
	}
	p := n.players[pi]
	var held *message
	if m.seq <= uint64(len(p.msgs)) {
		held = p.msgs[m.seq-1]
	} else {
		held = p.future[m.seq]
	}
	if held != nil && equalRaw(held, m) {
		n.g.stats.Duplicates++
		return nil
	}
	if !n.verify(m.from, m.signedPart(), m.sig) {
		n.g.stats.Rejected++
		if from != "" && from != m.from {
			n.cheat(from, CheatBadSignature, fmt.Sprintf("handed over a %s claiming to be from %s with a bad signature", m.kind, short(m.from)))
		} else if from != "" {
			n.cheat(from, CheatBadSignature, fmt.Sprintf("%s seq %d with a bad signature", m.kind, m.seq))
		}
		return fmt.Errorf("%s seq %d from %s: bad signature", m.kind, m.seq, short(m.from))
	}
	if held != nil {
		m.id = sha256.Sum256(m.raw)
		n.g.stats.Rejected++
		n.cheat(m.from, CheatEquivocation, fmt.Sprintf("two different signed messages with sequence %d (%x, %x)", m.seq, held.id[:6], m.id[:6]))
		if n.self >= 0 {
			// Hand the conflicting copy on so every honest peer holds the proof.
			n.broadcast(m.raw, from, m.from)
		}
		n.g.onEquivocation(p, held, m)
		return nil
	}
	if m.seq > uint64(len(p.msgs))+1 {
		if m.seq-uint64(len(p.msgs)) > maxAhead {
			n.g.stats.Rejected++
			return fmt.Errorf("%s seq %d from %s: too far ahead of %d", m.kind, m.seq, short(m.from), len(p.msgs))
		}
		m.id = sha256.Sum256(m.raw)
		p.future[m.seq] = m
		n.g.stats.Buffered++
		return nil
	}
	m.id = sha256.Sum256(m.raw)
	if err := n.accept(from, p, m); err != nil {
		return err
	}
	for {
		nm := p.future[uint64(len(p.msgs))+1]
		if nm == nil {
			return nil
		}
		delete(p.future, nm.seq)
		if err := n.accept(from, p, nm); err != nil {
			return err
		}
	}
}

// accept appends the next message of p after checking its link to the previous one.
func (n *Node) accept(from peer.ID, p *player, m *message) error {
	var prev [32]byte
	if len(p.msgs) > 0 {
		prev = p.msgs[len(p.msgs)-1].id
	}
	if m.prev != prev {
		n.g.stats.Rejected++
		n.cheat(m.from, CheatBadLink, fmt.Sprintf("%s seq %d does not link to its sender's previous message", m.kind, m.seq))
		return fmt.Errorf("%s seq %d from %s: broken link to the previous message", m.kind, m.seq, short(m.from))
	}
	p.msgs = append(p.msgs, m)
	if p.restored && m.seq > p.restoredAt {
		p.restored = false // recovered: it signs again (noteRestored)
	}
	n.g.stats.Accepted++
	n.entries = append(n.entries, Record{Type: RecordMessage, Data: m.raw})
	if n.self >= 0 && !n.restoring {
		if m.from == n.cfg.Self {
			n.broadcast(m.raw)
		} else if m.kind != kindReveal || m.hasMove {
			// Push on at once what a sender could equivocate on to gain
			// (confirms, moves alone or in a reveal, votes), so conflicting copies meet; plain
			// reveals are deterministic and travel on request (answerHave).
			n.broadcast(m.raw, from, m.from)
		}
	}
	if p.leaving || m.kind == kindLeave {
		if m.from == n.cfg.Self {
			n.mySeq, n.myPrev = m.seq, m.id
		}
		n.g.onLeave(p, m) // after a Leave nothing counts; a Leave is checked
		return nil
	}
	if (m.kind == kindPause || p.pauseFrom > 0) && n.g.onPause(p, m) {
		if m.from == n.cfg.Self {
			n.mySeq, n.myPrev = m.seq, m.id
		}
		return nil // a pause, a lift, or what a pause forbids (pause.go)
	}
	if m.kind == kindReveal && m.k > p.maxReveal {
		p.maxReveal = m.k
	}
	if m.kind == kindReveal && m.k+1 > p.revealedTo {
		p.revealedTo = m.k + 1
	}
	// A reveal for roll k proves its sender reached step 2k; an absence
	// vote proves it reached the step it votes at.
	if m.kind == kindReveal && 2*m.k+1 > p.reached {
		p.reached = 2*m.k + 1
	}
	// A move message for roll k proves it went past the move step 2k+1,
	// as the reveal for k+1 that would otherwise carry the move does.
	if m.kind == kindMove && 2*m.k+3 > p.reached {
		p.reached = 2*m.k + 3
	}
	if m.kind == kindAbsent && (m.vote == voteAbsent || m.vote == voteGoOn || m.vote == voteWithdraw) && m.step+1 > p.reached {
		p.reached = m.step + 1
	}
	// A return request for roll r is signed at roll r-returnLead or
	// later: its sender followed the game to there as an absent player,
	// though it signs no reveal while absent (voided counts it only at
	// steps where nobody voted the sender itself absent).
	if m.kind == kindReturn && m.step >= returnLead && 2*(m.step-returnLead)+1 > p.returnReached {
		p.returnReached = 2*(m.step-returnLead) + 1
	}
	if m.from == n.cfg.Self {
		n.mySeq, n.myPrev = m.seq, m.id
		if m.kind == kindReveal && m.k+1 > n.g.myRevealed {
			n.g.myRevealed = m.k + 1
		}
		if m.kind == kindMove && m.k+1 > n.g.myMoved {
			n.g.myMoved = m.k + 1
		}
	}
	if m.kind == kindReturn {
		p.askIdx, p.askStep = len(p.msgs)-1, m.step // our own too (applyReturns)
	}
	if m.kind == kindAbsent || m.kind == kindReturn {
		n.g.onVote(p, m)
	}
	if m.kind == kindTake {
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("a take (seq %d) from a player that holds a seat", m.seq))
	}
	return nil
}

// newMessage signs and accepts a message of the local player.
func (n *Node) newMessage(m *message) error {
	m.game = n.gid
	m.from = n.cfg.Self
	m.seq = n.mySeq + 1
	m.prev = n.myPrev
	if err := m.seal(n.cfg.Key.Sign); err != nil {
		return err
	}
	return n.accept(n.cfg.Self, n.players[n.self], m)
}

func (n *Node) sendConfirm() error {
	return n.newMessage(&message{kind: kindConfirm, chainLen: uint32(n.chainL), anchor: n.chain[0], hasAnchor: true})
}

func (n *Node) sendHave() { n.broadcast(n.have().encode()) }

// have is our status: how many messages of each player we hold in a run.
func (n *Node) have() *have {
	h := &have{game: n.gid, recovering: n.rec != nil}
	for _, p := range n.players {
		h.seqs = append(h.seqs, uint64(len(p.msgs)))
	}
	return h
}

// haveReplyTicks is how often at most we answer one player's status frame
// with ours when it lacks messages we hold: once an absence wait.
func (n *Node) haveReplyTicks() uint64 {
	if n.cfg.AbsentTicks > 0 {
		return uint64(max(n.cfg.AbsentTicks, n.cfg.ResendTicks))
	}
	return DefaultAbsentTicks
}

// maxResend bounds how many messages we re-send one player in answer to
// its status frames per window of resendWindow ticks, however many status
// frames it sends: a status frame costs its sender a few bytes and nothing
// else, so without the bound each one would buy maxResend signed frames
// back. A peer catching up honestly gets maxResend messages a status
// period, as it did when each of its status frames was answered once. In
// bytes that is at most maxResend × MaxMessageSize a window (real
// messages are about 260 bytes: some 17 KB).
const maxResend = 64

// resendWindow is the length, in ticks, of the window maxResend counts in:
// a status period (Config.ResendTicks).
func (n *Node) resendWindow() uint64 { return uint64(n.cfg.ResendTicks) }

// onWayTicks is how long, in ticks, messages we re-sent a player count as
// on their way: its status frames sent meanwhile crossed them. Longer
// holds back the re-send of a lost message and shifts the timing of
// recoveries: with two ticks TestSimFaults seeds 203 and 276 stall, with
// a status period 276 and 1538 (every peer then holds every message: the
// game itself stalls on that timing, not the re-sends).
const onWayTicks = 1

// resent is what we re-sent one player lately in answer to its status
// frames. Messages re-sent within the last onWayTicks are taken as on
// their way and not sent again when it asks before they can have arrived
// (its status frames cross our answers, several a tick when it learns it
// is behind); after that, if its status still lacks them, they were lost
// and go again.
type resent struct {
	window uint64   // tick the current window began
	sent   int      // messages re-sent in it
	upto   []uint64 // per sender: the highest sequence number re-sent
	at     []uint64 // per sender: the tick the run up to upto began at the player's own count
}

// answerHave sends a peer what its status frame says it lacks, relaying
// other players' messages too, so a peer cut off from one player still
// catches up through another: what it lacks and we have not just sent it,
// at most maxResend messages per resendWindow ticks.
func (n *Node) answerHave(from peer.ID, h *have) {
	// A peer that has not seated the latest newcomers yet lists fewer
	// players: it is sent what it lacks of those it lists.
	r := n.resentFor(from)
	if r == nil || from == n.cfg.Self || n.self < 0 || len(h.seqs) > len(n.players) {
		return
	}
	for len(r.upto) < len(n.players) {
		r.upto, r.at = append(r.upto, 0), append(r.at, 0)
	}
	if n.tick-r.window >= n.resendWindow() {
		r.window, r.sent = n.tick, 0
	}
	behind, theyLack := false, false
	for i, p := range n.players[:len(h.seqs)] {
		s := h.seqs[i]
		onWay := r.upto[i] > s && n.tick-r.at[i] < onWayTicks
		if onWay {
			s = r.upto[i] // sent lately: still on its way
		}
		for ; s < uint64(len(p.msgs)) && r.sent < maxResend; s++ {
			n.sendTakesFor(from, p.msgs[s]) // takeseat.go: a seat vote's request first
			n.send(from, p.msgs[s].raw)
			r.sent++
			r.upto[i] = s + 1
			if !onWay {
				// Only a run started at its own count restarts the
				// clock: sending on after a run must not keep a lost
				// message of the run from ever going again.
				r.at[i] = n.tick
			}
		}
		behind = behind || h.seqs[i] > uint64(len(p.msgs))
		theyLack = theyLack || h.seqs[i] < uint64(len(p.msgs))
	}
	q := &player{haveReplied: 1<<64 - 1} // a newcomer: never asked to stop waiting
	if i, ok := n.pidx[from]; ok {
		q = n.players[i]
	}
	switch {
	case behind && n.lastHave != n.tick:
		// They hold what we lack: tell them now rather than at the next
		// period.
		n.lastHave = n.tick
		n.sendHave()
	case theyLack && (q.haveReplied == 0 || n.tick-q.haveReplied >= n.haveReplyTicks()):
		// They lack what we hold, a node just restored for one: tell
		// them what we hold, so a restored node can stop waiting for
		// us (recover.go). Rarely: under drops peers lag all the time,
		// and each answer sets off more status frames and re-sends. Once
		// an absence wait per peer costs 5% more frames in TestSimFaults'
		// first 500 games (5.11 M against 4.87 M without answers), once
		// every 30 ticks 8%, once a period (ResendTicks) 13%.
		q.haveReplied = max(n.tick, 1)
		n.send(from, n.have().encode())
	}
}

// keyCache verifies Ed25519 signatures with the key inside a peer ID.
type keyCache struct{ keys map[peer.ID]crypto.PubKey }

func newKeyCache() *keyCache { return &keyCache{keys: map[peer.ID]crypto.PubKey{}} }

func (c *keyCache) verify(id peer.ID, data, sig []byte) bool {
	k, ok := c.keys[id]
	if !ok {
		var err error
		if k, err = id.ExtractPublicKey(); err != nil {
			return false
		}
		c.keys[id] = k
	}
	ok, err := k.Verify(data, sig)
	return err == nil && ok
}
