package engine

// The expert bot's evaluation. Everything is integer fixed point: one
// roll of the die is expertRoll units, so that peers on any machine score
// alike and choose alike.

// expertRoll is the fixed-point unit of the evaluation: one roll of the die.
const expertRoll = 1024

// placeSlots indexes a Place for the tables: Hangar 0, Launch 1, route
// index i at i+2, Finished at Centre+2.
const placeSlots = Centre + 3

func slot(p Place) int { return int(p) + 2 }

// crossingBit marks, in a hit mask, that the attacker's shortcut crosses
// the opposite colour's H3; bits 0..51 are absolute track squares.
const crossingBit = uint64(1) << TrackSquares

// expertTables holds what the evaluation precomputes for one rule set.
type expertTables struct {
	// progress is how many rolls' worth (in expertRoll units) a plane at
	// the slot has gained over a plane in the hangar: the expected rolls
	// from the hangar to the centre minus those from the slot, for a plane
	// that alone used every roll. It counts jumps and the shortcut, so a
	// plane before square 17 is worth more than its step count.
	progress [placeSlots]int32
	// gain[s][r-1] is the progress a plane at slot s makes with roll r
	// (through jumps and the shortcut, bouncing at the centre), 0 when
	// it cannot move.
	gain [placeSlots][6]int32
	// hits[c][s][r-1] is the mask of squares a group of colour c at slot s
	// hits with roll r: where it lands, where it jumps or flies to, and
	// crossingBit when it takes the shortcut.
	hits [NumColours][placeSlots][6]uint64
}

// expertTableSet has one table per (takeoff, flyjump) pair; the other
// options change nothing the tables model (stacks move as one plane, and
// the home column is valued by distance whether overshoots bounce or stay).
var expertTableSet [3][2]expertTables

func init() {
	for to := range expertTableSet {
		for fj := range expertTableSet[to] {
			expertTableSet[to][fj].build(Rules{Takeoff: Takeoff(to), FlyJump: fj == 1})
		}
	}
}

func expertTablesFor(rules Rules) *expertTables {
	fj := 0
	if rules.FlyJump {
		fj = 1
	}
	return &expertTableSet[rules.Takeoff%3][fj]
}

// landing follows a group that reached route index t (0..49) through the
// jump and shortcut of rules.md section 5; it returns where the group ends
// and the route indices it hits on the way (with crossed true when it
// crossed the opposite colour's H3).
func landing(rules Rules, t int) (end int, hit [3]int, nHit int, crossed bool) {
	hit[0], nHit = t, 1
	fly := func() {
		crossed = true
		t = ShortcutTo
		hit[nHit] = t
		nHit++
	}
	switch {
	case t == ShortcutFrom:
		fly()
		if rules.FlyJump {
			t = FlyJumpTo
			hit[nHit] = t
			nHit++
		}
	case IsJumpSquare(t):
		t += JumpLength
		hit[nHit] = t
		nHit++
		if t == ShortcutFrom {
			fly() // a jump onto the shortcut flies on, but never jumps again
		}
	}
	return t, hit, nHit, crossed
}

