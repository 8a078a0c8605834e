package lockstep

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sort"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A late arrival takes a seat (PROTOCOL.md, "Taking a seat"):
//
//   - A peer that holds no seat (a newcomer) signs Take(colour, r, chain
//     length, anchor) as its own hash-linked run from sequence 1. The
//     first, with r = 0, only says hello: it commits the newcomer's chain
//     and seat, and lets the players answer its status frames, so it
//     catches up. Once caught up it asks with r > 0: "let me fly colour
//     from roll r".
//   - Every player votes on each request (seat-yes / seat-no, the same
//     binding votes as a return): yes when it has not reached roll r.
//     Nobody derives roll r before every present player's vote is in.
//   - The request is decided as roll r is derived, from the votes of
//     exactly the players whose links make roll r (the same on every
//     peer; anyone else's vote counts for nothing): all yes agrees it,
//     unless the branch went on without a majority (alone.go).
//   - At the collection of roll r+1 (not derived before) the agreed
//     requests are seated in (colour, message id) order: a seat a bot
//     flies (a bot seat or a left player's) goes to the first of them;
//     one a person holds is refused and named seat-held; an anchor equal
//     to a seated player's is named copied-chain. The newcomer is
//     appended to the players then, so every peer numbers it alike, its
//     link counts from roll r+1 and it flies the seat from that move,
//     which binds the seat change into the history hash.
//   - Its chain is bound to its own peer ID (ChainStep), so reusing
//     another seat's chain never verifies; changing its committed chain,
//     asking twice at once or anything but a Take before it is seated is
//     named (bad-take, no-seat) and never applied.

// Take makes a node a newcomer asking for a seat of a running game
// (Config.Take): Self need not be in the Setup.
type Take struct {
	Colour engine.Colour
}

// Bounds on what peers without a seat can make a node keep.
const (
	maxNewcomers  = 8  // newcomers held at once; later ones are refused unread
	maxTakes      = 16 // Take messages one newcomer may sign
	maxPlayers    = 8  // players per game, seated newcomers included (uint8 masks)
	maxPendAhead  = 64 // early messages buffered per newcomer
	takeAheadRoll = 4  // a request names a roll this far past the front
)

// seat votes carried by kindAbsent (who: the newcomer, step: its roll r)
const (
	voteSeatYes = 4
	voteSeatNo  = 5
)

// isSeatVote reports whether vote v is a seat vote.
func isSeatVote(v uint8) bool { return v == voteSeatYes || v == voteSeatNo }

// newcomer is what a node holds of a peer asking for a seat.
type newcomer struct {
	id       peer.ID
	msgs     []*message // its run while unseated: Take messages only
	future   map[uint64]*message
	colour   engine.Colour
	anchor   [32]byte
	chainLen uint64
	r        uint64 // roll of its latest request (0: none)
	reqID    [32]byte
	settled  map[uint64]bool // rolls whose request is settled (on this branch)
	approved map[uint64]bool // rolls whose request all voted yes: seated at the next roll
	votes    map[uint64]map[int]uint8
	owed     bool // a request the local player has not voted on yet
	resent   resent
	seated   bool
	// player is its record while seated, kept when a rollback takes
	// the seat back: the messages it holds are accepted and logged
	// once, and come back with the seat.
	player *player
	named  bool // its no-seat cheat was reported
	// deferred: votes about it (absence, return) that came before this
	// node seated it, read when it does.
	deferred []deferredVote
}

type deferredVote struct {
	voter int
	m     *message
}

// deferVote keeps a vote about a newcomer this node has not seated yet
// (its voters are ahead); false if who is no newcomer.
func (g *game) deferVote(voter int, m *message) bool {
	nc := g.n.take.pend[m.who]
	if nc == nil {
		return false
	}
	if len(nc.deferred) < maxPendAhead {
		nc.deferred = append(nc.deferred, deferredVote{voter, m})
	}
	return true
}

