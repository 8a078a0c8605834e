package engine

import "fmt"

// Colour is a seat on the board: Red, Blue, Yellow, Green clockwise.
type Colour uint8

// The four colours in their clockwise order; NoColour marks a game that is over.
const (
	Red Colour = iota
	Blue
	Yellow
	Green
	NoColour Colour = 4
)

// NumColours is the number of seats around the board.
const NumColours = 4

// PlanesPerColour is how many planes each colour flies.
const PlanesPerColour = 4

const colourLetters = "RBYG"

var colourNames = [NumColours]string{"Red", "Blue", "Yellow", "Green"}

// Next is the colour clockwise after c.
func (c Colour) Next() Colour { return (c + 1) % NumColours }

// Opposite is the colour across the board from c.
func (c Colour) Opposite() Colour { return (c + 2) % NumColours }

// Letter is the one-letter name used in the notation: R, B, Y or G ("-" for NoColour).
func (c Colour) Letter() byte {
	if c >= NumColours {
		return '-'
	}
	return colourLetters[c]
}

// String is the colour's English name.
func (c Colour) String() string {
	if c >= NumColours {
		return "none"
	}
	return colourNames[c]
}

// ParseColour reads one colour letter.
func ParseColour(s string) (Colour, error) {
	if len(s) == 1 {
		for i := 0; i < NumColours; i++ {
			if s[0] == colourLetters[i] {
				return Colour(i), nil
			}
		}
	}
	return NoColour, fmt.Errorf("colour %q: want one of R, B, Y, G", s)
}