func (tb *expertTables) build(rules Rules) {
	// remaining[s]: expected rolls to the centre from slot s, fixed point.
	var remaining [placeSlots]int64
	const unit = int64(expertRoll)
	// In the home column the exact roll is left to the search; distance is
	// valued at the mean roll of 3.5 steps. (Valuing every square of the
	// column alike, as one exact roll away, measured no different.)
	for p := HomeFirst; p <= Centre; p++ {
		remaining[slot(Place(p))] = int64(Centre-p) * unit * 2 / 7
	}
	dest := func(t int) int64 {
		if t > TrackEnd {
			if t > Centre {
				t = 2*Centre - t
			}
			return remaining[slot(Place(t))]
		}
		end, _, _, _ := landing(rules, t)
		return remaining[slot(Place(end))]
	}
	for i := TrackEnd; i >= 0; i-- {
		sum := int64(0)
		for r := 1; r <= 6; r++ {
			sum += dest(i + r)
		}
		remaining[slot(Place(i))] = unit + sum/6
	}
	sum := int64(0)
	for r := 1; r <= 6; r++ {
		sum += dest(r - 1)
	}
	remaining[slot(Launch)] = unit + sum/6
	takeoffs := int64(0)
	for r := 1; r <= 6; r++ {
		if rules.Takeoff.Allows(r) {
			takeoffs++
		}
	}
	remaining[slot(Hangar)] = remaining[slot(Launch)] + 6*unit/takeoffs
	for s := range tb.progress {
		tb.progress[s] = int32(remaining[slot(Hangar)] - remaining[s])
	}
	for r := 1; r <= 6; r++ {
		if rules.Takeoff.Allows(r) {
			tb.gain[slot(Hangar)][r-1] = tb.progress[slot(Launch)] - tb.progress[slot(Hangar)]
		}
		for from := int(Launch); from < Centre; from++ {
			t := from + r
			if from == int(Launch) {
				t = r - 1
			}
			switch {
			case t <= TrackEnd:
				t, _, _, _ = landing(rules, t)
			case t > Centre:
				t = 2*Centre - t
			}
			tb.gain[slot(Place(from))][r-1] = tb.progress[slot(Place(t))] - tb.progress[slot(Place(from))]
		}
	}

	for c := Colour(0); c < NumColours; c++ {
		for s := slot(Launch); s <= slot(TrackEnd); s++ {
			from := s - 2 // route index, -1 for the launch area
			for r := 1; r <= 6; r++ {
				t := from + r
				if from < 0 {
					t = r - 1
				}
				if t > TrackEnd {
					continue
				}
				_, hit, n, crossed := landing(rules, t)
				var m uint64
				for k := 0; k < n; k++ {
					m |= 1 << Absolute(c, hit[k])
				}
				if crossed {
					m |= crossingBit
				}
				tb.hits[c][s][r-1] = m
			}
		}
	}
}

// expertWeights are the evaluation's knobs, in 1/64ths.
type expertWeights struct {
	risk       int32 // weight of the expected loss to captures before the colour moves again
	riskToMove int32 // the same for the side to move, which may fly away first
	leader     int32 // weight of the best opponent in the utility
	field      int32 // weight of the opponents' mean in the utility
	finish     int32 // bonus for a finished plane, in rolls
	out        int32 // extra value of a plane out of the hangar, in 1/64 rolls
	stack      int32 // share of a plane's full progress that riding in a stack is worth
}

// defaultExpertWeights were tuned in four-player games against three
// greedy bots at depth 0 (4,000 games a variant, seats rotated, ±1.4%):
// counting a stack's remaining rolls once (stack 64) took the win rate
// from 29% to 31.5%, valuing planes out of the hangar (out 96) to 34%
// against the greedy of that time. Halving or raising risk by half, the
// blend of leader and field, the finish bonus and counting threats from
// the roll after an opponent's six all measured the same or worse, and
// so did a smooth log-chance-to-beat-each-opponent utility and a
// weight on threats from 7 to 12 squares behind.
var defaultExpertWeights = expertWeights{risk: 64, riskToMove: 32, leader: 32, field: 32, finish: 2, stack: 64, out: 96}

// rankBonus is added to a colour that has finished all its planes, by
// finishing place: winning dwarfs every positional term.
var rankBonus = [NumColours]int32{400 * expertRoll, 150 * expertRoll, 60 * expertRoll, 0}

// scores values every colour of p on its own: its planes' progress, less
// what the other colours threaten to take from it before it moves again.
//
// hitCounts says, for each attacker, how many of its six rolls hit each
// square, as a bit-sliced 3-bit counter (c0 + 2·c1 + 4·c2) over the
// square masks.
func (tb *expertTables) hitCounts(p *Position) (c0, c1, c2 [NumColours]uint64) {
	for o := Colour(0); o < NumColours; o++ {
		if p.inPlay&(1<<o) == 0 {
			continue
		}
		pl := &p.planes[o]
		var masks [6]uint64
		for i := 0; i < PlanesPerColour; i++ {
			at := pl[i]
			if at < Launch || at > TrackEnd {
				continue
			}
			h := &tb.hits[o][slot(at)]
			for r := range 6 {
				masks[r] |= h[r]
			}
		}
		c0[o], c1[o], c2[o] = countRolls(&masks)
	}
	return c0, c1, c2
}