// seatChange is one seat handed over in the agreed history.
type seatChange struct {
	colour engine.Colour
	from   int // previous owner (-1: a bot seat)
	to     int // the newcomer's player index
	roll   uint64
}

// takeState is the node's part of seat changes.
type takeState struct {
	pend    map[peer.ID]*newcomer
	mine    *newcomer // the local newcomer's own record (Config.Take)
	lastAsk uint64    // tick the local newcomer last sent its requests
}

// onTake checks the local config of a newcomer node.
func (n *Node) initTake() error {
	n.take.pend = map[peer.ID]*newcomer{}
	if n.cfg.Take == nil {
		return nil
	}
	c := n.cfg.Take.Colour
	if c >= engine.NumColours || n.seat[c] == -2 {
		return fmt.Errorf("%w: take: colour %d is not in play", ErrBadSetup, c)
	}
	return nil
}

// receiveNewcomer handles a message from a sender that holds no seat.
func (n *Node) receiveNewcomer(from peer.ID, m *message) error {
	nc := n.take.pend[m.from]
	if nc == nil {
		if m.kind != kindTake || m.seq != 1 {
			n.g.stats.Rejected++
			return fmt.Errorf("message from %s, who holds no seat in this game", short(m.from))
		}
		if len(n.take.pend) >= maxNewcomers {
			n.g.stats.Rejected++
			return fmt.Errorf("take from %s: %d newcomers already ask for seats", short(m.from), maxNewcomers)
		}
	}
	var held *message
	if nc != nil && nc.player != nil && m.seq <= uint64(len(nc.player.msgs)) {
		held = nc.player.msgs[m.seq-1]
	} else if nc != nil && m.seq <= uint64(len(nc.msgs)) {
		held = nc.msgs[m.seq-1]
	} else if nc != nil {
		held = nc.future[m.seq]
	}
	if held != nil && equalRaw(held, m) {
		n.g.stats.Duplicates++
		return nil
	}
	if !n.verify(m.from, m.signedPart(), m.sig) {
		n.g.stats.Rejected++
		return fmt.Errorf("%s seq %d from %s: bad signature", m.kind, m.seq, short(m.from))
	}
	m.id = sha256.Sum256(m.raw)
	if held != nil {
		n.g.stats.Rejected++
		n.cheat(m.from, CheatEquivocation, fmt.Sprintf("two different signed messages with sequence %d (%x, %x)", m.seq, held.id[:6], m.id[:6]))
		return nil
	}
	if nc == nil {
		nc = newNewcomer(m.from)
		n.take.pend[m.from] = nc
	}
	if m.seq > uint64(len(nc.msgs))+1 {
		if len(nc.future) >= maxPendAhead {
			n.g.stats.Rejected++
			return fmt.Errorf("%s seq %d from %s: newcomer buffer full", m.kind, m.seq, short(m.from))
		}
		nc.future[m.seq] = m
		n.g.stats.Buffered++
		return nil
	}
	n.acceptNewcomer(from, nc, m)
	for {
		nm := nc.future[uint64(len(nc.msgs))+1]
		if nm == nil || nc.seated || nm.kind != kindTake {
			return nil
		}
		delete(nc.future, nm.seq)
		n.acceptNewcomer(from, nc, nm)
	}
}

