package engine

import "math/bits"

func init() { registerBot("greedy", func() Bot { return greedyBot{w: defaultGreedyWeights} }) }

// greedyBot looks one move ahead: it plays each outcome and scores the
// position it reaches for the mover. The score (integers only, so every
// peer agrees) values:
//
//   - progress along the route, so jumps (+4) and the shortcut (+12) count
//     for the steps they save;
//   - finishing a plane, well above any other progress;
//   - planes out of the hangar, and taking opponents' planes away from
//     them (a capture), the more the further the victim had flown;
//   - safety: each own plane on a square that an opponent can hit with its
//     next roll costs what it would lose, times the number of rolls that hit it.
//
// Ties between outcomes with equal scores are broken by the seed (one draw
// of NewRand(seed) among the tied ones, in lead-plane order), so that
// greedy-against-greedy games differ while staying reproducible.
type greedyBot struct{ w greedyWeights }

func (greedyBot) Name() string { return "greedy" }

// greedyWeights are the terms of the score. Every term is counted six
// times over so that the threat term, a count of hitting rolls out of 6,
// stays an integer.
type greedyWeights struct {
	step      int // per step of progress (launch area = 1 step, route index i = i+2)
	out       int // per plane out of the hangar
	finished  int // per finished plane, on top of its progress
	theirStep int // per step of an opponent plane (counted against us)
	theirOut  int // per opponent plane out of the hangar (counted against us)
	risk      int // percent of a threatened plane's worth lost per hitting roll in six
}

// defaultGreedyWeights were chosen by playing variants against the
// previous weights (4,000 four-player and 4,000 two-player games each):
// valuing planes out of the hangar and their safety more won 26% and 54%
// against 25% and 50%. Without the threat term greedy wins only 15% of
// four-player games against itself.
var defaultGreedyWeights = greedyWeights{step: 10, out: 150, finished: 300, theirStep: 5, theirOut: 100, risk: 200}

func (b greedyBot) Choose(p *Position, rules Rules, roll int, outs *MoveList, seed uint64) Move {
	if outs.Len() == 0 {
		return Move{Kind: Pass, Colour: p.toMove}
	}
	if outs.Len() == 1 {
		return outs.At(0)
	}
	c := p.toMove
	// The threats depend only on the opponents' planes, which a move
	// changes only when it captures: count them once, again after a capture.
	var before, after [TrackSquares + 1]uint8
	p.threats(rules, c, &before)
	var tied [PlanesPerColour]int
	n := 0
	best := 0
	for k := 0; k < outs.Len(); k++ {
		q := *p
		q.Apply(rules, roll, outs.At(k))
		hits := &before
		if !sameOpponents(p, &q, c) {
			after = [TrackSquares + 1]uint8{}
			q.threats(rules, c, &after)
			hits = &after
		}
		s := b.w.score(&q, c, hits)
		switch {
		case n == 0 || s > best:
			best, tied[0], n = s, k, 1
		case s == best:
			tied[n] = k
			n++
		}
	}
	if n == 1 {
		return outs.At(tied[0])
	}
	r := NewRand(seed)
	return outs.At(tied[r.Intn(n)])
}

// greedyProgress is how many steps a plane at place x has flown from its hangar.
func greedyProgress(x Place) int {
	switch x {
	case Hangar:
		return 0
	case Launch:
		return 1
	}
	return int(x) + 2 // route index 0 is one step past the launch area; the centre is 57
}

// sameOpponents reports whether every plane of every colour but c is where it was.
func sameOpponents(p, q *Position, c Colour) bool {
	for o := Colour(0); o < NumColours; o++ {
		if o != c && p.planes[o] != q.planes[o] {
			return false
		}
	}
	return true
}

// score values position q for colour c (higher is better for c), given
// the threats of q's opponents.
func (w *greedyWeights) score(q *Position, c Colour, hits *[TrackSquares + 1]uint8) int {
	s := 0
	for _, x := range q.planes[c] {
		pr := greedyProgress(x)
		s += 6 * w.step * pr
		if x == Hangar {
			continue
		}
		s += 6 * w.out
		switch {
		case x == Finished:
			s += 6 * w.finished
		case onTrack(x):
			s -= int(hits[Absolute(c, int(x))]) * (w.out + w.step*pr) * w.risk / 100
		case x == CrossingHome:
			s -= int(hits[TrackSquares]) * (w.out + w.step*pr) * w.risk / 100
		}
	}
	for o := Colour(0); o < NumColours; o++ {
		if o == c || !q.InPlay(o) {
			continue
		}
		for _, x := range q.planes[o] {
			if x != Hangar {
				s -= 6 * (w.theirOut + w.theirStep*greedyProgress(x))
			}
		}
	}
	return s
}

// threats counts, for every absolute track square, how many (opponent
// colour, roll) pairs would send a plane of colour c on it home with the
// opponent's next roll: landing there, jumping there, or flying the
// shortcut there. hits[TrackSquares] is the same count for c's own H3,
// which the opposite colour's shortcut crosses. A colour counts each roll
// once however many of its planes could hit, since it moves one of them.
// An opponent taxiing out and rolling again after a six is not foreseen.
func (q *Position) threats(rules Rules, c Colour, hits *[TrackSquares + 1]uint8) {
	for o := Colour(0); o < NumColours; o++ {
		if o == c || !q.InPlay(o) || q.colourFinished(o) {
			continue
		}
		crossing := o == c.Opposite()
		for r := 1; r <= 6; r++ {
			var mask uint64 // bit a: square a hit; bit TrackSquares: c's H3
			for i, x := range q.planes[o] {
				if (x != Launch && !onTrack(x)) || !firstAt(&q.planes[o], i) {
					continue
				}
				land := int(x) + r // from L (−1) this is r−1
				if land > TrackEnd {
					continue
				}
				mask |= 1 << Absolute(o, land)
				to := land
				if IsJumpSquare(land) {
					to = land + JumpLength
					mask |= 1 << Absolute(o, to)
				}
				if to == ShortcutFrom {
					mask |= 1 << Absolute(o, ShortcutTo)
					if crossing {
						mask |= 1 << TrackSquares
					}
					if rules.FlyJump && land == ShortcutFrom {
						mask |= 1 << Absolute(o, FlyJumpTo)
					}
				}
			}
			for mask != 0 {
				a := bits.TrailingZeros64(mask)
				hits[a]++
				mask &= mask - 1
			}
		}
	}
}
