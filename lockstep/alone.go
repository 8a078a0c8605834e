package lockstep

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Going on without a majority (PROTOCOL.md, "Alone at the table").
//
// An exclusion needs its voters to be a strict majority of the present
// players, so two present players (one gone), or two of four (two gone),
// could never exclude anyone and waited for ever. When every present
// player outside a set X voted each of X absent at step s and they are no
// majority, the node reports EventAloneDecision and waits for its player:
// GoOn (or Config.GoOnAlone) signs a go-on vote Vote(x, s, go-on) for each
// x in X, and one go-on vote from a voter outside X lets the exclusion of
// x carry. Bots fly X's seats; X may come back with Return.
//
// Two sides of a partition may both go on. When their votes meet, every
// node settles step s from the complete votes with one deterministic rule
// (exclusionAt), so all land on one branch: a node whose branch the rule
// undoes rolls back to step s (rollbackIfExcluded) and its excluded
// players ask for their seats back. The rule, in order:
//
//  1. the largest set every other present player voted absent, if its
//     voters are a majority (the rule without go-on votes); when votes
//     crossed (several such sets, their union without a majority), the
//     largest of them, keeping the lowest seats present (1b,
//     majorityExclusion);
//  2. else the players that signed go-on votes at s, if the others voted
//     them all absent and are a majority: a majority outvotes a lone
//     decision;
//  3. else the largest set of go-on targets every other present player
//     voted absent, each with a go-on vote from one of those voters. In a
//     1-1 or 2-2 split that both went on at one step, the removal in seat
//     order keeps the side holding the first seat.
//
// A split whose sides went on at different steps resolves to the earlier
// step: the later side was still present there on the other's branch.

// goBit marks go-on votes in the vote table (readmission votes use bit 63).
const goBit = 1 << 62

// ErrNoDecision is returned by GoOn when no lone decision is pending.
var ErrNoDecision = errors.New("nobody is missing without a majority to exclude them: there is nothing to go on from")

// GoOn is the local player's decision, after EventAloneDecision, to go on
// without the missing players: their seats are flown by bots from the
// step the decision names, and they may come back (Return) as after any
// exclusion. Not calling it keeps waiting.
func (n *Node) GoOn() error {
	if n.self < 0 {
		return errObserver
	}
	if n.left() {
		return ErrLeft
	}
	if !n.maySign() {
		return fmt.Errorf("go on: %w", ErrRecovering)
	}
	g := &n.g
	if g.alone == nil || g.alone.step != g.step() || g.phase != PhaseReveal && g.phase != PhaseMove {
		return ErrNoDecision
	}
	if err := g.signGoOn(g.alone.xs, g.alone.step); err != nil {
		return err
	}
	n.progress()
	return nil
}

// aloneAsk is a pending lone decision: the players missing at step.
type aloneAsk struct {
	step uint64
	xs   []int
}

// askAlone reports a lone decision at step s once (and makes it at once
// with GoOnAlone): every present player outside xs voted each of xs
// absent, and they are no majority.
func (g *game) askAlone(xs []int, s uint64) {
	n := g.n
	if n.self < 0 || n.players[n.self].absent || containsInt(xs, n.self) || !n.maySign() {
		return
	}
	if g.alone != nil && g.alone.step == s && equalInts(g.alone.xs, xs) {
		return
	}
	g.alone = &aloneAsk{step: s, xs: append([]int(nil), xs...)}
	detail := "keep waiting, or go on: bots fly the missing seats until their players return"
	if n.cfg.GoOnAlone {
		detail = "going on (GoOnAlone): bots fly the missing seats until their players return"
	}
	n.emit(Event{Kind: EventAloneDecision, Roll: g.k, Peers: g.idsOf(xs), Detail: detail})
	if n.cfg.GoOnAlone {
		if err := g.signGoOn(xs, s); err != nil {
			g.halt(err.Error())
		}
	}
}

// signGoOn signs the local go-on vote on each of xs at step s.
func (g *game) signGoOn(xs []int, s uint64) error {
	n := g.n
	for _, i := range xs {
		key := voteKey{i, goBit | s}
		if g.voted(key) || g.withdrawn[voteKey{i, s}][n.self] {
			continue // a go-on vote stands on our absence vote (withdraw.go)
		}
		g.myVotes[key] = true
		if err := n.newMessage(&message{kind: kindAbsent, who: n.players[i].id, step: s, vote: voteGoOn}); err != nil {
			return err
		}
	}
	return nil
}