// acceptNewcomer appends the next message of an unseated newcomer; only
// Take messages enter its run, anything else waits (future) for its seat.
func (n *Node) acceptNewcomer(from peer.ID, nc *newcomer, m *message) {
	var prev [32]byte
	if len(nc.msgs) > 0 {
		prev = nc.msgs[len(nc.msgs)-1].id
	}
	if m.prev != prev {
		n.g.stats.Rejected++
		n.cheat(m.from, CheatBadLink, fmt.Sprintf("%s seq %d does not link to its sender's previous message", m.kind, m.seq))
		return
	}
	if m.kind != kindTake {
		// It flies a seat nobody gave it: kept aside, applied only
		// if a request of its own is agreed before it.
		if len(nc.future) < maxPendAhead {
			nc.future[m.seq] = m
		}
		if !nc.open() {
			n.nameNoSeat(nc, m)
		}
		return
	}
	switch {
	case len(nc.msgs) >= maxTakes:
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("more than %d take requests", maxTakes))
		return
	case len(nc.msgs) > 0 && (m.colour != nc.colour || m.anchor != nc.anchor || uint64(m.chainLen) != nc.chainLen):
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("take seq %d changes the seat or the chain it committed to", m.seq))
		return
	case m.colour >= engine.NumColours || n.seat[m.colour] == -2:
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("a take for colour %d, which is not in play", m.colour))
		return
	case m.chainLen < 8 || m.chainLen > 1<<16:
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("a take with chain length %d", m.chainLen))
		return
	case m.k != 0 && nc.open():
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("a request for roll %d while its request for roll %d is open", m.k, nc.r))
		return
	case m.k != 0 && m.k <= nc.r:
		n.cheat(m.from, CheatBadTake, fmt.Sprintf("a request for roll %d after one for roll %d", m.k, nc.r))
		return
	}
	nc.msgs = append(nc.msgs, m)
	nc.colour, nc.anchor, nc.chainLen = m.colour, m.anchor, uint64(m.chainLen)
	n.g.stats.Accepted++
	n.entries = append(n.entries, Record{Type: RecordMessage, Data: m.raw})
	if m.from == n.cfg.Self {
		n.mySeq, n.myPrev = m.seq, m.id
		n.send("", m.raw)
	} else if !n.restoring && n.self >= 0 {
		n.broadcast(m.raw, from, m.from) // pushed on like a vote: every player must vote
	}
	if m.k != 0 {
		nc.r, nc.reqID = m.k, m.id
		nc.owed = n.self >= 0
		n.g.payTakeVotes()
	}
}

// open reports whether nc's latest request waits to be settled.
func (nc *newcomer) open() bool { return nc.r != 0 && !nc.settled[nc.r] }

// rolls lists the rolls nc asked for or was voted on, in order.
func (nc *newcomer) rolls() []uint64 {
	var rs []uint64
	for r := range nc.votes {
		rs = append(rs, r)
	}
	if nc.r != 0 && nc.votes[nc.r] == nil {
		rs = append(rs, nc.r)
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a] < rs[b] })
	return rs
}

// newNewcomer makes the record of a peer asking for a seat.
func newNewcomer(id peer.ID) *newcomer {
	return &newcomer{id: id, future: map[uint64]*message{}, votes: map[uint64]map[int]uint8{}, settled: map[uint64]bool{}, approved: map[uint64]bool{}}
}

// nameNoSeat reports a newcomer that signed a turn's message without an
// agreed seat.
func (n *Node) nameNoSeat(nc *newcomer, m *message) {
	if nc.named {
		return
	}
	nc.named = true
	n.cheat(nc.id, CheatNoSeat, fmt.Sprintf("a %s (seq %d) for the %s seat, which nobody agreed to give it", m.kind, m.seq, nc.colour))
}

// onSeatVote records a player's vote on a newcomer's request.
func (g *game) onSeatVote(voter int, m *message) {
	nc := g.n.take.pend[m.who]
	if nc == nil {
		// A peer catching up may hold the votes before the Take they
		// are on (answerHave sends the Takes too): kept until it comes.
		if len(g.n.take.pend) >= maxNewcomers {
			return
		}
		nc = newNewcomer(m.who)
		g.n.take.pend[m.who] = nc
	}
	vs := nc.votes[m.step]
	if vs == nil {
		if len(nc.votes) >= maxTakes {
			return
		}
		vs = map[int]uint8{}
		nc.votes[m.step] = vs
	}
	if _, dup := vs[voter]; !dup {
		vs[voter] = m.vote
	}
}

