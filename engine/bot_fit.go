package engine

import "math/bits"

// The expert's fitted evaluation: the chance that each colour finishes
// first, as a conditional logit P(c) = exp(s_c) / Σ exp(s_j) over the
// colours in play, with s_c a weighted sum of c's features (fitFeatures).
// The weights were fitted by maximum likelihood to who finished first
// from positions of recorded games (bot_fit_tune_test.go, behind the
// fittune build tag, prints fitWeights). Everything here is integer fixed
// point so that every peer scores alike.
//
// The registered expert fits only some of the features (the others
// have weight 0; bot_expert.go says why and what the others measured):
// the hand-made score (fHand), the threats c makes, and the turn order.
//
// The weights depend on how far the game has gone: the leader's share of
// the way (0 at the start, 1 when it has finished every plane), with a
// weight vector at each of fitKnots evenly spaced points and linear
// interpolation between them. A lead of one roll means little at the
// start and much near the end; one linear score could not say both.

// Feature indices; every feature is in fitUnit fixed point: a count of
// planes times fitUnit, or rolls of the die times expertRoll (= fitUnit).
const (
	fProg       = iota // Σ progress of c's planes from the hangar, rolls
	fOut               // planes out of the hangar (finished ones too)
	fLaunch            // planes in the launch area
	fHome              // planes in the home column
	fFin               // finished planes
	fStack             // planes riding on another in a stack
	fLoss              // expected progress lost to captures before c moves again, c not to move
	fLossMove          // the same when c is to move (it may fly away first)
	fThreat            // expected progress c takes from others with its next roll, c not to move
	fThreatMove        // the same when c is to move
	fToMove            // c is to move
	fNext              // c moves next after the side to move
	fNext2             // c moves second after the side to move
	fSixes             // sixes of this turn when c is to move (a third one is a penalty)
	fMobility          // mean over the six rolls of the most progress one of c's moves makes, rolls
	fHand              // the hand-made score of bot_expert_eval.go (scores), rolls
	fitNF
)

const fitUnit = expertRoll

// fitKnots is how many points of the game's progress carry a weight vector.
const fitKnots = 5

// fitPhaseOne is the leader's share of the way at the last knot, fixed point.
const fitPhaseOne = 256

const fitKnotStep = fitPhaseOne / (fitKnots - 1)

// fitNeed is the set of features that weigh in w: the search evaluates
// millions of leaves a second, and the registered weights leave half the
// features at 0, the costliest among them.
func fitNeed(w *[fitKnots][fitNF]int32) (need uint32) {
	for k := range w {
		for i, x := range w[k] {
			if x != 0 {
				need |= 1 << i
			}
		}
	}
	return need
}

// fitFeatures is every colour's feature vector in p and the phase of the
// game (the leader's share of the way, 0..fitPhaseOne). It computes only
// the features in need (a bit per index) and leaves the others 0; progress
// is always computed, since the phase depends on it.
func (tb *expertTables) fitFeatures(p *Position, stacks bool, f *[NumColours][fitNF]int32, need uint32) (phase int32) {
	c0, c1, c2 := tb.hitCounts(p) // how many of each attacker's rolls hit each square
	*f = [NumColours][fitNF]int32{}
	if need&(1<<fHand) != 0 {
		hand := tb.scoresHit(p, stacks, &defaultExpertWeights, &c0, &c1, &c2)
		for c := range hand {
			f[c][fHand] = hand[c]
		}
	}
	mobility := need&(1<<fMobility) != 0
	hits := need&(1<<fLoss|1<<fLossMove|1<<fThreat|1<<fThreatMove) != 0
	full := tb.progress[slot(Finished)]
	lead := int32(0)
	var threat [NumColours]int64
	for v := Colour(0); v < NumColours; v++ {
		if p.inPlay&(1<<v) == 0 {
			continue
		}
		fv := &f[v]
		pl := &p.planes[v]
		loss := int64(0)
		var best [6]int32
		for i := 0; i < PlanesPerColour; i++ {
			at := pl[i]
			pr := tb.progress[slot(at)]
			fv[fProg] += pr
			if mobility && at != Finished && (!stacks || firstAt(pl, i) || at < 0) {
				n := int32(1)
				if stacks && at >= 0 {
					n = int32(bits.OnesCount8(matchMask(pl, at)))
				}
				g := &tb.gain[slot(at)]
				for r := range best {
					best[r] = max(best[r], n*g[r])
				}
			}
			switch {
			case at == Hangar:
				continue
			case at == Launch:
				fv[fLaunch] += fitUnit
			case at == Finished:
				fv[fFin] += fitUnit
			case at >= HomeFirst:
				fv[fHome] += fitUnit
			}
			fv[fOut] += fitUnit
			if stacks && at >= 0 && at <= HomeLast && !firstAt(pl, i) {
				fv[fStack] += fitUnit
			}
			if !hits {
				continue
			}
			var sh uint
			switch {
			case at >= 0 && at <= TrackEnd:
				sh = uint(Absolute(v, int(at)))
			case at == CrossingHome:
				sh = TrackSquares
			default:
				continue
			}
			// Each plane of a stack is counted on its own: a hit on the
			// square takes every one of them.
			survive := int64(1)
			for o := Colour(0); o < NumColours; o++ {
				if o == v || p.inPlay&(1<<o) == 0 {
					continue
				}
				n := int64(0)
				if o == v.Opposite() || sh != TrackSquares {
					n = int64(c0[o]>>sh&1 + (c1[o]>>sh&1)<<1 + (c2[o]>>sh&1)<<2)
				}
				survive *= 6 - n
				threat[o] += int64(pr) * n
			}
			switch bits.OnesCount8(p.inPlay) {
			case 2:
				survive *= 36
			case 3:
				survive *= 6
			}
			loss += int64(pr) * (216 - survive)
		}
		fv[fMobility] = (best[0] + best[1] + best[2] + best[3] + best[4] + best[5]) / 6
		if v == p.toMove {
			fv[fLossMove] = int32(loss / 216)
			fv[fToMove] = fitUnit
			fv[fSixes] = int32(p.sixes) * fitUnit
		} else {
			fv[fLoss] = int32(loss / 216)
		}
		lead = max(lead, fv[fProg])
	}
	if p.toMove < NumColours {
		d := 0
		for c := p.toMove.Next(); c != p.toMove; c = c.Next() {
			if p.inPlay&(1<<c) == 0 || p.colourFinished(c) {
				continue
			}
			d++
			switch d {
			case 1:
				f[c][fNext] = fitUnit
			case 2:
				f[c][fNext2] = fitUnit
			}
		}
	}
	for o := Colour(0); o < NumColours; o++ {
		t := int32(threat[o] / 6)
		if o == p.toMove {
			f[o][fThreatMove] = t
		} else {
			f[o][fThreat] = t
		}
	}
	return min(int32(int64(lead)*fitPhaseOne/int64(PlanesPerColour*full)), fitPhaseOne)
}

