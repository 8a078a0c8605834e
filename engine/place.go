package engine

import (
	"fmt"
	"strconv"
)

// Place is where a plane is: the hangar, the launch area, a route index
// 0..54 of its own colour, or the centre (finished).
type Place int8

// Places off the route, and the centre.
const (
	Hangar   Place = -2
	Launch   Place = -1
	Finished Place = Centre
)

// String is the place in position notation: H, L, 0..54 or F.
func (p Place) String() string {
	switch {
	case p == Hangar:
		return "H"
	case p == Launch:
		return "L"
	case p == Finished:
		return "F"
	case p >= 0 && p <= HomeLast:
		return strconv.Itoa(int(p))
	}
	return fmt.Sprintf("?%d", int(p))
}

// parsePlace reads a place of the notation; route indices are written
// without leading zeros so that formatting gives back the same text.
func parsePlace(s string) (Place, error) {
	switch s {
	case "H":
		return Hangar, nil
	case "L":
		return Launch, nil
	case "F":
		return Finished, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > HomeLast || strconv.Itoa(n) != s {
		return 0, fmt.Errorf("place %q: want H, L, F or a route index 0..54", s)
	}
	return Place(n), nil
}

// OnBoard reports whether a plane at p can move (not in the hangar, not finished).
func (p Place) OnBoard() bool { return p != Hangar && p != Finished }