// payTakeVotes signs the local player's vote on each open request.
func (g *game) payTakeVotes() {
	n := g.n
	if n.self < 0 || !n.maySign() || g.phase == PhaseSetup {
		return
	}
	for _, nc := range n.take.sorted() {
		if !nc.owed {
			continue
		}
		nc.owed = false
		if _, done := nc.votes[nc.r][n.self]; done {
			continue
		}
		v := uint8(voteSeatYes)
		if g.k >= nc.r || g.phase == PhaseOver || g.phase == PhaseHalted {
			v = voteSeatNo
		}
		if err := n.newMessage(&message{kind: kindAbsent, who: nc.id, step: nc.r, vote: v}); err != nil {
			g.halt(err.Error())
			return
		}
	}
}

// sorted lists the newcomers by peer ID, for a deterministic order.
func (t *takeState) sorted() []*newcomer {
	out := make([]*newcomer, 0, len(t.pend))
	for _, nc := range t.pend {
		out = append(out, nc)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].id < out[b].id })
	return out
}

// seatVotes counts the votes on nc's request for roll r among the
// players present now.
func (g *game) seatVotes(nc *newcomer, r uint64) (yes, no int, done bool) {
	vs := nc.votes[r]
	missing := 0
	for j, q := range g.n.players {
		if q.absent || g.seatedSince(j) >= r {
			continue // a newcomer seated at r or later holds no vote on it
		}
		switch v, ok := vs[j]; {
		case !ok && q.leaving:
		case !ok:
			missing++
		case v == voteSeatYes:
			yes++
		default:
			no++
		}
	}
	return yes, no, missing == 0
}

// takePending reports whether roll k must not be derived yet: a
// request for roll k still waits for a present player's vote (or, with
// votes held, for the Take itself), or a request agreed at roll k-1 has
// not seated its newcomer yet.
func (g *game) takePending(k uint64) bool {
	for _, nc := range g.n.take.pend {
		if k == 0 || nc.seated {
			continue
		}
		if k > 1 && nc.approved[k-1] {
			return true
		}
		if nc.settled[k] || nc.votes[k] == nil && nc.r != k {
			continue
		}
		// Votes for roll k without its Take (a peer catching up gets
		// votes first): wait for the Take, every vote may be yes.
		if _, no, done := g.seatVotes(nc, k); no == 0 && (!done || nc.r != k) {
			return true
		}
	}
	return false
}

// settleTakes decides the requests for roll k as roll k is derived:
// the players present then are the ones whose links make the roll, the
// same on every peer, and all their votes are in (takePending); a vote
// of anyone else (a player excluded, on a branch it undid) counts for
// nothing. All yes: the newcomer is seated at the next roll.
func (g *game) settleTakes() {
	n := g.n
	for _, nc := range n.take.sorted() {
		r := g.k
		if nc.seated || nc.settled[r] || nc.r != r {
			continue
		}
		nc.settled[r] = true
		// A branch that went on without a majority is provisional
		// (alone.go): it hands no seat over, so halves that meet again
		// never differ in who sits at the table.
		if yes, no, _ := g.seatVotes(nc, r); no == 0 && yes > 0 && len(g.goOns) == 0 {
			nc.approved[r] = true
			continue
		}
		n.emit(Event{Kind: EventSeatRefused, Peer: nc.id, Colour: nc.colour, Roll: r,
			Detail: fmt.Sprintf("not every player agreed to seat it from roll %d", r)})
		if nm := nc.future[uint64(len(nc.msgs))+1]; nm != nil {
			n.nameNoSeat(nc, nm)
		}
	}
}