// fitScale is the fixed point of a score: 1/fitScale of a nat.
const fitScale = 1 << 12

// fitProbOne is a probability of one in fitWinProb's fixed point.
const fitProbOne = 1 << 20

// fitScores is every colour's score s_c in p, in 1/fitScale nats.
func (tb *expertTables) fitScores(p *Position, stacks bool, w *[fitKnots][fitNF]int32) (s [NumColours]int32) {
	return tb.fitScoresOf(p, stacks, w, fitNeed(w))
}

// fitScoresOf is fitScores given fitNeed(w), which a search computes once.
func (tb *expertTables) fitScoresOf(p *Position, stacks bool, w *[fitKnots][fitNF]int32, need uint32) (s [NumColours]int32) {
	var f [NumColours][fitNF]int32
	phase := tb.fitFeatures(p, stacks, &f, need)
	b := min(phase/fitKnotStep, fitKnots-2)
	a := phase - b*fitKnotStep
	var wk [fitNF]int64
	for k := range wk {
		if need&(1<<k) == 0 {
			continue
		}
		wk[k] = (int64(w[b][k])*int64(fitKnotStep-a) + int64(w[b+1][k])*int64(a)) / fitKnotStep
	}
	for c := Colour(0); c < NumColours; c++ {
		if p.inPlay&(1<<c) == 0 {
			continue
		}
		sum := int64(0)
		for m := need; m != 0; m &= m - 1 {
			k := bits.TrailingZeros32(m)
			sum += wk[k] * int64(f[c][k])
		}
		s[c] = int32(sum / fitUnit)
	}
	return s
}

// fitWinProb is each colour's chance, out of fitProbOne, to finish first
// given scores s: 0 or fitProbOne once a colour has finished.
func fitWinProb(p *Position, s *[NumColours]int32) (pr [NumColours]int32) {
	if p.nOrder > 0 {
		pr[p.order[0]] = fitProbOne
		return pr
	}
	top := int32(-1 << 31)
	for c := Colour(0); c < NumColours; c++ {
		if p.inPlay&(1<<c) != 0 {
			top = max(top, s[c])
		}
	}
	var e [NumColours]int64
	sum := int64(0)
	for c := Colour(0); c < NumColours; c++ {
		if p.inPlay&(1<<c) == 0 {
			continue
		}
		i := int(top-s[c]) * fitExpPerNat / fitScale
		if i < len(fitExp) {
			e[c] = int64(fitExp[i])
		}
		sum += e[c]
	}
	for c := range e {
		pr[c] = int32(e[c] * fitProbOne / sum)
	}
	return pr
}

// fitExpPerNat: fitExp is indexed by score differences in 1/256 nats.
const fitExpPerNat = 256

// fitExp[i] is exp(-i/256) in 1<<24 fixed point, up to 20 nats; beyond
// that a colour's chance is taken as nothing.
var fitExp [20 * fitExpPerNat]uint32

func init() {
	// exp(-1/256) in 0.64 fixed point, computed to 60 digits; the table is
	// its powers, carried in 2.62 fixed point so the rounding stays far
	// below the table's 24 bits.
	const step = 18374827034086858296
	e := uint64(1) << 62
	for i := range fitExp {
		fitExp[i] = uint32((e + 1<<37) >> 38)
		e, _ = bits.Mul64(e, step)
	}
}
