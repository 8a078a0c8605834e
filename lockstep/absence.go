package lockstep

import (
	"fmt"
	"sort"
)

// Absence and return, with no coordinator (PROTOCOL.md, "Absence"):
//
//   - Steps number the waits: step 2k is collecting the links of roll k,
//     step 2k+1 is waiting for the move of roll k.
//   - A player the game has waited on for AbsentTicks ticks at step s gets a
//     signed, binding vote Absent(who, s) from each waiting peer.
//   - While any present player has voted who absent at s, nobody consumes
//     who's input for s: unless some other present player has signed a
//     message proving it already went past s (wentPast: then unanimity is
//     impossible and the vote is void).
//   - The exclusion takes effect when every other present player voted the
//     same (who, s) and those voters are a strict majority of the present
//     players: from then on a bot flies who's seat and who's link is left
//     out of the rolls. The majority keeps two sides of a partition from
//     both going on. Crossed votes (several sets so voted, their union
//     without a majority) settle on the largest of them (majorityExclusion).
//   - Invariant: every node ends at each step on what the votes held
//     settle from the absent set it settled them from. A node that settled
//     a step otherwise (it went on alone while the others voted, or
//     settled crossed votes from fewer votes than came later) rolls back
//     to it (rollbackIfExcluded).
//   - A returning player signs Return(r); each present player votes
//     yes if it has not yet reached roll r, no otherwise, and nobody derives
//     roll r before all votes are in. With all yes, the player's link counts
//     again from roll r and it flies its seat from the move of roll r.

// step is the current wait's number.
func (g *game) step() uint64 {
	if g.phase == PhaseMove {
		return 2*g.k + 1
	}
	return 2 * g.k
}

// onTick counts how long the game has waited for each awaited player and
// votes absent those that kept it waiting too long.
func (g *game) onTick() {
	n := g.n
	if n.paused() {
		return // a paused player votes nobody absent and counts no wait (pause.go)
	}
	if n.self < 0 || n.cfg.AbsentTicks < 0 || (g.phase != PhaseReveal && g.phase != PhaseMove) || n.players[n.self].absent {
		g.maybeReturn()
		return
	}
	w := g.awaiting()
	s := g.step()
	mute := g.muteVoters(s)
	for i, p := range n.players {
		if i == n.self || (w|mute)&(1<<i) == 0 || p.absent {
			continue
		}
		p.waited++
		// A person choosing a move, or to roll (without AutoRoll its
		// reveal waits for a key), gets the long ChooseTicks; a player the
		// driver cannot reach is not thinking, so the short wait applies.
		limit := uint64(n.cfg.AbsentTicks)
		// A player that paused (pause.go) is a person too: the others
		// are being asked to pause with it.
		if w&(1<<i) != 0 && (g.mayThink(i) || p.pauseFrom > 0) && !p.unreachable {
			limit = uint64(max(n.cfg.ChooseTicks, n.cfg.AbsentTicks))
		}
		key := voteKey{i, s}
		if p.waited >= limit && !g.voted(key) && n.maySign() {
			g.myVotes[key] = true
			if err := n.newMessage(&message{kind: kindAbsent, who: p.id, step: s, vote: voteAbsent}); err != nil {
				g.halt(err.Error())
				return
			}
		}
	}
	g.maybeWithdraw()
}

// mutePerAbsent is how many absence waits without a single frame make a
// player that joins none of our votes mute (muteVoters).
const mutePerAbsent = 4

// muteVoters has bit i set for each present player that has not joined
// an absence vote the local player signed at step s and from which no
// frame at all came for muteTicks: one that went silent after its input
// for s was in (two of four vanishing at once, one before its link, one
// after). Nobody waits for its input at this step, so without an absence
// vote on it too the other could never be excluded; it is voted absent
// after AbsentTicks more, like an awaited player. A live player sends a
// status frame every few ticks and is never mute; one cut off by a
// partition is, once it lasts that long, and its vote can then cross a
// majority the others reached without us (crossed votes, which
// majorityExclusion resolves): hence the long silence asked for
// (mutePerAbsent).
func (g *game) muteVoters(s uint64) uint8 {
	n := g.n
	var m uint8
	for j := range n.players {
		if _, mine := g.votes[voteKey{j, s}][n.self]; !mine {
			continue
		}
		for i, p := range n.players {
			if _, ok := g.votes[voteKey{j, s}][i]; !ok && i != j && i != n.self && !p.absent &&
				n.tick-p.heardAt >= mutePerAbsent*uint64(n.cfg.AbsentTicks) {
				m |= 1 << i
			}
		}
	}
	return m
}