// checkTakes seats the newcomers agreed at the previous roll, in
// (colour, Take message ID) order, at the collection of this roll, and
// refuses a request this node learns of only after its roll.
func (g *game) checkTakes() bool {
	n := g.n
	g.payTakeVotes()
	if g.phase != PhaseReveal || g.k == 0 {
		return false
	}
	var ready []*newcomer
	for _, nc := range n.take.sorted() {
		if nc.seated {
			continue
		}
		for _, r := range nc.rolls() {
			if nc.settled[r] || r >= g.k {
				continue
			}
			// Roll r was derived here without a decision: this node
			// voted no (it had passed r), so nobody seats it.
			nc.settled[r] = true
			n.emit(Event{Kind: EventSeatRefused, Peer: nc.id, Colour: nc.colour, Roll: r,
				Detail: fmt.Sprintf("asked for roll %d, which the game had passed", r)})
			if nm := nc.future[uint64(len(nc.msgs))+1]; nm != nil && !nc.open() {
				n.nameNoSeat(nc, nm)
			}
		}
		if nc.approved[g.k-1] {
			ready = append(ready, nc)
		}
	}
	sort.Slice(ready, func(a, b int) bool {
		if ready[a].colour != ready[b].colour {
			return ready[a].colour < ready[b].colour
		}
		return bytes.Compare(ready[a].reqID[:], ready[b].reqID[:]) < 0
	})
	moved := false
	for _, nc := range ready {
		delete(nc.approved, g.k-1)
		moved = true
		if why, cheat := g.refuseSeat(nc); why != "" {
			if cheat != 0 {
				n.cheat(nc.id, cheat, why)
			}
			n.emit(Event{Kind: EventSeatRefused, Peer: nc.id, Colour: nc.colour, Roll: g.k, Detail: why})
			continue
		}
		g.seatNewcomer(nc)
	}
	return moved
}

// refuseSeat says why nc may not have its seat at this roll ("" if it may).
func (g *game) refuseSeat(nc *newcomer) (string, Cheat) {
	n := g.n
	owner := n.seat[nc.colour]
	if owner >= 0 && !n.players[owner].left {
		for _, sc := range g.seats {
			if sc.to == owner {
				return fmt.Sprintf("the %s seat is flown by %s since roll %d", nc.colour, short(n.players[owner].id), sc.roll), 0
			}
		}
		return fmt.Sprintf("asked for the %s seat, which %s holds", nc.colour, short(n.players[owner].id)), CheatSeatHeld
	}
	for _, p := range n.players {
		for _, a := range p.anchors {
			if a == nc.anchor {
				return fmt.Sprintf("committed the chain anchor of %s", short(p.id)), CheatCopiedChain
			}
		}
	}
	if len(n.players) >= maxPlayers {
		return fmt.Sprintf("the table holds %d players already", maxPlayers), 0
	}
	return "", 0
}

