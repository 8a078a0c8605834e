package engine

import "strconv"

// The one naming of the board's spots that every screen and tool shares
// (the interface's board, its list of moves and event log, and replay):
// a track square is its absolute number 0..51 (rules.md section 2), the
// same whoever stands on it; a square of a colour's home column is that
// colour's lower-case letter and its step 1..5 (r1..r5, rules.md's H1..H5);
// the launch area is L, the hangar H and the centre ✓. Route indices,
// which differ per colour, appear only in the position notation.

// SquareName is the name of absolute track square a (0..51).
func SquareName(a int) string { return strconv.Itoa(a) }

// Name is the name of the spot where a plane of colour c at p stands.
func (p Place) Name(c Colour) string {
	switch {
	case p == Hangar:
		return "H"
	case p == Launch:
		return "L"
	case p == Finished:
		return "✓"
	case p >= 0 && p <= TrackEnd:
		return SquareName(Absolute(c, int(p)))
	case p >= HomeFirst && p <= HomeLast && c < NumColours:
		return string(rune(c.Letter()-'A'+'a')) + strconv.Itoa(int(p)-TrackEnd)
	}
	return p.String()
}

// PathStep is one place a move's group passes through: a step of the
// roll, or (Leap) where a jump or a flight took it.
type PathStep struct {
	Place Place
	Leap  bool
}

// Path is every place the moving group passes through after From, in
// order: the roll's steps one by one (back from the centre after a
// bounce, so the last is Landed; a taxi's one step is the launch area),
// then where each jump and flight took it (the last is To). A pass or a
// penalty moves nothing and has no path.
func (r *Result) Path() []PathStep {
	if r.Move.Kind != PlaneMove {
		return nil
	}
	if r.From == Hangar {
		return []PathStep{{Place: Launch}}
	}
	out := make([]PathStep, 0, r.Roll+3)
	for k := 1; k <= r.Roll; k++ {
		at := int(r.From) + k // from the launch area (-1), step k is index k-1
		if at > Centre {
			at = 2*Centre - at // rules.md 4.1: to the centre and back the rest
		}
		out = append(out, PathStep{Place: Place(at)})
	}
	for _, leap := range []Place{r.JumpTo, r.FlyTo, r.FlyJumpTo} {
		if leap >= 0 {
			out = append(out, PathStep{Place: leap, Leap: true})
		}
	}
	return out
}
