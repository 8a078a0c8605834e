package engine

// MoveKind tells a plane move from the two rolls that move nothing.
type MoveKind uint8

// Kinds of outcome of a roll (rules.md section 4).
const (
	PlaneMove MoveKind = iota // a taxi or a move of one plane or stack, named by its lead plane
	Pass                      // no legal move: the roll is forfeited (4.3)
	Penalty                   // the third six of a turn (4.1)
)

// Move is one outcome of a roll. A plane move is named by its lead plane:
// the lowest-numbered plane of the group that moves.
type Move struct {
	Kind   MoveKind
	Colour Colour
	Plane  uint8
}

// String writes the move as rules.md does: R0, Y3, pass or penalty.
func (m Move) String() string {
	switch m.Kind {
	case Pass:
		return "pass"
	case Penalty:
		return "penalty"
	}
	return string([]byte{m.Colour.Letter(), '0' + m.Plane})
}

// ParseMove reads a move written as String writes it.
func ParseMove(s string) (Move, error) {
	switch s {
	case "pass":
		return Move{Kind: Pass}, nil
	case "penalty":
		return Move{Kind: Penalty}, nil
	}
	if len(s) == 2 {
		if c, err := ParseColour(s[:1]); err == nil && s[1] >= '0' && s[1] <= '3' {
			return Move{Kind: PlaneMove, Colour: c, Plane: s[1] - '0'}, nil
		}
	}
	return Move{}, errorf("move %q: want a colour letter and plane digit (R0 … G3), pass or penalty", s)
}

// MoveList holds the outcomes of one roll: at most one move per source
// place, so never more than four. It is a value, so listing moves never allocates.
type MoveList struct {
	n     uint8
	moves [PlanesPerColour]Move
}

// Len is the number of outcomes.
func (l *MoveList) Len() int { return int(l.n) }

// At is outcome i, in order of lead plane.
func (l *MoveList) At(i int) Move { return l.moves[i] }

// Slice copies the outcomes out.
func (l *MoveList) Slice() []Move { return append([]Move(nil), l.moves[:l.n]...) }

// Contains reports whether m is one of the outcomes. A pass or a penalty
// matches whatever its Colour field says: their notation names no colour,
// so a move read back with ParseMove must still be found.
func (l *MoveList) Contains(m Move) bool { return l.index(m) >= 0 }

func (l *MoveList) index(m Move) int {
	for i, x := range l.moves[:l.n] {
		if x == m || (x.Kind != PlaneMove && x.Kind == m.Kind) {
			return i
		}
	}
	return -1
}

func (l *MoveList) add(m Move) {
	l.moves[l.n] = m
	l.n++
}

// ValidRoll reports whether r is a face of the die.
func ValidRoll(r int) bool { return r >= 1 && r <= 6 }

// Outcomes lists what the side to move may do with roll: the single
// outcome Penalty for a third six, the single outcome Pass when no plane
// can move, or the legal plane moves sorted by lead plane. A game that is
// over, or a roll outside 1..6, has no outcomes.
func (p *Position) Outcomes(rules Rules, roll int) MoveList {
	var l MoveList
	if p.toMove == NoColour || !ValidRoll(roll) {
		return l
	}
	c := p.toMove
	if roll == 6 && p.sixes == 2 {
		l.add(Move{Kind: Penalty, Colour: c})
		return l
	}
	pl := &p.planes[c]
	for i := 0; i < PlanesPerColour; i++ {
		at := pl[i]
		if at == Finished || !firstAt(pl, i) {
			continue
		}
		switch {
		case at == Hangar:
			if !rules.Takeoff.Allows(roll) {
				continue
			}
		case at >= 0 && int(at)+roll > Centre && rules.StayOnOvershoot:
			continue
		}
		l.add(Move{Kind: PlaneMove, Colour: c, Plane: uint8(i)})
	}
	if l.n == 0 {
		l.add(Move{Kind: Pass, Colour: c})
	}
	return l
}

// firstAt reports whether plane i is the lowest-numbered plane at its place,
// so that each source place yields one move (rules.md section 6).
func firstAt(pl *[PlanesPerColour]Place, i int) bool {
	for j := 0; j < i; j++ {
		if pl[j] == pl[i] {
			return false
		}
	}
	return true
}