// seatNewcomer hands nc the seat of its colour from the current roll.
func (g *game) seatNewcomer(nc *newcomer) {
	n := g.n
	j := len(n.players)
	p := nc.player
	if p == nil {
		p = &player{id: nc.id, colour: nc.colour, msgs: nc.msgs, future: nc.future}
	} else {
		for s, m := range nc.future {
			p.future[s] = m
		}
	}
	p.pstate = pstate{}
	p.next, p.confirmed, p.chainLen = len(nc.msgs), true, nc.chainLen
	p.anchors, p.cur = [][32]byte{nc.anchor}, nc.anchor
	p.heardAt = n.tick
	from := n.seat[nc.colour]
	n.players = append(n.players, p)
	n.pidx[nc.id] = j
	if len(g.goOns) > 0 {
		// Go-on exclusions before its seat count it as absent there.
		ons := make([]goOnRec, len(g.goOns))
		for i, r := range g.goOns {
			r.absent = append(append([]bool(nil), r.absent...), true)
			ons[i] = r
		}
		g.goOns = ons
	}
	if r := n.rec; r != nil && len(r.holds) <= j {
		// A node recovering after a restore waits to hear from it too.
		r.holds, r.lastFrame = append(r.holds, 0), append(r.lastFrame, n.tick)
	}
	// The snapshots before its seat hold it as absent: its link did
	// not count and it voted on nothing there (rollbacks read them).
	for s, sn := range g.snaps {
		if len(sn.ps) <= j {
			sn.ps = append(sn.ps[:len(sn.ps):len(sn.ps)], pstate{absent: true, wasAbsent: true})
			g.snaps[s] = sn
		}
	}
	n.seat[nc.colour] = j
	nc.seated, nc.future, nc.player = true, nil, p
	g.seats = append(g.seats[:len(g.seats):len(g.seats)], seatChange{colour: nc.colour, from: from, to: j, roll: g.k})
	if nc.id == n.cfg.Self {
		n.self = j
		// Seated, it votes on the requests still open, like any player.
		for _, o := range n.take.pend {
			o.owed = o != nc && o.open()
		}
	}
	detail := "from its bot"
	if from >= 0 {
		detail = "from " + short(n.players[from].id) + ", who left"
	}
	n.emit(Event{Kind: EventSeatTaken, Peer: nc.id, Colour: nc.colour, Roll: g.k, Detail: detail})
	for _, d := range nc.deferred {
		g.onVote(n.players[d.voter], d.m)
	}
	// Its messages that came early are read now, in sequence.
	for {
		m := p.future[uint64(len(p.msgs))+1]
		if m == nil {
			return
		}
		delete(p.future, m.seq)
		if err := n.accept("", p, m); err != nil {
			return
		}
	}
}

// undoSeats takes back the seats handed over after snapshot sn: a
// rollback past roll r undoes the seat change of roll r, which is
// settled again from the same votes when the game gets there.
func (g *game) undoSeats(sn snapshot) {
	n := g.n
	keep := len(n.cfg.Setup.Players()) + len(sn.g.seats)
	// Decisions taken at rolls derived after the snapshot are taken
	// again on the way back (settleTakes).
	for _, nc := range n.take.pend {
		for r := range nc.settled {
			if r > sn.g.k || r == sn.g.k && sn.g.phase == PhaseReveal {
				delete(nc.settled, r)
				delete(nc.approved, r)
			}
		}
	}
	for j := len(n.players) - 1; j >= keep; j-- {
		p := n.players[j]
		var sc *seatChange
		for i := range g.seats {
			if g.seats[i].to == j {
				sc = &g.seats[i]
			}
		}
		nc := n.take.pend[p.id]
		if sc == nil || nc == nil {
			continue
		}
		n.seat[sc.colour] = sc.from
		delete(n.pidx, p.id)
		nc.seated = false
		if nc.settled[sc.roll-1] {
			nc.approved[sc.roll-1] = true // decided before the snapshot: seated again at its roll
		}
		nc.future = map[uint64]*message{}
		if p.id == n.cfg.Self {
			n.self = -1
		}
		n.players = n.players[:j]
	}
}

// seatedSince is the roll from which player j flies its seat: 0 for a
// player of the setup.
func (g *game) seatedSince(j int) uint64 {
	for _, sc := range g.seats {
		if sc.to == j {
			return sc.roll
		}
	}
	return 0
}

// seatHist binds the seat changes of roll k into the history hash after
// the move of roll k.
func (g *game) seatHist(h [32]byte) [32]byte {
	var b []byte
	for _, sc := range g.seats {
		if sc.roll == g.k {
			b = append(b, uint8(sc.colour))
			b = append(b, g.n.players[sc.to].id...)
		}
	}
	if b == nil {
		return h
	}
	return sha256.Sum256(append(append([]byte(seatTag), h[:]...), b...))
}

const seatTag = "aeroplane/lockstep/seat/v1\n"

// Seats lists who flew each seat from which roll: the setup's owner
// (or its bot) from roll 0, then every seat change in the agreed history.
func (n *Node) Seats() []SeatOwner {
	var out []SeatOwner
	for _, st := range n.cfg.Setup.Seats {
		out = append(out, SeatOwner{Colour: st.Colour, Player: st.Player, Bot: st.Player == ""})
	}
	for _, sc := range n.g.seats {
		out = append(out, SeatOwner{Colour: sc.colour, Player: n.players[sc.to].id, From: sc.roll})
	}
	return out
}

