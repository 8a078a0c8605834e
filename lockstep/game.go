package lockstep

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"aeroplane/engine"
)

// game is the turn machine: it consumes each player's messages in sequence
// order when the game has reached the step they belong to.
type game struct {
	n *Node
	gstate

	myRevealed uint64 // 1 + the highest roll the local player has revealed
	myMoved    uint64 // 1 + the highest roll the local player sent a Move message for
	wantRoll   bool   // the local player asked to roll
	stats      Stats

	snaps    map[uint64]snapshot // by step, the last snapKeep steps
	lastSnap uint64

	votes   map[voteKey]map[int]uint8 // (who, step) → voter → vote
	myVotes map[voteKey]bool
	returns map[int]uint64 // player → the roll its Return asks for
	asked   map[int]uint64 // player → the roll its latest Return asked for, decided or not
	alone   *aloneAsk      // the lone decision reported at its step (alone.go)
	// owed: player → the roll of a Return we have not voted on yet (it
	// came while we could not sign); paid by payVotes, kept out of
	// snapshots: a vote is owed whatever branch the game takes.
	owed map[int]uint64
	// undoneAt: step → the news count (undoNews) at the last undo to
	// it: a step is undone again only after news, so a disagreement
	// between the live path and the check can never loop.
	undoneAt map[uint64]uint64
	// withdrawn: the absence votes taken back (withdraw.go); holding:
	// player → how long the local player has held the reveal of a player
	// it voted absent at the current step.
	withdrawn withdrawals
	holding   map[int]heldFor
	loopGuard int    // undos refused for want of news (0 in every simulated game)
	guardWhy  string // the last one refused
}

// gstate is the part of the game a snapshot copies.
type gstate struct {
	phase    Phase
	pos      engine.Position
	k        uint64   // roll being collected (PhaseReveal) or played (PhaseMove)
	hist     [32]byte // history hash after move k-1: what every reveal for k must carry
	roll     int
	rollHash [32]byte
	moveMsg  *message // the message whose move was applied for roll k-1
	toldRoll bool     // EventYourRoll sent for this roll
	toldMove bool     // EventYourMove sent for this roll
	// goOns: the exclusions this branch let carry by go-on votes, checked
	// against the votes held as they come (recheckGoOns). Appended
	// copy-on-write, so a snapshot keeps its own.
	goOns []goOnRec
	// settles: every exclusion by votes this branch applied, with the
	// absent set it was settled from, checked against the votes held as
	// they come (rollbackIfExcluded); copy-on-write like goOns.
	settles []settleRec
	// seats: the seat changes of this branch (takeseat.go), appended
	// copy-on-write like goOns.
	seats []seatChange
}

// settleRec is one exclusion by votes: xs excluded at step, settled by
// exclusionAt from the absent set absent.
type settleRec struct {
	step   uint64
	xs     []int
	absent []bool
}

type voteKey struct {
	who  int
	step uint64
}

func (g *game) init(n *Node) {
	g.n = n
	g.phase = PhaseSetup
	g.votes = map[voteKey]map[int]uint8{}
	g.myVotes = map[voteKey]bool{}
	g.returns = map[int]uint64{}
	g.asked = map[int]uint64{}
	g.owed = map[int]uint64{}
	g.undoneAt = map[uint64]uint64{}
	g.withdrawn = withdrawals{}
	g.holding = map[int]heldFor{}
	g.snaps = map[uint64]snapshot{}
	g.lastSnap = 1<<64 - 1
	h := sha256.New()
	h.Write([]byte(historyTag))
	h.Write(n.gid[:])
	h.Sum(g.hist[:0])
}

// peek is player p's next unconsumed positional message (votes are read
// when they arrive, so they are skipped here).
func (g *game) peek(p *player) *message {
	for p.next < len(p.msgs) {
		m := p.msgs[p.next]
		if m.kind == kindAbsent || m.kind == kindReturn || m.kind == kindTake || m.void {
			p.next++
			continue
		}
		return m
	}
	return nil
}

func (g *game) consume(p *player) { p.next++ }

