package engine

import "math/bits"

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
// place, so never more than four. It is a four-byte value, so listing
// moves never allocates and Outcomes returns it in registers.
type MoveList struct {
	n      uint8
	kind   MoveKind // PlaneMove, or the single Pass or Penalty
	colour Colour
	leads  uint8 // PlaneMove: bit i set when plane i leads a move
}

// nthLead[leads][i] is the i-th lowest set bit of leads.
var nthLead = func() (t [1 << PlanesPerColour][PlanesPerColour]uint8) {
	for m := range t {
		k := 0
		for i := 0; i < PlanesPerColour; i++ {
			if m&(1<<i) != 0 {
				t[m][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// Len is the number of outcomes.
func (l *MoveList) Len() int { return int(l.n) }

// At is outcome i (0 ≤ i < Len()), in order of lead plane.
func (l *MoveList) At(i int) Move {
	if l.kind != PlaneMove {
		return Move{Kind: l.kind, Colour: l.colour}
	}
	return Move{Kind: PlaneMove, Colour: l.colour, Plane: nthLead[l.leads&(1<<PlanesPerColour-1)][i]}
}

// Slice copies the outcomes out.
func (l *MoveList) Slice() []Move {
	var ms []Move
	for i := 0; i < l.Len(); i++ {
		ms = append(ms, l.At(i))
	}
	return ms
}

// Contains reports whether m is one of the outcomes. A pass or a penalty
// matches whatever its Colour field says: their notation names no colour,
// so a move read back with ParseMove must still be found.
func (l *MoveList) Contains(m Move) bool { return l.index(m) >= 0 }

func (l *MoveList) index(m Move) int {
	switch {
	case l.n == 0 || m.Kind != l.kind:
		return -1
	case m.Kind != PlaneMove:
		return 0
	case m.Colour != l.colour || m.Plane >= PlanesPerColour || l.leads&(1<<m.Plane) == 0:
		return -1
	}
	return bits.OnesCount8(l.leads & (1<<m.Plane - 1))
}

// ValidRoll reports whether r is a face of the die.
func ValidRoll(r int) bool { return r >= 1 && r <= 6 }

// Outcomes lists what the side to move may do with roll: the single
// outcome Penalty for a third six, the single outcome Pass when no plane
// can move, or the legal plane moves sorted by lead plane. A game that is
// over, or a roll outside 1..6, has no outcomes.
//
// It is on the hot path of every search and playout, so it works on a
// bit set of movable planes rather than appending move by move.
func (p *Position) Outcomes(rules Rules, roll int) MoveList {
	var l MoveList
	c := p.toMove
	if c >= NumColours || uint(roll-1) > 5 {
		return l
	}
	// The roll is random, so branches on it mispredict; the tests below are
	// written to compile to arithmetic rather than jumps.
	if uint(roll^6)|uint(p.sixes^2) == 0 {
		return MoveList{n: 1, kind: Penalty, colour: c}
	}
	pl := &p.planes[c]
	// A plane may move unless it is finished, waits in the hangar without a
	// taxi roll, or (overshoot=stay) would pass the centre; and only the
	// lowest-numbered plane of each place names a move (rules.md section 6).
	movable := 0b1111 &^ matchMask(pl, Finished)
	taxi := rules.Takeoff.rolls() >> uint(roll) & 1 // roll is 1..6 here
	movable &^= matchMask(pl, Hangar) & (taxi - 1)  // taxi-1: 0 or all ones
	if rules.StayOnOvershoot {
		limit := Place(Centre - roll)
		for i := 0; i < PlanesPerColour; i++ {
			if pl[i] > limit {
				movable &^= 1 << i
			}
		}
	}
	// Plane i is not a lead when a lower plane shares its place.
	p0, p1, p2, p3 := pl[0], pl[1], pl[2], pl[3]
	movable &^= bit(p1 == p0)<<1 |
		(bit(p2 == p0)|bit(p2 == p1))<<2 |
		(bit(p3 == p0)|bit(p3 == p1)|bit(p3 == p2))<<3
	pass := uint8((uint(movable) - 1) >> (bits.UintSize - 1)) // 1 when nothing can move
	return MoveList{n: uint8(bits.OnesCount8(movable)) + pass, kind: PlaneMove + MoveKind(pass), colour: c, leads: movable}
}

// bit is 1 for true; the compiler turns it into a flag set, not a jump.
func bit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// word packs four plane places into one uint32, plane i in byte i.
func word(pl *[PlanesPerColour]Place) uint32 {
	return uint32(uint8(pl[0])) | uint32(uint8(pl[1]))<<8 | uint32(uint8(pl[2]))<<16 | uint32(uint8(pl[3]))<<24
}

// matchMask has bit i set when plane i is at place at. It compares all four
// places at once: a byte of x is zero exactly where the places match, and
// ((b&0x7f)+0x7f)|b has its top bit set exactly when byte b is not zero,
// without carries between bytes. The multiply then gathers bits 0, 8, 16
// and 24 into bits 24..27 (the other partial products miss those bits).
func matchMask(pl *[PlanesPerColour]Place, at Place) uint8 {
	x := word(pl) ^ uint32(uint8(at))*0x01010101
	z := ^(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080
	return uint8((z >> 7) * 0x01020408 >> 24)
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