// SeatOwner is one owner of a seat: Player flies Colour from roll From on
// (Bot: the setup gave the seat to a bot).
type SeatOwner struct {
	Colour engine.Colour
	Player peer.ID
	Bot    bool
	From   uint64
}

// newcomerTick is the Tick of a newcomer not seated yet: it says hello,
// asks for status, and once caught up asks for its seat.
func (n *Node) newcomerTick() {
	if n.cfg.Take == nil || n.self >= 0 || n.restoring {
		return
	}
	nc := n.take.mine
	if nc == nil {
		nc = n.take.pend[n.cfg.Self]
		n.take.mine = nc
	}
	if nc == nil {
		if err := n.signTake(0); err != nil {
			n.g.halt(err.Error())
		}
		return
	}
	if n.tick-n.take.lastAsk >= uint64(n.cfg.ResendTicks) {
		n.take.lastAsk = n.tick
		n.sendHave()
		if nc.open() || n.g.phase == PhaseSetup {
			// Repeat the run (duplicates cost a comparison): every
			// player must hold the open request to vote, and the
			// hello to answer our status frames.
			for _, m := range nc.msgs {
				n.send("", m.raw)
			}
		}
	}
	g := &n.g
	front := uint64(0)
	for _, p := range n.players {
		front = max(front, p.maxReveal)
	}
	caught := (g.phase == PhaseReveal || g.phase == PhaseMove) && g.k+2 >= front
	// A seat another newcomer took is a person's now: nothing to ask for.
	owner := n.seat[nc.colour]
	free := owner < 0 || n.players[owner].left
	if caught && free && !nc.open() && len(nc.msgs) < maxTakes {
		if err := n.signTake(max(front, g.k) + takeAheadRoll); err != nil {
			n.g.halt(err.Error())
		}
	}
}

// signTake signs the local newcomer's Take for roll r (0: hello).
func (n *Node) signTake(r uint64) error {
	m := &message{kind: kindTake, colour: n.cfg.Take.Colour, k: r, chainLen: uint32(n.chainL), anchor: n.chain[0]}
	m.game, m.from, m.seq, m.prev = n.gid, n.cfg.Self, n.mySeq+1, n.myPrev
	if err := m.seal(n.cfg.Key.Sign); err != nil {
		return err
	}
	m.id = sha256.Sum256(m.raw)
	nc := n.take.pend[n.cfg.Self]
	if nc == nil {
		nc = newNewcomer(n.cfg.Self)
		n.take.pend[n.cfg.Self] = nc
		n.take.mine = nc
	}
	n.acceptNewcomer(n.cfg.Self, nc, m)
	n.take.lastAsk = n.tick
	return nil
}

// resentFor is the re-send bookkeeping for a status frame's sender: a
// player, or a newcomer that asked for a seat (it catches up so).
func (n *Node) resentFor(from peer.ID) *resent {
	if i, ok := n.pidx[from]; ok {
		return &n.players[i].resent
	}
	if nc := n.take.pend[from]; nc != nil && !nc.seated {
		return &nc.resent
	}
	return nil
}

// sendTakesFor sends to a peer catching up the Take messages of the
// newcomer a seat vote m is on, ahead of the vote: a newcomer's run is
// in no player's run, and the peer must hold the request to settle it.
func (n *Node) sendTakesFor(to peer.ID, m *message) {
	if m.kind != kindAbsent || !isSeatVote(m.vote) {
		return
	}
	if nc := n.take.pend[m.who]; nc != nil {
		for _, t := range nc.msgs {
			n.send(to, t.raw)
			if t.k == m.step {
				return
			}
		}
	}
}