// With stacks on, a stack moves as one: its planes need the rolls of one
// plane, so the colour's progress counts the group's remaining rolls once,
// and a hit on the stack costs every plane in it.
func (tb *expertTables) scores(p *Position, stacks bool, w *expertWeights) (s [NumColours]int32) {
	c0, c1, c2 := tb.hitCounts(p)
	return tb.scoresHit(p, stacks, w, &c0, &c1, &c2)
}

// scoresHit is scores given p's hit counts, which the fitted evaluation
// shares.
func (tb *expertTables) scoresHit(p *Position, stacks bool, w *expertWeights, c0, c1, c2 *[NumColours]uint64) (s [NumColours]int32) {
	for v := Colour(0); v < NumColours; v++ {
		if p.inPlay&(1<<v) == 0 {
			continue
		}
		pl := &p.planes[v]
		total, loss := int32(0), int64(0)
		full := tb.progress[slot(Finished)]
		for i := 0; i < PlanesPerColour; i++ {
			at := pl[i]
			n := int32(1)
			if stacks && at >= 0 && at <= HomeLast {
				if !firstAt(pl, i) {
					continue
				}
				for j := i + 1; j < PlanesPerColour; j++ {
					if pl[j] == at {
						n++
					}
				}
			}
			// The group's n planes need the rolls of one plane: n hangar
			// planes' worth of rolls less the group's, which is also what
			// a capture takes away.
			val := tb.progress[slot(at)] + (n-1)*full*w.stack/64
			if at != Hangar {
				val += n * w.out * expertRoll / 64
			}
			total += val
			var sh uint
			switch {
			case at == Finished:
				total += w.finish * expertRoll
				continue
			case at >= 0 && at <= TrackEnd:
				sh = uint(Absolute(v, int(at)))
			case at == CrossingHome:
				sh = TrackSquares
			default:
				continue
			}
			// The plane survives when every other colour misses it: the
			// product of (6 - hitting rolls) over the three others, out
			// of 6³. A six's extra roll is not foreseen: counting it
			// measured no stronger.
			survive := int64(1)
			for o := Colour(0); o < NumColours; o++ {
				if o == v {
					continue
				}
				miss := int64(6)
				if o == v.Opposite() || sh != TrackSquares {
					miss -= int64(c0[o]>>sh&1 + (c1[o]>>sh&1)<<1 + (c2[o]>>sh&1)<<2)
				}
				survive *= miss
			}
			loss += int64(val) * (216 - survive)
		}
		rw := w.risk
		if v == p.toMove {
			rw = w.riskToMove
		}
		total -= int32(loss * int64(rw) / (216 * 64))
		for k := 0; k < int(p.nOrder); k++ {
			if p.order[k] == v {
				total += rankBonus[k]
			}
		}
		s[v] = total
	}
	return s
}

// countRolls counts, for every bit, in how many of the six masks it is
// set, as a bit-sliced 3-bit number (b0 + 2·b1 + 4·b2).
func countRolls(masks *[6]uint64) (b0, b1, b2 uint64) {
	for _, m := range masks {
		t0 := b0 & m
		b0 ^= m
		t1 := b1 & t0
		b1 ^= t0
		b2 |= t1
	}
	return b0, b1, b2
}

// utility is how good scores s are for colour c: its own score less a
// blend of the best opponent's and the opponents' mean. Against the
// leader alone a capture of anyone else would be worth nothing; against
// the mean alone the bot would let one opponent run away with the game.
func utility(p *Position, s *[NumColours]int32, c Colour, w *expertWeights) int32 {
	best, sum, n := int32(-1<<30), int32(0), int32(0)
	for o := Colour(0); o < NumColours; o++ {
		if o == c || p.inPlay&(1<<o) == 0 {
			continue
		}
		if s[o] > best {
			best = s[o]
		}
		sum += s[o]
		n++
	}
	if n == 0 {
		return s[c]
	}
	return s[c] - (best*w.leader+sum/n*w.field)/64
}