// liveAbsent is the absent flag of each player now.
func (g *game) liveAbsent() []bool {
	a := make([]bool, len(g.n.players))
	for i, p := range g.n.players {
		a[i] = p.absent
	}
	return a
}

// outOfCount is, for each player, whether it is out of the vote count at
// step s: absent, or leaving (its Leave is in, not yet in effect) with no
// vote at s. A leaving player signs nothing more, and every vote it
// signed precedes its Leave, so a node holding the Leave knows it will
// never vote at s; counting it would hold every exclusion there for ever.
// A node that lacks the Leave counts it and waits for it, so both settle
// alike once it arrives; and a majority of the players without it meets
// any majority of all of them, so no two sides can both exclude.
func (g *game) outOfCount(s uint64, absent []bool) []bool {
	out := make([]bool, len(absent))
	for j := range absent {
		out[j] = absent[j] || g.n.players[j].leaving && !g.votedAt(j, s)
	}
	return out
}

// votedAt reports whether player j signed an absence vote at step s.
func (g *game) votedAt(j int, s uint64) bool {
	for i := range g.n.players {
		if _, ok := g.votes[voteKey{i, s}][j]; ok {
			return true
		}
	}
	return false
}

// exclusionAt settles step s from the votes held, with absent[j] telling
// which players are absent at s: xs carries (carry) by a majority or by
// go-on votes (goOn: rule 3). See the file comment for the rule. Without
// go-on votes at s it is the rule of a majority alone, as before them.
func (g *game) exclusionAt(s uint64, really []bool) (xs []int, carry, goOn bool) {
	var cands, signers, targets []int
	absent := g.outOfCount(s, really) // from here on: who counts as a voter
	for i := range g.n.players {
		if really[i] || len(g.votes[voteKey{i, s}]) == 0 || g.voidedIn(i, s, absent) {
			continue
		}
		cands = append(cands, i)
		for j := range g.votes[voteKey{i, goBit | s}] {
			if !absent[j] {
				targets = append(targets, i)
				break
			}
		}
	}
	if ys := g.majorityExclusion(s, cands, absent); len(ys) > 0 {
		return ys, true, false
	}
	xs = g.settle(s, cands, absent)
	if len(targets) == 0 {
		return xs, false, false // no go-on at s: nothing carries without a majority
	}
	for _, i := range cands {
		if g.signedGoOn(i, s) {
			signers = append(signers, i)
		}
	}
	if ys := g.settle(s, signers, absent); len(ys) > 0 && quorumIn(absent, ys) {
		return ys, true, false
	}
	zs := g.settle(s, targets, absent)
	for _, z := range zs {
		carried := false
		for j := range g.votes[voteKey{z, goBit | s}] {
			carried = carried || !absent[j] && !containsInt(zs, j)
		}
		if !carried {
			return xs, false, false
		}
	}
	if len(zs) == 0 {
		return xs, false, false
	}
	return zs, true, true
}

// majorityExclusion is rules 1 and 1b. A set X of cands is settled when
// every present player outside it voted each of X absent at s, and those
// voters are a strict majority. If the union of the settled sets is
// settled too, it is the exclusion (rule 1: the largest set, as before
// crossed votes were resolved). Otherwise votes crossed: several sets
// are settled, for instance {A} (voted by B, C) and {C} (voted by A, B)
// when A and C voted each other and B both, and no exclusion of their
// union has a majority. Rule 1b takes the largest settled set, between
// sets of one size the one keeping the lowest seats present. Which sets
// are settled depends on which votes a node holds, so a node may settle
// such a step from fewer votes than the others; rollbackIfExcluded undoes
// it when the rest arrive. Seats are few (at most four), so every subset
// is tried.
func (g *game) majorityExclusion(s uint64, cands []int, absent []bool) []int {
	var best []int
	bestMask, union := 0, 0
	for set := 1; set < 1<<len(cands); set++ {
		var xs []int
		mask := 0
		for k, i := range cands {
			if set&(1<<k) != 0 {
				xs = append(xs, i)
				mask |= 1 << i
			}
		}
		if !g.settledSet(s, xs, absent) {
			continue
		}
		union |= mask
		if len(xs) > len(best) || len(xs) == len(best) && mask > bestMask {
			best, bestMask = xs, mask
		}
	}
	var all []int
	for i := range g.n.players {
		if union&(1<<i) != 0 {
			all = append(all, i)
		}
	}
	if len(all) > 0 && g.settledSet(s, all, absent) {
		return all
	}
	return best
}

