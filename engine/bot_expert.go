package engine

// The expert bot: expectimax over the dice with a static evaluation at the
// leaves (bot_expert_eval.go).
//
// The tree: the root chooses among the outcomes of the roll it was given.
// Every node below is a chance node over the six faces for whoever is to
// move there, which the engine's own Apply decides: after a 6 the same
// colour rolls again, the third six is the single outcome Penalty, a roll
// with no legal move is the single outcome Pass, and otherwise the turn
// passes to the next colour still flying.
//
// Opponent model: the root maximises its own value through the search;
// every opponent's reply is the greedy bot's own choice (bot_greedy.go,
// seed 0 for its ties), since opponents, bots and people alike, play for
// themselves rather than against the root, and a modelled reply costs one
// line of play instead of a search over the opponent's moves.
//
// Depth: up to expertMaxDepth chance layers. In a four-player game the
// fifth is the first opponent's answer to the root's next move. The
// leaves are scored by the fitted chance to finish first (bot_fit.go)
// until some colour has finished, then by the hand-made utility. How each
// choice was measured against the alternatives is in docs/PERFORMANCE.md
// ("The bots' research log").
//
// Budget: iterative deepening by chance layers, bounded by a count of
// evaluated leaves and of the outcomes the modelled opponents weighed,
// never by a clock, so the move depends only on the inputs. A layer is
// started only while the count so far, times the typical growth of one
// layer, fits the budget, and a layer that runs past the budget anyway
// is abandoned: the layer before it decides.

// expertLeafBudget bounds the leaves and opponents' outcomes one Choose
// may evaluate; one costs about 0.2 µs, so a move stays under 100 ms
// (BenchmarkExpertMoveLatency: p50 32 ms, p99 86 ms, the most 90 ms).
const expertLeafBudget = 400000

// expertMaxDepth is the deepest layer of chance nodes searched.
const expertMaxDepth = 5

// expertGrowth is how many times more leaves a layer costs than the one
// before it: six rolls, times a few moves where the root moves.
const expertGrowth = 8

type expertBot struct {
	maxDepth int
	budget   int
	w        expertWeights
	// fit, when not nil, are the weights of the fitted evaluation
	// (bot_fit.go): the search then maximises the chance to finish
	// first. Once some colour has finished, the race for first place is
	// over and the hand-made utility plays on for the places.
	fit *[fitKnots][fitNF]int32
}

func init() {
	registerBot("expert", func() Bot { return newExpertBot(expertMaxDepth) })
}

// newExpertBot is the registered expert searching depth chance layers.
func newExpertBot(depth int) *expertBot {
	return &expertBot{maxDepth: depth, budget: expertLeafBudget, w: defaultExpertWeights, fit: &fitWeights}
}

func (*expertBot) Name() string { return "expert" }

// expertSearch is the state of one Choose; it lives on the stack.
type expertSearch struct {
	rules  Rules
	tb     *expertTables
	w      *expertWeights
	fit    *[fitKnots][fitNF]int32
	need   uint32 // fitNeed(fit)
	root   Colour
	leaves int
	// limit is the most leaves a search may evaluate; a layer that would
	// pass it is abandoned (aborted) and the layer before it decides.
	limit   int
	aborted bool
}

// Choose searches each outcome of roll and returns the best; ties go to
// the lowest lead plane. The seed is not needed: the search is exact
// given its inputs.
func (b *expertBot) Choose(p *Position, rules Rules, roll int, outs *MoveList, _ uint64) Move {
	m, _ := b.choose(p, rules, roll, outs)
	return m
}

// choose is Choose that also returns how many leaves it evaluated: the
// latency benchmark reports the most, which bounds a move's time on any
// machine.
func (b *expertBot) choose(p *Position, rules Rules, roll int, outs *MoveList) (Move, int) {
	if outs.Len() <= 1 {
		return outs.At(0), 0
	}
	s := expertSearch{rules: rules, tb: expertTablesFor(rules), w: &b.w, root: p.toMove}
	if p.nOrder == 0 && b.fit != nil {
		s.fit, s.need = b.fit, fitNeed(b.fit)
	}
	best := 0
	for depth := 0; depth <= b.maxDepth; depth++ {
		if depth > 0 && s.leaves*expertGrowth > b.budget {
			break
		}
		s.limit = max(b.budget, s.leaves+outs.Len()) // the first layer always completes
		k := s.bestAt(p, roll, outs, depth)
		if s.aborted {
			break
		}
		best = k
	}
	return outs.At(best), s.leaves
}

// bestAt is the index of the root outcome with the highest value searched
// to depth chance layers.
func (s *expertSearch) bestAt(p *Position, roll int, outs *MoveList, depth int) int {
	best, bestV := 0, int32(-1<<31)
	for k := 0; k < outs.Len(); k++ {
		q := *p
		q.Apply(s.rules, roll, outs.At(k))
		if v := s.value(q, depth); v > bestV {
			best, bestV = k, v
		}
	}
	return best
}

// leaf is the root's static utility of p.
func (s *expertSearch) leaf(p *Position) int32 {
	s.leaves++
	if s.fit != nil {
		sc := s.tb.fitScoresOf(p, !s.rules.NoStacks, s.fit, s.need)
		return fitWinProb(p, &sc)[s.root]
	}
	sc := s.tb.scores(p, !s.rules.NoStacks, s.w)
	return utility(p, &sc, s.root, s.w)
}

// value is the root's expected utility of p, searched depth chance layers.
// p is passed by value: a pointer to a loop-local copy would make the
// recursion allocate.
func (s *expertSearch) value(p Position, depth int) int32 {
	if s.aborted || s.leaves > s.limit {
		s.aborted = true
		return 0
	}
	if depth == 0 || p.GameOver() {
		return s.leaf(&p)
	}
	mover := p.toMove
	sum := int32(0)
	for roll := 1; roll <= 6; roll++ {
		outs := p.Outcomes(s.rules, roll)
		switch {
		case outs.Len() == 1:
			q := p
			q.Apply(s.rules, roll, outs.At(0))
			sum += s.value(q, depth-1)
		case mover == s.root:
			best := int32(-1 << 31)
			for k := 0; k < outs.Len(); k++ {
				q := p
				q.Apply(s.rules, roll, outs.At(k))
				if v := s.value(q, depth-1); v > best {
					best = v
				}
			}
			sum += best
		default:
			sum += s.reply(&p, roll, &outs, depth-1)
		}
	}
	return sum / 6
}

// reply plays the greedy bot's move for the opponent to move and returns
// the root's value of the result searched depth more chance layers.
func (s *expertSearch) reply(p *Position, roll int, outs *MoveList, depth int) int32 {
	if s.aborted {
		return 0
	}
	q := *p
	q.Apply(s.rules, roll, greedyBot{w: defaultGreedyWeights}.Choose(p, s.rules, roll, outs, 0))
	s.leaves += outs.Len()
	return s.value(q, depth)
}
