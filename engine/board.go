package engine

import (
	"fmt"
	"strings"
)

// Board draws the position as text for logs and test failures: the 52
// track squares in four rows of one quarter each (its name, SquareName, the
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
	// Each cell is four characters and a space; a crowded square shows
	// its first plane and how many more share it, so columns stay aligned.
	var line strings.Builder
	flush := func() {
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
		line.Reset()
	}
	for row := 0; row < 4; row++ {
		for col := 0; col < 13; col++ {
			a := row*13 + col
			fmt.Fprintf(&line, "%2s%c  ", SquareName(a), SquareColour(a).Letter()+('a'-'A'))
		}
		flush()
		for col := 0; col < 13; col++ {
			occ := occupants[row*13+col]
			var cell string
			switch len(occ) {
			case 0:
				cell = "."
			case 1, 2:
				cell = strings.Join(occ, "")
			default:
				cell = fmt.Sprintf("%s+%d", occ[0], len(occ)-1)
			}
			fmt.Fprintf(&line, "%-4s ", cell)
		}
		flush()
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
				home = append(home, name+"@"+at.Name(c))
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
