package lobby

import (
	"slices"

	"aeroplane/engine"
)

// Layout spreads n seats around the board: two players sit opposite,
// three leave one colour out, four take all.
func Layout(n int) []engine.Colour {
	switch n {
	case 2:
		return []engine.Colour{engine.Red, engine.Yellow}
	case 3:
		return []engine.Colour{engine.Red, engine.Blue, engine.Yellow}
	}
	return []engine.Colour{engine.Red, engine.Blue, engine.Yellow, engine.Green}
}

// handOutOrder is the order free colours are given for a table of n
// seats: the layout's first, then the others.
func handOutOrder(n int) []engine.Colour {
	out := Layout(n)
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
