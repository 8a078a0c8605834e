package ui

import (
	"fmt"
	"math"
)

// diceStats counts the faces rolled in this game, for players who suspect
// the dice. Floats are fine here: nothing in the game depends on them.
type diceStats struct {
	count [7]int
	n     int
}

func (d *diceStats) add(roll int) {
	if roll >= 1 && roll <= 6 {
		d.count[roll]++
		d.n++
	}
}

// chiSquare is Pearson's statistic of the counts against a fair die.
func (d *diceStats) chiSquare() float64 {
	if d.n == 0 {
		return 0
	}
	e := float64(d.n) / 6
	x := 0.0
	for f := 1; f <= 6; f++ {
		o := float64(d.count[f]) - e
		x += o * o / e
	}
	return x
}

// pValue is how often a fair die spreads at least this unevenly: the
// chi-square survival function with 5 degrees of freedom.
func (d *diceStats) pValue() float64 { return chiSquareSF5(d.chiSquare()) }

// chiSquareSF5 is P(X ≥ x) for X chi-square with 5 degrees of freedom,
// in closed form for odd degrees: 2Q(√x) + 2φ(√x)(√x + x^{3/2}/3).
func chiSquareSF5(x float64) float64 {
	if x <= 0 {
		return 1
	}
	z := math.Sqrt(x)
	tail := math.Erfc(z / math.Sqrt2) // 2Q(z)
	phi := math.Exp(-x/2) / math.Sqrt(2*math.Pi)
	return tail + 2*phi*(z+z*x/3)
}

// faces is the counts as "1:3 2:5 …".
func (d *diceStats) faces() string {
	return fmt.Sprintf("1:%d 2:%d 3:%d 4:%d 5:%d 6:%d", d.count[1], d.count[2], d.count[3], d.count[4], d.count[5], d.count[6])
}