// progress runs the game as far as the inputs allow.
func (n *Node) progress() {
	g := &n.g
	for i := 0; i < 1<<16; i++ {
		g.snapshot()
		if g.rollbackIfExcluded() || g.checkAbsence() || g.checkLeaves() || g.checkReturns() || g.checkTakes() {
			// The absent set changed: settle the step again from it
			// before taking any input of it.
			continue
		}
		moved := false
		switch g.phase {
		case PhaseSetup:
			moved = g.stepSetup() || moved
		case PhaseReveal:
			moved = g.stepReveal() || moved
		case PhaseMove:
			moved = g.stepMove() || moved
		}
		if !moved {
			break
		}
	}
	g.reportWaiting()
	n.reportPaused()
}

func (g *game) stepSetup() bool {
	n := g.n
	moved := false
	all := true
	for _, p := range n.players {
		if p.confirmed {
			continue
		}
		m := g.peek(p)
		if m == nil {
			all = false
			continue
		}
		g.consume(p)
		moved = true
		if m.kind != kindConfirm || m.chainLen < 8 || m.chainLen > 1<<16 {
			n.cheat(p.id, CheatBadMessage, fmt.Sprintf("first message is a %s, not a valid confirm", m.kind))
			all = false
			continue
		}
		p.confirmed = true
		p.chainLen = uint64(m.chainLen)
		p.anchors = [][32]byte{m.anchor}
		p.cur = m.anchor
	}
	if !all {
		return moved
	}
	for i, p := range n.players {
		for _, q := range n.players[:i] {
			if p.anchors[0] == q.anchors[0] {
				n.cheat(p.id, CheatCopiedChain, fmt.Sprintf("committed the same chain anchor as %s (one of them copied; the copy can never reveal a valid link)", short(q.id)))
			}
		}
	}
	n.emit(Event{Kind: EventSetupConfirmed, Peers: n.cfg.Setup.Players()})
	g.phase = PhaseReveal
	g.k = 0
	return true
}

// present reports whether player i's link counts for roll k.
func (g *game) present(i int, k uint64) bool {
	p := g.n.players[i]
	return !(p.absent && 2*k >= p.absentFrom)
}

// botFlies reports whether a bot flies player i's seat for the move of roll k.
func (g *game) botFlies(i int, k uint64) bool {
	p := g.n.players[i]
	return p.absent && 2*k+1 >= p.absentFrom
}

// mayReveal reports whether the local player may reveal its link for roll k now.
func (g *game) mayReveal() bool {
	n := g.n
	if g.k == 0 || g.pos.GameOver() {
		return true
	}
	if n.seat[g.pos.ToMove()] != n.self {
		return true
	}
	if n.cfg.AutoRoll || g.wantRoll {
		return true
	}
	if !g.toldRoll {
		g.toldRoll = true
		n.emit(Event{Kind: EventYourRoll, Roll: g.k, Colour: g.pos.ToMove()})
	}
	return false
}

func (g *game) stepReveal() bool {
	n := g.n
	moved := false
	if n.self >= 0 && n.maySign() && g.present(n.self, g.k) && g.myRevealed <= g.k && !g.ownPending(g.k) && g.mayReveal() {
		g.wantRoll = false
		if err := g.sendReveal(g.k, g.hist, nil); err != nil {
			g.halt(err.Error())
			return false
		}
		moved = true
	}
	all := true
	for i, p := range n.players {
		if !g.present(i, g.k) || p.have {
			continue
		}
		if !g.blocked(i, 2*g.k) && g.takeReveal(p) {
			moved = true
		}
		if !p.have {
			all = false
		}
	}
	if !all || g.returnPending(g.k) || g.takePending(g.k) {
		return moved
	}
	if g.pos.GameOver() {
		g.phase = PhaseOver
		e := Event{Kind: EventGameOver, Ranking: g.pos.Ranking(), History: g.hist}
		if len(g.goOns) > 0 {
			// alone.go: the other half of a split may settle it otherwise
			// when they meet, and this node then rolls back.
			e.Detail = "finished while going on without " + shortList(g.idsOf(g.goOns[0].xs)) + ": final unless they went on too and come back"
		}
		n.emit(e)
		return true
	}
	g.settleTakes() // takeseat.go: decided with the players of this roll
	var cs []Contribution
	for i, p := range n.players {
		if g.present(i, g.k) {
			cs = append(cs, Contribution{Player: p.id, Link: p.link})
		}
		p.have = false
	}
	g.rollHash = RollHash(n.gid, g.k, cs)
	if g.k == 0 {
		colours := n.cfg.Setup.Colours()
		first := colours[Sample(g.rollHash, len(colours))]
		pos, err := engine.NewGame(colours...)
		if err == nil {
			pos, err = pos.WithToMove(first)
		}
		if err != nil {
			g.halt(err.Error())
			return false
		}
		g.pos = pos
		g.hist = nextHist(g.hist, 0, 0, engine.Move{Colour: first}, g.pos, n.rules, g.absentMask())
		n.emit(Event{Kind: EventGameStarted, Colour: first})
		g.k = 1
		g.toldRoll = false
		return true
	}
	g.roll = Die(g.rollHash)
	g.phase = PhaseMove
	g.toldMove = false
	n.emit(Event{Kind: EventRolled, Roll: g.k, Colour: g.pos.ToMove(), Value: g.roll})
	return true
}