// mayThink reports whether player i is the one a person's key may be
// holding up now: it is to choose a move, or to roll the die (only the
// player to roll can hold a reveal back on purpose; every other reveal
// goes out by itself). A peer has no way to tell a person from a bot at
// another peer, and a bot answers at once anyway.
func (g *game) mayThink(i int) bool {
	switch g.phase {
	case PhaseMove:
		return true
	case PhaseReveal:
		return g.k > 0 && !g.pos.GameOver() && i == g.mover()
	}
	return false
}

// returnLead is how many rolls ahead of its own a returning player asks
// for its seat back (maybeReturn): its own roll is at least r-returnLead,
// since it never reveals past its roll.
const returnLead = 4

// maybeReturn asks for the local player's seat back when it has been voted
// absent and no request of its own is pending.
func (g *game) maybeReturn() {
	n := g.n
	if n.self < 0 || !n.maySign() || g.phase != PhaseReveal && g.phase != PhaseMove {
		return
	}
	me := n.players[n.self]
	if _, pending := g.returns[n.self]; !me.absent || me.returnAt != 0 || pending {
		return
	}
	// A few rolls ahead, so the others have not reached it when they read it.
	r := max(g.k+returnLead, g.myRevealed+1)
	g.returns[n.self] = r
	if err := n.newMessage(&message{kind: kindReturn, step: r}); err != nil {
		g.halt(err.Error())
	}
}

// onVote records a vote or a return request as it is accepted.
func (g *game) onVote(p *player, m *message) {
	n := g.n
	vi := n.pidx[p.id]
	if m.kind == kindReturn {
		if g.asked[vi] < m.step {
			g.asked[vi] = m.step // our own too (maybeReturn made it pending)
		}
		if old, pending := g.returns[vi]; pending && old >= m.step {
			return // stale or repeated
		}
		// A player asks again only after it saw its previous request
		// decided "no", so a newer request replaces an older one.
		g.returns[vi] = m.step
		g.asked[vi] = m.step
		if vi != n.self {
			g.owed[vi] = m.step
			g.payVotes()
		}
		return
	}
	if isSeatVote(m.vote) {
		g.onSeatVote(vi, m) // takeseat.go
		return
	}
	wi, ok := n.pidx[m.who]
	if !ok && g.deferVote(vi, m) { // takeseat.go: on a newcomer seated ahead of us
		return
	}
	if !ok || wi == vi {
		n.cheat(p.id, CheatBadMessage, fmt.Sprintf("a vote about %s, who is not another player", short(m.who)))
		return
	}
	if m.vote == voteWithdraw {
		g.onWithdraw(p, vi, wi, m) // withdraw.go
		return
	}
	key := voteKey{wi, m.step}
	switch m.vote {
	case voteAbsent:
	case voteGoOn:
		key.step |= goBit // go-on votes live apart too (alone.go)
	default:
		key.step |= 1 << 63 // readmission votes live apart from absence votes
	}
	if g.votes[key] == nil {
		g.votes[key] = map[int]uint8{}
	}
	if _, dup := g.votes[key][vi]; !dup {
		g.votes[key][vi] = m.vote
	}
}

// payVotes signs the local player's vote on each return request it owes
// one, in seat order, once it may sign: a request that came while it
// replayed its log or recovered after a restore is voted on then. It also
// votes while absent itself: where it is absent the vote blocks nothing,
// but a player still behind, at a roll where it counts the voter
// present, waits for that vote (TestSimFaultsRegressions, seed 2815
// with a machine crash: the voter was restored, excluded and seated
// again, and the returning player waited for its vote for ever).
func (g *game) payVotes() {
	n := g.n
	if n.self < 0 || !n.maySign() || len(g.owed) == 0 {
		return
	}
	for i := range n.players {
		if r, ok := g.owed[i]; ok {
			delete(g.owed, i)
			g.voteReadmit(i, r)
		}
	}
}

// voteReadmit signs the local player's vote on player vi's request to
// fly its seat again from roll r, unless it has voted on it already (a
// vote recovered from the others after a restore counts).
func (g *game) voteReadmit(vi int, r uint64) {
	n := g.n
	key := voteKey{vi, 1<<63 | r}
	if g.voted(key) {
		return
	}
	v := uint8(voteReadmitOK)
	if g.k >= r || n.players[vi].brokenChain {
		v = voteReadmitNo
	}
	g.myVotes[key] = true
	if err := n.newMessage(&message{kind: kindAbsent, who: n.players[vi].id, step: r, vote: v}); err != nil {
		g.halt(err.Error())
	}
}

