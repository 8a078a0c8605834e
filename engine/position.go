package engine

// Position is everything the rules need to go on from a point of the game:
// where every plane is, who is to move, the sixes of this turn and the
// finishing order (rules.md section 9). It is a small value: copy it freely.
// Stacks are not stored: with stack=on, own planes on one route index are a stack.
type Position struct {
	planes   [NumColours][PlanesPerColour]Place
	inPlay   uint8  // bit c set: colour c is in play
	toMove   Colour // NoColour once the game is over
	sixes    uint8  // sixes rolled and moved this turn: 0, 1 or 2
	sixMoved uint8  // bit i set: plane i of toMove moved by a six this turn
	order    [NumColours]Colour
	nOrder   uint8
}

// NewGame is the start of a game with the given colours in play (2 to 4,
// any order, no repeats); the first colour clockwise from Red that is in play moves first.
func NewGame(colours ...Colour) (Position, error) {
	var p Position
	for _, c := range colours {
		if c >= NumColours {
			return p, errorf("new game: colour %d does not exist", c)
		}
		if p.InPlay(c) {
			return p, errorf("new game: %s given twice", c)
		}
		p.inPlay |= 1 << c
		for i := range p.planes[c] {
			p.planes[c][i] = Hangar
		}
	}
	if n := len(colours); n < 2 || n > NumColours {
		return p, errorf("new game: %d colours in play, want 2 to 4", n)
	}
	p.toMove = NoColour
	for c := Colour(0); c < NumColours; c++ {
		if p.InPlay(c) {
			p.toMove = c
			break
		}
	}
	return p, nil
}

// WithToMove is p with colour c to move and no sixes this turn; lockstep
// uses it when the shared dice choose the first player. It fails when c
// cannot move.
func (p Position) WithToMove(c Colour) (Position, error) {
	if p.GameOver() || !p.InPlay(c) || p.colourFinished(c) {
		return p, errorf("%s cannot be to move in %s", c, p)
	}
	p.toMove, p.sixes, p.sixMoved = c, 0, 0
	return p, nil
}

// Plane is where plane i (0..3) of colour c is.
func (p *Position) Plane(c Colour, i int) Place { return p.planes[c][i] }

// InPlay reports whether colour c is in the game.
func (p *Position) InPlay(c Colour) bool { return c < NumColours && p.inPlay&(1<<c) != 0 }

// Colours lists the colours in play in clockwise order from Red.
func (p *Position) Colours() []Colour {
	var cs []Colour
	for c := Colour(0); c < NumColours; c++ {
		if p.InPlay(c) {
			cs = append(cs, c)
		}
	}
	return cs
}

// ToMove is the colour to roll next; NoColour when the game is over.
func (p *Position) ToMove() Colour { return p.toMove }

// GameOver reports whether the game has ended.
func (p *Position) GameOver() bool { return p.toMove == NoColour }

// Sixes is how many sixes the side to move has rolled and moved this turn.
func (p *Position) Sixes() int { return int(p.sixes) }

// MovedBySix reports whether plane i of the side to move is recorded as moved by a six this turn.
func (p *Position) MovedBySix(i int) bool { return p.sixMoved&(1<<i) != 0 }

// Order is the finishing order so far: colours with every plane finished,
// first first. Once the game is over the last colour is not in it; see Ranking.
func (p *Position) Order() []Colour { return append([]Colour(nil), p.order[:p.nOrder]...) }

// Ranking is the full result of a finished game: the finishing order and
// then the one colour still flying. It is nil while the game goes on.
func (p *Position) Ranking() []Colour {
	if !p.GameOver() {
		return nil
	}
	r := p.Order()
	for c := Colour(0); c < NumColours; c++ {
		if p.InPlay(c) && !p.colourFinished(c) {
			r = append(r, c)
		}
	}
	return r
}

// Finished reports whether all of colour c's planes have reached the centre.
func (p *Position) Finished(c Colour) bool { return p.InPlay(c) && p.colourFinished(c) }

func (p *Position) colourFinished(c Colour) bool {
	return word(&p.planes[c]) == uint32(Finished)*0x01010101
}

// StackSize is how many of colour c's planes fly together with plane i:
// 1 unless stacks are on and own planes share its route index.
func (p *Position) StackSize(rules Rules, c Colour, i int) int {
	at := p.planes[c][i]
	if rules.NoStacks || at < 0 || at > HomeLast {
		return 1
	}
	n := 0
	for _, q := range p.planes[c] {
		if q == at {
			n++
		}
	}
	return n
}