// takeReveal consumes player p's next message if it is its reveal for the
// current roll; a bad one is consumed, reported and not applied.
func (g *game) takeReveal(p *player) bool {
	n := g.n
	m := g.peek(p)
	if m == nil {
		return false
	}
	if m.kind == kindReveal && m.k > g.k || m.kind == kindMove && m.k >= g.k {
		nm := g.supersede(p, g.k)
		switch {
		case nm != nil:
			m = nm
		case m.kind == kindMove && !p.wasAbsent:
			// A move for a roll not derived yet: the sender cannot know
			// it, and only a rollback leaves such a move queued.
			g.consume(p)
			n.cheat(p.id, CheatOutOfTurn, fmt.Sprintf("move %s for roll %d while roll %d is being collected", m.move, m.k, g.k))
			return true
		default:
			return false // the sender is one roll ahead of us
		}
	}
	g.consume(p)
	switch {
	case m.kind == kindMove && m.k < g.k && p.wasAbsent:
		return true // moved on a branch undone by its exclusion: stale, not cheating
	case m.kind == kindMove && m.k+1 == g.k:
		g.cheatMove(p, m)
		return true
	case m.kind == kindMove:
		n.cheat(p.id, CheatStaleMessage, fmt.Sprintf("move for roll %d when roll %d is being collected", m.k, g.k))
		return true
	case m.kind != kindReveal:
		n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a second %s", m.kind))
		return true
	case m.k < g.k && p.wasAbsent:
		return true // revealed while it was voted absent: stale, not cheating
	case m.k < g.k:
		n.cheat(p.id, CheatStaleMessage, fmt.Sprintf("reveal for roll %d when roll %d is being collected", m.k, g.k))
		return true
	case m.hasMove && m != g.moveMsg:
		g.cheatMove(p, &message{k: m.k - 1, move: m.move})
		return true
	}
	if err := g.checkLink(p, m.k, m.link); err != nil {
		n.cheat(p.id, CheatBadReveal, err.Error())
		return true
	}
	if m.state != g.hist {
		n.emit(Event{Kind: EventStateMismatch, Peer: p.id, Roll: m.k,
			Detail: fmt.Sprintf("its state hash %x, ours %x", m.state[:6], g.hist[:6])})
		return true
	}
	if m.hasAnchor {
		e := m.k/p.chainLen + 1
		switch {
		case uint64(len(p.anchors)) == e:
			p.anchors = append(p.anchors, m.anchor)
		case uint64(len(p.anchors)) > e && p.anchors[e] != m.anchor:
			n.cheat(p.id, CheatBadReveal, fmt.Sprintf("changed its committed anchor for chain epoch %d", e))
			return true
		}
	}
	g.commitLink(p, m.k, m.link)
	p.have = true
	p.link = m.link
	return true
}

// cheatMove names the sender of a move for roll m.k that was not applied:
// it was not to move, or its move was for a seat it does not own.
func (g *game) cheatMove(p *player, m *message) {
	n := g.n
	if mm := g.moveMsg; mm != nil && mm.from == p.id && m.k+1 == g.k {
		n.cheat(p.id, CheatOutOfTurn, fmt.Sprintf("a second move %s for roll %d, which it already moved for", m.move, m.k))
		return
	}
	if m.move.Kind == engine.PlaneMove && n.seat[m.move.Colour] != n.pidx[p.id] {
		n.cheat(p.id, CheatWrongSeat, fmt.Sprintf("move %s for roll %d for the %s seat, which it does not own", m.move, m.k, m.move.Colour))
	} else {
		n.cheat(p.id, CheatOutOfTurn, fmt.Sprintf("move %s for roll %d when it was not to move", m.move, m.k))
	}
}