// settledSet reports whether every present player outside xs voted each
// of xs absent at s, and those voters are a strict majority.
func (g *game) settledSet(s uint64, xs []int, absent []bool) bool {
	if !quorumIn(absent, xs) {
		return false
	}
	for _, x := range xs {
		vs := g.votes[voteKey{x, s}]
		for j := range g.n.players {
			if v, ok := vs[j]; !absent[j] && !containsInt(xs, j) && (!ok || v != voteAbsent) {
				return false
			}
		}
	}
	return true
}

// signedGoOn reports whether player j signed a go-on vote at step s.
func (g *game) signedGoOn(j int, s uint64) bool {
	for i := range g.n.players {
		if _, ok := g.votes[voteKey{i, goBit | s}][j]; ok {
			return true
		}
	}
	return false
}

// settle is the largest subset of cands such that every present player
// outside it voted each member absent at s (removing, in seat order, a
// member some outside player did not vote, until none is left to remove).
func (g *game) settle(s uint64, cands []int, absent []bool) []int {
	xs := append([]int(nil), cands...)
	for changed := true; changed; {
		changed = false
		for k := 0; k < len(xs); k++ {
			vs := g.votes[voteKey{xs[k], s}]
			voters := 0
			for j := range g.n.players {
				if absent[j] || containsInt(xs, j) {
					continue
				}
				voters++
				if v, ok := vs[j]; !ok || v != voteAbsent {
					voters = -1 << 30
				}
			}
			if voters <= 0 {
				xs = append(xs[:k], xs[k+1:]...)
				changed = true
				k--
			}
		}
	}
	return xs
}

// voidedIn is voided with the absent set given.
func (g *game) voidedIn(i int, s uint64, absent []bool) bool {
	vs := g.votes[voteKey{i, s}]
	for j := range g.n.players {
		if _, voted := vs[j]; j != i && !voted && !absent[j] && g.wentPast(j, s) {
			return true
		}
	}
	return false
}

// quorumIn reports whether the players outside xs that count (not
// absent[j]) are a strict majority of those that count: two sides of a
// partition can then never both exclude the other, so at most one side
// goes on by votes alone (a go-on exclusion is the exception, settled when
// the sides meet).
func quorumIn(absent []bool, xs []int) bool {
	present, voters := 0, 0
	for j := range absent {
		if absent[j] {
			continue
		}
		present++
		if !containsInt(xs, j) {
			voters++
		}
	}
	return 2*voters > present
}

// goOnRec is an exclusion this node let carry by go-on votes at step.
type goOnRec struct {
	step   uint64
	xs     []int
	absent []bool // who was absent at step, before the exclusion
}

// recheckGoOns rolls back an exclusion carried by go-on votes that the
// votes held now settle otherwise (the other side of a partition went on
// too, or a player it excluded proved by its messages that it was never
// missing for everyone): the node follows what every node settles from
// the complete votes. One too far back to undo halts the game: the two
// branches cannot be merged.
func (g *game) recheckGoOns() bool {
	cur := g.step()
	for _, r := range g.goOns {
		if r.step >= cur {
			continue
		}
		if xs, carry, _ := g.exclusionAt(r.step, r.absent); !carry || !equalInts(xs, r.xs) {
			sn, ok := g.snaps[r.step]
			if !ok {
				g.halt(fmt.Sprintf("this node went on without %s at step %d, the votes now held settle that step otherwise, and it is too far back to undo (%d steps kept)",
					shortList(g.idsOf(r.xs)), r.step, snapKeep))
				return true
			}
			g.undoTo(r.step, sn, r.xs[0], fmt.Sprintf("the votes of step %d, now all in, do not let %s's exclusion carry; undoing the steps after it",
				r.step, shortList(g.idsOf(r.xs))))
			return true
		}
	}
	return false
}

func (g *game) idsOf(xs []int) []peer.ID {
	ids := make([]peer.ID, len(xs))
	for k, i := range xs {
		ids[k] = g.n.players[i].id
	}
	return ids
}

// anyGoOnFor reports whether a present player signed a go-on vote on
// player i at step s: an absence vote on i there can carry without a
// majority, so it blocks i's input like any vote that can carry.
func (g *game) anyGoOnFor(i int, s uint64) bool {
	for j := range g.votes[voteKey{i, goBit | s}] {
		if !g.n.players[j].absent {
			return true
		}
	}
	return false
}

// soloDice reports whether one player's link alone makes the rolls now:
// that player knows its chain, so it can foresee every roll.
func (g *game) soloDice() bool {
	if g.phase != PhaseReveal && g.phase != PhaseMove {
		return false
	}
	present := 0
	for i := range g.n.players {
		if g.present(i, g.k) {
			present++
		}
	}
	return present == 1
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
