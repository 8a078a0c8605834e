package engine

// The rollout bot: flat Monte Carlo. Each outcome of the roll is played
// on many times with a fast playout policy that every colour, the bot's
// own included, follows; the outcome with the best total is chosen. A
// full playout counts a win when the bot's colour finishes first; the
// registered bot truncates its playouts after mcPlies rolls and sums the
// expert's utility for its colour there (bot_expert_eval.go).
//
// Common random numbers: playout i of every outcome rolls the same dice,
// each colour from its own stream (so an extra roll after a six does not
// shift the others' dice), and draws the policy's choices from the same
// stream, so the outcomes meet the same futures and their difference is
// far less noisy than either total.
//
// Successive halving: the budget is split into rounds; after each round
// the worse half of the outcomes still in the race (by total so far) is
// dropped, so most playouts go to the close ones.
//
// The kind is named "rollout", which sorts after the other kinds: the
// lobbies fill their default bot seats with the first kinds in order, and
// those tables should stay expert, greedy, random.
//
// Everything is counted in playouts and integers, never by a clock, so the
// move depends only on the inputs and the seed.
//
// Strength: no clear gain over the expert, which stays the registered
// "expert"; the measurements are in docs/PERFORMANCE.md ("The bots'
// research log").

// mcPlayouts is the budget of playouts one Choose spends across all
// outcomes of the roll.
const mcPlayouts = 1024

// mcPlies is where the registered bot truncates its playouts: about two
// rounds of the table, after which the dice, not the move, decide.
const mcPlies = 8

// mcMaxPlies ends a playout that has not finished (it cannot loop in
// practice: every roll either moves a plane forward or passes); an
// unfinished playout counts as lost.
const mcMaxPlies = 4000

type mcBot struct {
	name     string
	playouts int
	policy   mcPolicy
	// plies, when above zero, truncates a playout after that many rolls
	// and scores it with the expert's evaluation (the root's utility)
	// instead of counting a win.
	plies int
}

// mcPolicy chooses the moves inside a playout.
type mcPolicy uint8

const (
	mcRandom  mcPolicy = iota // uniform among the outcomes
	mcCapture                 // a capture if there is one, else uniform
	mcGreedy                  // the greedy bot's choice
)

func init() {
	registerBot("rollout", func() Bot {
		return &mcBot{name: "rollout", playouts: mcPlayouts, policy: mcGreedy, plies: mcPlies}
	})
}

func (b *mcBot) Name() string { return b.name }

// Choose plays out every outcome and returns the one with the best total;
// ties go to the lowest lead plane.
func (b *mcBot) Choose(p *Position, rules Rules, roll int, outs *MoveList, seed uint64) Move {
	n := outs.Len()
	if n <= 1 {
		return outs.At(0)
	}
	root := p.toMove
	var after [PlanesPerColour]Position
	var wins [PlanesPerColour]int64
	alive := n
	var idx [PlanesPerColour]int // idx[:alive] are the outcomes still in the race
	for k := 0; k < n; k++ {
		after[k] = *p
		after[k].Apply(rules, roll, outs.At(k))
		if after[k].nOrder > 0 && after[k].order[0] == root {
			return outs.At(k) // this move wins the game
		}
		idx[k] = k
	}
	rounds := 1
	for 1<<rounds < n {
		rounds++
	}
	next := 0 // number of the next playout: the same for every outcome in a round
	for r := 0; r < rounds; r++ {
		per := b.playouts / (rounds * alive)
		if per < 1 {
			per = 1
		}
		for i := next; i < next+per; i++ {
			ds, ps := mcSeeds(seed, i)
			for a := 0; a < alive; a++ {
				k := idx[a]
				wins[k] += b.playout(after[k], rules, root, ds, ps)
			}
		}
		next += per
		if r == rounds-1 {
			break
		}
		// Keep the better half (rounded up), by wins, lower index first on ties.
		sortByWins(idx[:alive], &wins)
		alive = (alive + 1) / 2
		sortInts(idx[:alive])
	}
	best := idx[0]
	for a := 1; a < alive; a++ {
		if k := idx[a]; wins[k] > wins[best] || (wins[k] == wins[best] && k < best) {
			best = k
		}
	}
	return outs.At(best)
}

// mcSeeds derives playout i's dice and policy seeds from the bot's seed.
func mcSeeds(seed uint64, i int) (dice, policy uint64) {
	r := NewRand(seed ^ uint64(i)*0xd1b54a32d192ed03)
	return r.Uint64(), r.Uint64()
}

// playout plays q to its first finisher and returns 1 when that is root;
// a truncated playout returns the root's utility where it stopped.
func (b *mcBot) playout(q Position, rules Rules, root Colour, diceSeed, policySeed uint64) int64 {
	// Every colour rolls from its own stream, so that a different move
	// earlier (an extra roll after a six, a colour finishing) does not
	// shift the dice the others get: the outcomes meet the same luck.
	var dice [NumColours]Rand
	for c := range dice {
		dice[c] = NewRand(diceSeed + uint64(c)*0x632be59bd9b4e019)
	}
	pr := NewRand(policySeed)
	limit := mcMaxPlies
	if b.plies > 0 {
		limit = b.plies
	}
	for ply := 0; q.nOrder == 0 && ply < limit; ply++ {
		roll := dice[q.toMove&(NumColours-1)].Roll()
		outs := q.Outcomes(rules, roll)
		m := outs.At(0)
		if n := outs.Len(); n > 1 {
			m = b.policy.choose(&q, rules, roll, &outs, &pr)
		}
		q.Apply(rules, roll, m)
	}
	if b.plies > 0 {
		sc := expertTablesFor(rules).scores(&q, !rules.NoStacks, &defaultExpertWeights)
		return int64(utility(&q, &sc, root, &defaultExpertWeights))
	}
	if q.nOrder > 0 && q.order[0] == root {
		return 1
	}
	return 0
}

// choose picks a playout move among at least two outcomes.
func (pol mcPolicy) choose(q *Position, rules Rules, roll int, outs *MoveList, r *Rand) Move {
	n := outs.Len()
	if pol == mcGreedy {
		return greedyBot{w: defaultGreedyWeights}.Choose(q, rules, roll, outs, r.Uint64())
	}
	if pol == mcCapture {
		c := q.toMove
		for k := 0; k < n; k++ {
			t := *q
			t.Apply(rules, roll, outs.At(k))
			if !sameOpponents(q, &t, c) {
				return outs.At(k)
			}
		}
	}
	return outs.At(r.Intn(n))
}

// sortByWins orders idx by wins, most first, lower index first on ties
// (insertion sort: at most four entries).
func sortByWins(idx []int, wins *[PlanesPerColour]int64) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0; j-- {
			a, b := idx[j-1], idx[j]
			if wins[b] > wins[a] || (wins[b] == wins[a] && b < a) {
				idx[j-1], idx[j] = b, a
			}
		}
	}
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}
