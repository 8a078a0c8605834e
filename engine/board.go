package engine

import (
	"fmt"
	"strings"
)

// Board draws the position as text for logs and test failures: the 52
// track squares in four rows of one quarter each (absolute number, the
// square's colour, and any planes on it as colour letter and plane digit),
// then each colour's hangar, launch area, home column and centre.
// The interface draws the real cross-shaped board; this is the plain view.
func (p Position) Board() string {
	var occupants [TrackSquares][]string
	var b strings.Builder
	for c := Colour(0); c < NumColours; c++ {
		if !p.InPlay(c) {
			continue
		}
		for i, at := range p.planes[c] {
			if onTrack(at) {
				a := Absolute(c, int(at))
				occupants[a] = append(occupants[a], fmt.Sprintf("%c%d", c.Letter(), i))
			}
		}
	}
	fmt.Fprintf(&b, "%s\n", p.String())
	for row := 0; row < 4; row++ {
		for col := 0; col < 13; col++ {
			a := row*13 + col
			fmt.Fprintf(&b, "%2d%c ", a, SquareColour(a).Letter()+('a'-'A'))
		}
		b.WriteByte('\n')
		for col := 0; col < 13; col++ {
			occ := strings.Join(occupants[row*13+col], "")
			if occ == "" {
				occ = "."
			}
			if len(occ) > 4 {
				occ = occ[:3] + "+"
			}
			fmt.Fprintf(&b, "%-4s", occ)
		}
		b.WriteByte('\n')
	}
	for c := Colour(0); c < NumColours; c++ {
		if !p.InPlay(c) {
			continue
		}
		var hangar, launch, home, done []string
		for i, at := range p.planes[c] {
			name := fmt.Sprintf("%c%d", c.Letter(), i)
			switch {
			case at == Hangar:
				hangar = append(hangar, name)
			case at == Launch:
				launch = append(launch, name)
			case at == Finished:
				done = append(done, name)
			case at > TrackEnd:
				home = append(home, fmt.Sprintf("%s@H%d", name, int(at)-TrackEnd))
			}
		}
		mark := " "
		if c == p.toMove {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s%-6s hangar[%s] launch[%s] home[%s] centre[%s]\n", mark, c,
			strings.Join(hangar, " "), strings.Join(launch, " "), strings.Join(home, " "), strings.Join(done, " "))
	}
	return b.String()
}