// voted reports whether the local player has signed a vote under key, in
// this run or before a restart (its vote is then among the accepted ones).
func (g *game) voted(key voteKey) bool {
	if g.myVotes[key] {
		return true
	}
	_, ok := g.votes[key][g.n.self]
	return ok
}

// blocked reports whether player i's input for step s must wait: some
// present player voted it absent and no one has proved the vote void.
func (g *game) blocked(i int, s uint64) bool {
	if !quorumIn(g.outOfCount(s, g.liveAbsent()), []int{i}) && !g.anyGoOnFor(i, s) {
		return false // a vote that can never carry keeps nothing
	}
	for j := range g.votes[voteKey{i, s}] {
		if !g.n.players[j].absent { // an absent player's vote carries nothing
			return !g.voided(i, s)
		}
	}
	return false
}

// voided reports whether another present player that did not vote i
// absent at s signed a message (a reveal or a vote) that shows it went past
// step s, so with i's input: the vote can never be unanimous.
func (g *game) voided(i int, s uint64) bool {
	vs := g.votes[voteKey{i, s}]
	for j, p := range g.n.players {
		if _, voted := vs[j]; j != i && !voted && !p.absent && g.wentPast(j, s) {
			return true
		}
	}
	return false
}

// wentPast reports whether player j's messages show it went past step s,
// so with the input of every player it did not vote absent there: a
// reveal or vote of a later step, or, where nobody voted j itself absent
// at s, a return request signed later. A player excluded on its own
// branch just after a step another still waits at signs nothing but its
// Return; without it an absence vote cast there by the one waiting could
// never become unanimous nor void (seed 9862). One that was voted absent
// at s may have been excluded there, and then went past s without
// anyone's input.
func (g *game) wentPast(j int, s uint64) bool {
	p := g.n.players[j]
	return p.reached > s+1 || p.returnReached > s+1 && len(g.votes[voteKey{j, s}]) == 0
}

// checkAbsence applies the exclusions that became unanimous at the current
// step: the largest set X of voted-on players such that every present
// player outside X voted each of X absent at this step, with a majority,
// or without one where a go-on vote lets it carry (alone.go). Without a
// majority and a go-on vote it asks the local player (askAlone).
func (g *game) checkAbsence() bool {
	n := g.n
	if g.phase != PhaseReveal && g.phase != PhaseMove {
		return false
	}
	s := g.step()
	absent := g.liveAbsent()
	xs, carry, goOn := g.exclusionAt(s, absent)
	if len(xs) == 0 {
		return false
	}
	if !carry {
		g.askAlone(xs, s)
		return false
	}
	g.alone = nil
	if goOn {
		g.goOns = append(g.goOns[:len(g.goOns):len(g.goOns)], goOnRec{step: s, xs: xs, absent: absent})
	}
	g.settles = append(g.settles[:len(g.settles):len(g.settles)], settleRec{step: s, xs: xs, absent: absent})
	for _, i := range xs {
		p := n.players[i]
		p.absent, p.absentFrom, p.wasAbsent = true, s, true
		// A return request for a roll still ahead, read while this
		// exclusion was undone (a rollback to its step: undoTo brings
		// back only the requests of players absent at the snapshot), is
		// pending again with the exclusion, as on a node that never
		// undid it (hot-seat seed 2649: one node seated the player
		// again, another dropped its request and parted from them).
		if r := g.asked[i]; r > g.k && p.returnAt == 0 && g.returns[i] < r {
			g.returns[i] = r
		}
		n.emit(Event{Kind: EventAbsent, Peer: p.id, Colour: p.colour, Roll: g.k})
	}
	return true
}

// returnDecided reports whether every present player has voted on player
// i's return at roll r.
func (g *game) returnDecided(i int, r uint64) bool {
	_, _, done := g.returnVotes(i, r)
	return done
}

func (g *game) returnVotes(i int, r uint64) (yes, no int, done bool) {
	vs := g.votes[voteKey{i, 1<<63 | r}]
	missing := 0
	for j, q := range g.n.players {
		if j == i || q.absent {
			continue
		}
		switch v, ok := vs[j]; {
		case !ok && q.leaving:
			// It signs no vote after its Leave, and every vote it signed
			// comes before it: a peer holding the Leave holds them all.
		case !ok:
			missing++
		case v == voteReadmitOK:
			yes++
		default:
			no++
		}
	}
	return yes, no, missing == 0
}

