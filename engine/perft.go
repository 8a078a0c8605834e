package engine

// Perft counts roll-and-choice sequences of the given depth from p
// (rules.md section 10).
func Perft(p Position, rules Rules, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.GameOver() {
		return 0
	}
	var n uint64
	for roll := 1; roll <= 6; roll++ {
		outs := p.Outcomes(rules, roll)
		for k := 0; k < outs.Len(); k++ {
			q := p
			q.Apply(rules, roll, outs.At(k))
			n += Perft(q, rules, depth-1)
		}
	}
	return n
}

// DivideEntry is the perft count below one roll and outcome.
type DivideEntry struct {
	Roll  int
	Move  Move
	Count uint64
}

// Divide is Perft split by the first roll and outcome, in roll order and
// then lead-plane order, to find where two engines first disagree.
func Divide(p Position, rules Rules, depth int) []DivideEntry {
	var out []DivideEntry
	if depth == 0 || p.GameOver() {
		return out
	}
	for roll := 1; roll <= 6; roll++ {
		outs := p.Outcomes(rules, roll)
		for k := 0; k < outs.Len(); k++ {
			q := p
			q.Apply(rules, roll, outs.At(k))
			out = append(out, DivideEntry{Roll: roll, Move: outs.At(k), Count: Perft(q, rules, depth-1)})
		}
	}
	return out
}