// checkLink verifies that link is p's chain value for roll k, hashing
// forward to the last link (or anchor) p revealed.
func (g *game) checkLink(p *player, k uint64, link [32]byte) error {
	e, j := k/p.chainLen, k%p.chainLen+1
	var want [32]byte
	var steps uint64
	switch {
	case e == p.epoch && j > p.j:
		want, steps = p.cur, j-p.j
	case e > p.epoch && e < uint64(len(p.anchors)):
		want, steps = p.anchors[e], j
	case e > p.epoch:
		return fmt.Errorf("reveal for roll %d needs chain epoch %d, which it never committed", k, e)
	default:
		return fmt.Errorf("reveal for roll %d is behind its last revealed link", k)
	}
	x := link
	for s := uint64(0); s < steps; s++ {
		x = ChainStep(g.n.gid, p.id, x)
	}
	if x != want {
		return fmt.Errorf("link for roll %d does not hash to its committed chain", k)
	}
	return nil
}

func (g *game) commitLink(p *player, k uint64, link [32]byte) {
	p.epoch, p.j, p.cur = k/p.chainLen, k%p.chainLen+1, link
}

// sendReveal signs the local reveal for roll k carrying state; mv is the
// local move for roll k-1 it carries, if any.
func (g *game) sendReveal(k uint64, state [32]byte, mv *engine.Move) error {
	n := g.n
	link, anchor, hasAnchor := n.myLink(k)
	m := &message{kind: kindReveal, k: k, link: link, state: state, anchor: anchor, hasAnchor: hasAnchor}
	if mv != nil {
		m.hasMove, m.move = true, *mv
	}
	return n.newMessage(m)
}

// myLink is the local link for roll k, and the next epoch's anchor when k
// is among the last links of its epoch (so the chain is extended, signed
// and logged before it runs out).
func (n *Node) myLink(k uint64) (link, anchor [32]byte, hasAnchor bool) {
	e, j := uint32(k/n.chainL), k%n.chainL+1
	if e != n.chainEpoch {
		n.chainEpoch = e
		n.chain = buildChain(n.gid, n.cfg.Self, e, n.cfg.Entropy, int(n.chainL))
	}
	link = n.chain[j]
	margin := min(64, n.chainL/4)
	if k%n.chainL >= n.chainL-margin {
		next := buildChain(n.gid, n.cfg.Self, e+1, n.cfg.Entropy, int(n.chainL))
		anchor, hasAnchor = next[0], true
	}
	return link, anchor, hasAnchor
}

// supersede handles a sender that rolled back: its tentative reveals (and
// move messages) for later rolls sit in its queue before its new reveal for
// roll limit or an earlier one, or its move message for an earlier roll.
// The later message of an earlier roll supersedes them: they are skipped
// (never applied) and the new one is returned. Honest senders that never
// rolled back never produce this pattern.
func (g *game) supersede(p *player, limit uint64) *message {
	for j := p.next + 1; j < len(p.msgs); j++ {
		if m := p.msgs[j]; !m.void && (m.kind == kindReveal && m.k <= limit || m.kind == kindMove && m.k < limit) {
			p.next = j
			return m
		}
	}
	return nil
}

// ownPending reports whether the local player's queue still holds an
// unconsumed reveal for roll k (after a rollback its old one is re-read).
func (g *game) ownPending(k uint64) bool {
	me := g.n.players[g.n.self]
	for j := me.next; j < len(me.msgs); j++ {
		if m := me.msgs[j]; m.kind == kindReveal && m.k == k {
			return true
		}
	}
	return false
}

// mover is the player index flying the colour to move (-1: a bot seat).
func (g *game) mover() int { return g.n.seat[g.pos.ToMove()] }

// waitingChoice reports whether the game waits for the local player's Choose.
func (g *game) waitingChoice() bool {
	if g.phase != PhaseMove || g.n.self < 0 {
		return false
	}
	outs := g.pos.Outcomes(g.n.rules, g.roll)
	return outs.Len() > 1 && g.mover() == g.n.self && !g.botFlies(g.n.self, g.k) && g.myRevealed <= g.k+1 && g.myMoved <= g.k
}