// checkReturns settles return requests whose votes are all in, in seat
// order: all yes seats the player again from its roll, any no drops the
// request (the player asks again for a later roll).
func (g *game) checkReturns() bool {
	n := g.n
	g.payVotes()
	idx := make([]int, 0, len(g.returns))
	for i := range g.returns {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	moved := false
	for _, i := range idx {
		r := g.returns[i]
		yes, no, done := g.returnVotes(i, r)
		if !done {
			continue
		}
		if no == 0 && yes > 0 {
			n.players[i].returnAt = r
		}
		delete(g.returns, i)
		moved = true
	}
	return g.applyReturns() || moved
}

// applyReturns seats returning players once the game reaches their roll.
func (g *game) applyReturns() bool {
	n := g.n
	moved := false
	for _, p := range n.players {
		if p.absent && !p.left && p.returnAt != 0 && g.k >= p.returnAt && g.phase == PhaseReveal {
			// What it signed before asking for its seat back was signed
			// on a branch it later undid (it had gone on alone): an honest
			// player signs a reveal for a roll from its return only after
			// asking. Those messages are never read, so a reveal of that
			// branch for this very roll is not taken for a divergence.
			if p.askStep == p.returnAt && p.next <= p.askIdx {
				p.next = p.askIdx + 1
			}
			p.absent, p.returnAt = false, 0
			n.emit(Event{Kind: EventReturned, Peer: p.id, Colour: p.colour, Roll: g.k})
			moved = true
		}
	}
	return moved
}

// returnPending reports whether a return request for roll k still waits for
// votes, so roll k must not be derived yet; or whether a readmission vote
// for roll k is in while the request it answers is not: the voter held
// the request before the reveal of its that brought the vote, so the
// request is on its way (a node restored after a crash caught up past
// roll k before the returning player's request reached it, seated the
// player a roll late and parted from everyone's history: seed 10328).
func (g *game) returnPending(k uint64) bool {
	for i, r := range g.returns {
		if r == k && !g.returnDecided(i, r) {
			return true
		}
	}
	for key := range g.votes {
		if key.step == 1<<63|k && g.asked[key.who] < k {
			return true
		}
	}
	return false
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// snapKeep is how many steps back a node can undo its own tentative steps.
const snapKeep = 512

type snapshot struct {
	g  gstate
	ps []pstate
	// returns is g.returns at the step (nil when empty): a request decided
	// after it was dropped from g.returns, so undoing the step must bring
	// it back with the player's undone returnAt.
	returns map[int]uint64
}

// snapshot records the state at the start of each step.
func (g *game) snapshot() {
	if g.phase != PhaseReveal && g.phase != PhaseMove {
		return
	}
	s := g.step()
	if s == g.lastSnap {
		return
	}
	g.lastSnap = s
	g.n.lastNews = g.n.tick
	sn := snapshot{g: g.gstate}
	for _, p := range g.n.players {
		sn.ps = append(sn.ps, p.pstate)
	}
	if len(g.returns) > 0 {
		sn.returns = make(map[int]uint64, len(g.returns))
		for i, r := range g.returns {
			sn.returns[i] = r
		}
	}
	g.snaps[s] = sn
	// A branch that went on by go-on votes keeps every snapshot from
	// then on: when the other half's votes arrive it may have to undo
	// back to the go-on step or to an exclusion of its own before it.
	if s >= snapKeep && len(g.goOns) == 0 {
		delete(g.snaps, s-snapKeep)
	}
}

// rollbackIfExcluded undoes this node's steps back to the earliest step s
// that the votes held now settle otherwise than this branch did:
//
//   - an exclusion by votes it applied at s is no longer what exclusionAt
//     gives from the same absent set (votes that came later changed it:
//     crossed votes, go-on votes of the other half of a split);
//   - or it went past s without an exclusion that the votes held give
//     now from the absent set it left s with: typically it is the one
//     excluded, and went on alone while the others voted.
//
// Nothing a branch did after such a step was final: a roll after it needs
// every present player's reveal carrying one history hash, and a partner
// signs its next reveal only after its votes at s, so a node holding it
// holds the votes that settle s (reduce). Every node thus ends on the
// settlement of the complete votes.
func (g *game) rollbackIfExcluded() bool {
	// A game finished with go-on exclusions is finished on this branch
	// only: the other half of a split may settle it otherwise.
	if g.phase != PhaseReveal && g.phase != PhaseMove && (g.phase != PhaseOver || len(g.goOns) == 0) {
		return false
	}
	cur := g.step()
	at, who, why := uint64(1<<64-1), -1, ""
	for _, r := range g.settles {
		if r.step >= at {
			break
		}
		if xs, carry, _ := g.exclusionAt(r.step, r.absent); carry && equalInts(xs, r.xs) {
			continue
		}
		if _, ok := g.snaps[r.step]; !ok {
			continue // too far back to undo (recheckGoOns halts for a go-on)
		}
		at, who = r.step, r.xs[0]
		why = fmt.Sprintf("the votes of step %d, now all in, do not settle it as %s's exclusion; undoing the steps after it", r.step, shortList(g.idsOf(r.xs)))
		break
	}
	var steps []uint64
	seen := map[uint64]bool{}
	for key := range g.votes {
		if s := key.step; s < cur && s < at && !seen[s] {
			seen[s] = true
			steps = append(steps, s)
		}
	}
	sort.Slice(steps, func(a, b int) bool { return steps[a] < steps[b] })
	for _, s := range steps {
		if _, ok := g.snaps[s]; !ok {
			continue
		}
		end, ok := g.nextSnap(s, cur)
		if !ok {
			continue
		}
		absent := make([]bool, len(end.ps))
		for j := range end.ps {
			absent[j] = end.ps[j].absent
		}
		xs, carry, _ := g.exclusionAt(s, absent)
		if !carry || len(xs) == 0 {
			continue
		}
		at, who = s, xs[0]
		why = fmt.Sprintf("the others voted %s absent at step %d; undoing the tentative steps after it", shortList(g.idsOf(xs)), s)
		break
	}
	if who >= 0 && g.undoGuarded(at, who, why) {
		return true
	}
	return g.recheckGoOns()
}

// nextSnap is the snapshot of the first step after s (step 1 does not
// exist: roll 0's collection is followed by roll 1's), up to cur: what the
// branch left step s with.
func (g *game) nextSnap(s, cur uint64) (snapshot, bool) {
	for t := s + 1; t <= s+2 && t <= cur; t++ {
		if sn, ok := g.snaps[t]; ok {
			return sn, true
		}
	}
	return snapshot{}, false
}

// undoGuarded undoes to step s unless it undid to s already with no news
// since (undoNews): the live path and the check above agree by
// construction, and this keeps any case where they would not from looping.
func (g *game) undoGuarded(s uint64, who int, detail string) bool {
	sn, ok := g.snaps[s]
	if !ok {
		return false
	}
	news := g.undoNews(s)
	if last, ok := g.undoneAt[s]; ok && last == news {
		g.loopGuard++
		g.guardWhy = fmt.Sprintf("at step %d (now %d): %s", s, g.step(), detail)
		return false
	}
	g.undoneAt[s] = news
	g.undoTo(s, sn, who, detail)
	return true
}

// undoNews counts what can change how step s settles: the absence and
// go-on votes held at s and how far every player's messages reach (its
// own too: the reach only grows, so it bounds the undos as the votes do).
func (g *game) undoNews(s uint64) uint64 {
	var c uint64
	for key, vs := range g.votes {
		if key.step&(1<<63) == 0 && key.step&^goBit == s {
			c += uint64(len(vs))
		}
	}
	for _, p := range g.n.players {
		c += p.reached + p.returnReached
	}
	// A withdrawal takes one vote away: counted twice, it still adds.
	return c + 2*g.withdrawnAt(s)
}

// undoTo rolls the game back to snapshot sn of step s; who and detail
// go into the rolled-back event.
func (g *game) undoTo(s uint64, sn snapshot, who int, detail string) {
	g.undoSeats(sn) // takeseat.go: before the branch's seat changes go
	g.gstate = sn.g
	for i, p := range g.n.players {
		p.pstate = sn.ps[i]
	}
	// A return request decided on the undone branch is pending again
	// (its returnAt was just undone), and is decided anew from the
	// same votes, as by a node that never took those steps. A newer
	// request of the same player, read since, replaces it as in onVote.
	for i, r := range sn.returns {
		if cur, ok := g.returns[i]; !ok || cur < r {
			g.returns[i] = r
		}
	}
	// So is a request that came after the step and was decided on the
	// undone branch: a branch that went on alone by go-on votes can run
	// far, to its game's end, and decide requests the others decide
	// otherwise (TestSimFaultsRegressions, seed 2912 going on alone).
	for i, r := range g.asked {
		if p := g.n.players[i]; p.absent && p.returnAt == 0 && g.returns[i] < r {
			g.returns[i] = r
		}
	}
	g.lastSnap = s
	// Reveals signed on the undone branch are re-read from our own
	// queue; one that no longer fits is replaced by a fresh one.
	if g.phase == PhaseMove {
		g.myRevealed = min(g.myRevealed, g.k+1)
	} else {
		g.myRevealed = min(g.myRevealed, g.k)
	}
	g.myMoved = min(g.myMoved, g.k)
	g.n.emit(Event{Kind: EventRolledBack, Roll: g.k, Peer: g.n.players[who].id, Detail: detail})
}
