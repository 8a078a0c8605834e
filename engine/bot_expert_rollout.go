package engine

// Rollout evaluation of the root's outcomes: each outcome is played on by
// every colour's static policy (the move with the best static utility for
// the mover) for a fixed number of rolls, over many dice sequences, and
// scored by the root's static utility where the rollout stops. Every
// outcome sees the same dice sequences (common random numbers), so the
// comparison between outcomes is far less noisy than the values are.
// The dice come from NewRand seeded by Choose's seed: the move is a pure
// function of the inputs.

// policy is the outcome with the best static utility for the side to move.
func (s *expertSearch) policy(p *Position, roll int, outs *MoveList) Move {
	mover := p.toMove
	best, bestU := 0, int32(-1<<31)
	for k := 0; k < outs.Len(); k++ {
		q := *p
		q.Apply(s.rules, roll, outs.At(k))
		s.leaves++
		sc := s.tb.scores(&q, !s.rules.NoStacks, s.w)
		if u := utility(&q, &sc, mover, s.w); u > bestU {
			best, bestU = k, u
		}
	}
	return outs.At(best)
}

// rollout plays p on for at most horizon rolls and returns the root's
// static utility of where it stops.
func (s *expertSearch) rollout(p Position, dice Rand, horizon int) int32 {
	for ply := 0; ply < horizon && !p.GameOver(); ply++ {
		roll := dice.Roll()
		outs := p.Outcomes(s.rules, roll)
		m := outs.At(0)
		if outs.Len() > 1 {
			m = s.policy(&p, roll, &outs)
		}
		p.Apply(s.rules, roll, m)
	}
	return s.leaf(&p)
}

// bestByRollouts is the index of the root outcome with the best total
// over samples rollouts of horizon rolls each.
func (s *expertSearch) bestByRollouts(p *Position, roll int, outs *MoveList, seed uint64, samples, horizon int) int {
	var sum [PlanesPerColour]int64
	var after [PlanesPerColour]Position
	for k := 0; k < outs.Len(); k++ {
		after[k] = *p
		after[k].Apply(s.rules, roll, outs.At(k))
	}
	seq := NewRand(seed ^ 0x6578706572742d72) // "expert-r"
	for i := 0; i < samples; i++ {
		dice := NewRand(seq.Uint64())
		for k := 0; k < outs.Len(); k++ {
			sum[k] += int64(s.rollout(after[k], dice, horizon))
		}
	}
	best := 0
	for k := 1; k < outs.Len(); k++ {
		if sum[k] > sum[best] {
			best = k
		}
	}
	return best
}