func (g *game) stepMove() bool {
	n := g.n
	outs := g.pos.Outcomes(n.rules, g.roll)
	owner := g.mover()
	switch {
	case outs.Len() == 1:
		return g.apply(outs.At(0), nil)
	case owner < 0 || g.botFlies(owner, g.k):
		c := g.pos.ToMove()
		return g.apply(n.bots[c].Choose(&g.pos, n.rules, g.roll, &outs, BotSeed(g.rollHash)), nil)
	}
	p := n.players[owner]
	if g.blocked(owner, 2*g.k+1) {
		// Voted absent here, the local player may still choose: its
		// move is not taken while the vote stands, but the message
		// shows everyone it went past the step, which voids an absence
		// vote cast at the step before by a player still there
		// (voided; seed 10430: a restored mover voted absent while it
		// recovered, and a vote on another at the roll's collection
		// that only its next message could void).
		if owner == n.self && n.maySign() && !g.toldMove && g.waitingChoice() && g.peek(p) == nil {
			g.toldMove = true
			n.emit(Event{Kind: EventYourMove, Roll: g.k, Value: g.roll, Colour: g.pos.ToMove(), Moves: outs.Slice()})
		}
		return false
	}
	m := g.peek(p)
	if m != nil && (m.kind == kindReveal && m.k > g.k+1 || m.kind == kindMove && m.k > g.k) {
		if nm := g.supersede(p, g.k+1); nm != nil {
			m = nm
		}
	}
	if m == nil {
		if owner == n.self && n.maySign() && !g.toldMove {
			g.toldMove = true
			n.emit(Event{Kind: EventYourMove, Roll: g.k, Value: g.roll, Colour: g.pos.ToMove(), Moves: outs.Slice()})
		}
		return false
	}
	isMove := m.kind == kindMove && m.k == g.k
	if m.kind == kindMove && m.k < g.k {
		g.consume(p)
		g.cheatMove(p, m)
		return true
	}
	if !isMove && (m.kind != kindReveal || m.k != g.k+1 || !m.hasMove) {
		g.consume(p)
		n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a %s for roll %d without the move it owes for roll %d", m.kind, m.k, g.k))
		return true
	}
	if m.move.Kind == engine.PlaneMove && n.seat[m.move.Colour] != owner {
		g.consume(p)
		n.cheat(p.id, CheatWrongSeat, fmt.Sprintf("move %s for the %s seat, which it does not own", m.move, m.move.Colour))
		return true
	}
	next, _, err := g.pos.Play(n.rules, g.roll, m.move)
	if err != nil {
		g.consume(p)
		n.cheat(p.id, CheatIllegalMove, err.Error())
		return true
	}
	// A move says which state it leads to (a reveal for k+1 carries the
	// history after move k); one that leads elsewhere was made on another
	// history, such as a branch its sender undid, and is not applied.
	if h := g.seatHist(nextHist(g.hist, g.k, g.roll, m.move, next, n.rules, g.absentMask())); m.state != h {
		g.consume(p)
		n.emit(Event{Kind: EventStateMismatch, Peer: p.id, Roll: g.k,
			Detail: fmt.Sprintf("its move leads to state hash %x, ours %x", m.state[:6], h[:6])})
		return true
	}
	if isMove {
		g.consume(p)
	}
	return g.apply(m.move, m)
}

// choose is the local player's move: it is applied through the same path as
// anyone else's, from the local player's own signed message.
func (g *game) choose(mv engine.Move) error {
	n := g.n
	if !g.waitingChoice() {
		return fmt.Errorf("choose %s: it is not your move now (phase %s, roll %d)", mv, g.phase, g.k)
	}
	if !n.maySign() {
		return fmt.Errorf("choose %s: %w", mv, ErrRecovering)
	}
	next, _, err := g.pos.Play(n.rules, g.roll, mv)
	if err != nil {
		return fmt.Errorf("choose %s: %w", mv, err)
	}
	h := g.seatHist(nextHist(g.hist, g.k, g.roll, mv, next, n.rules, g.absentMask()))
	if !n.cfg.AutoRoll && !next.GameOver() && n.seat[next.ToMove()] == n.self {
		// The player rolls again: its link for roll k+1 must wait for
		// its key, so the move goes out alone.
		return n.newMessage(&message{kind: kindMove, k: g.k, state: h, hasMove: true, move: mv})
	}
	return g.sendReveal(g.k+1, h, &mv)
}

