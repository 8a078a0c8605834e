package engine

import (
	"strings"
)

// String formats the position in the notation of rules.md section 9.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(64)
	for c := Colour(0); c < NumColours; c++ {
		if c > 0 {
			b.WriteByte('/')
		}
		if !p.InPlay(c) {
			b.WriteByte('-')
			continue
		}
		for i, pl := range p.planes[c] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pl.String())
		}
	}
	b.WriteByte(' ')
	b.WriteByte(p.toMove.Letter())
	b.WriteByte(' ')
	if p.sixes == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte('0' + p.sixes)
		b.WriteByte(':')
		for i := 0; i < PlanesPerColour; i++ {
			if p.sixMoved&(1<<i) != 0 {
				b.WriteByte('0' + byte(i))
			}
		}
	}
	b.WriteByte(' ')
	if p.nOrder == 0 {
		b.WriteByte('-')
	}
	for _, c := range p.order[:p.nOrder] {
		b.WriteByte(c.Letter())
	}
	return b.String()
}

// ParsePosition reads a position in the notation of rules.md section 9 and
// validates it. Only the canonical text is accepted, so formatting a parsed
// position always gives back the same text. Errors say which field is wrong.
func ParsePosition(s string) (Position, error) {
	var p Position
	fields := strings.Split(s, " ")
	if len(fields) != 4 {
		return p, errorf("position %q: want 4 fields separated by single spaces (planes, side to move, sixes, finishing order), got %d", s, len(fields))
	}
	groups := strings.Split(fields[0], "/")
	if len(groups) != NumColours {
		return p, errorf("position %q: planes field has %d colour groups, want 4 separated by /", s, len(groups))
	}
	for c, g := range groups {
		col := Colour(c)
		if g == "-" {
			continue
		}
		places := strings.Split(g, ",")
		if len(places) != PlanesPerColour {
			return p, errorf("position %q: %s has %d planes, want 4", s, col, len(places))
		}
		p.inPlay |= 1 << c
		for i, ps := range places {
			pl, err := parsePlace(ps)
			if err != nil {
				return p, errorf("position %q: %s plane %d: %v", s, col, i, err)
			}
			p.planes[c][i] = pl
		}
	}
	switch side := fields[1]; side {
	case "-":
		p.toMove = NoColour
	default:
		c, err := ParseColour(side)
		if err != nil {
			return p, errorf("position %q: side to move: %v (or - when the game is over)", s, err)
		}
		p.toMove = c
	}
	if err := p.parseSixes(fields[2]); err != nil {
		return p, errorf("position %q: sixes %q: %v", s, fields[2], err)
	}
	if fields[3] == "" {
		return p, errorf("position %q: finishing order is empty: write - when no colour has finished", s)
	}
	if fields[3] != "-" {
		for i := 0; i < len(fields[3]); i++ {
			c, err := ParseColour(fields[3][i : i+1])
			if err != nil {
				return p, errorf("position %q: finishing order: %v", s, err)
			}
			if p.nOrder == NumColours {
				return p, errorf("position %q: finishing order %q is too long", s, fields[3])
			}
			p.order[p.nOrder] = c
			p.nOrder++
		}
	}
	if err := p.Validate(); err != nil {
		return p, errorf("position %q: %v", s, err)
	}
	return p, nil
}

func (p *Position) parseSixes(f string) error {
	if f == "0" {
		return nil
	}
	if len(f) < 3 || (f[0] != '1' && f[0] != '2') || f[1] != ':' {
		return errorf("want 0, or 1: or 2: followed by plane digits")
	}
	p.sixes = f[0] - '0'
	last := -1
	for _, ch := range f[2:] {
		d := int(ch - '0')
		if d < 0 || d >= PlanesPerColour {
			return errorf("%q is not a plane digit 0..3", ch)
		}
		if d <= last {
			return errorf("plane digits must be ascending without repeats")
		}
		last = d
		p.sixMoved |= 1 << d
	}
	return nil
}

// Validate checks the invariants of rules.md section 9 for a position built
// or changed outside the engine's own moves.
func (p *Position) Validate() error {
	n := 0
	for c := Colour(0); c < NumColours; c++ {
		if p.InPlay(c) {
			n++
		}
	}
	if n < 2 {
		return errorf("%d colours in play, want 2 to 4", n)
	}
	var inOrder uint8
	for _, c := range p.order[:p.nOrder] {
		switch {
		case !p.InPlay(c):
			return errorf("finishing order names %s, which is not in play", c)
		case inOrder&(1<<c) != 0:
			return errorf("finishing order names %s twice", c)
		case !p.colourFinished(c):
			return errorf("finishing order names %s, which has unfinished planes", c)
		}
		inOrder |= 1 << c
	}
	flying := 0
	for c := Colour(0); c < NumColours; c++ {
		if !p.InPlay(c) {
			continue
		}
		if p.colourFinished(c) {
			if inOrder&(1<<c) == 0 {
				return errorf("%s has finished but is missing from the finishing order", c)
			}
		} else {
			flying++
		}
	}
	if flying == 0 {
		return errorf("every colour in play has finished: the last colour still flying ends the game and never finishes")
	}
	if flying == 1 {
		if p.toMove != NoColour {
			return errorf("the game is over (%d colour still flying): side to move must be -", flying)
		}
		if p.sixes != 0 {
			return errorf("the game is over: sixes must be 0")
		}
		return nil
	}
	switch {
	case p.toMove == NoColour:
		return errorf("stale game-over mark: %d colours still have unfinished planes", flying)
	case !p.InPlay(p.toMove):
		return errorf("side to move %s is not in play", p.toMove)
	case p.colourFinished(p.toMove):
		return errorf("side to move %s has already finished", p.toMove)
	}
	if (p.sixes == 0) != (p.sixMoved == 0) {
		return errorf("sixes count %d does not match the recorded planes", p.sixes)
	}
	for i := 0; i < PlanesPerColour; i++ {
		if p.sixMoved&(1<<i) != 0 && p.planes[p.toMove][i] == Hangar {
			return errorf("%s plane %d is recorded as moved by a six but is in its hangar", p.toMove, i)
		}
	}
	return nil
}