// apply plays a move checked legal and moves on to the next roll.
func (g *game) apply(mv engine.Move, from *message) bool {
	n := g.n
	c := g.pos.ToMove()
	next, res, err := g.pos.Play(n.rules, g.roll, mv)
	if err != nil {
		g.halt("internal: " + err.Error())
		return false
	}
	n.emit(Event{Kind: EventMoved, Roll: g.k, Colour: c, Value: g.roll, Move: mv, Result: res, Pos: next})
	if !next.GameOver() && res.Next != c {
		n.emit(Event{Kind: EventTurnPassed, Colour: res.Next})
	}
	g.hist = g.seatHist(nextHist(g.hist, g.k, g.roll, mv, next, n.rules, g.absentMask()))
	g.pos = next
	g.k++
	g.phase = PhaseReveal
	g.moveMsg = from
	g.toldRoll, g.toldMove = false, false
	return true
}

// absentMask has bit i set for each player whose seat a bot flies now, so
// the history hash covers every exclusion.
func (g *game) absentMask() uint8 {
	var m uint8
	for i, p := range g.n.players {
		if p.absent {
			m |= 1 << i
		}
	}
	return m
}

// nextHist chains the history: H(tag ‖ prev ‖ k ‖ roll ‖ move ‖ absent ‖ state hash of pos).
func nextHist(prev [32]byte, k uint64, roll int, mv engine.Move, pos engine.Position, rules engine.Rules, absent uint8) [32]byte {
	var b []byte
	b = append(b, historyTag...)
	b = append(b, prev[:]...)
	b = binary.BigEndian.AppendUint64(b, k)
	b = append(b, uint8(roll), uint8(mv.Kind), uint8(mv.Colour), mv.Plane, absent)
	ph := pos.Hash(rules)
	b = append(b, ph[:]...)
	return sha256.Sum256(b)
}

func (g *game) halt(why string) {
	if g.phase == PhaseHalted {
		return
	}
	g.phase = PhaseHalted
	g.n.emit(Event{Kind: EventHalted, Roll: g.k, Detail: why})
}

// awaiting has bit i set for each player whose input the game waits for.
func (g *game) awaiting() uint8 {
	n := g.n
	var w uint8
	switch g.phase {
	case PhaseSetup:
		for i, p := range n.players {
			if !p.confirmed {
				w |= 1 << i
			}
		}
	case PhaseReveal:
		for i, p := range n.players {
			if !p.have && g.present(i, g.k) {
				w |= 1 << i
			}
		}
	case PhaseMove:
		outs := g.pos.Outcomes(n.rules, g.roll)
		if o := g.mover(); outs.Len() > 1 && o >= 0 && !g.botFlies(o, g.k) {
			w |= 1 << o
		}
	}
	return w
}

func (g *game) reportWaiting() {
	n := g.n
	mask := g.awaiting()
	paused := g.gamePaused()
	key := waitKey{g.phase, g.k, mask, paused}
	if key == n.lastWait {
		return
	}
	n.lastWait = key
	for _, p := range n.players {
		p.waited = 0
	}
	// A paused game waits for nobody's input; once it goes on, what it
	// waits for is news again (a screen shown the pause, or one restored
	// since, asks anew).
	if mask != 0 && g.phase != PhaseSetup && !paused {
		n.emit(Event{Kind: EventWaiting, Roll: g.k, Peers: n.ids(mask)})
	}
}

type waitKey struct {
	phase  Phase
	k      uint64
	mask   uint8
	paused bool
}

// onEquivocation stops the game: with two signed versions of one input in
// circulation, honest peers may have applied different ones, and no local
// rule can tell which the others finalised. Safety over liveness: a halted
// peer never finalises another roll, so no two honest histories diverge.
func (g *game) onEquivocation(p *player, held, other *message) {
	g.halt(fmt.Sprintf("%s signed two different messages with sequence %d", short(p.id), held.seq))
}
