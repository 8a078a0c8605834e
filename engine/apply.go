package engine

import "math/bits"

// Capture is one plane sent back to its hangar by a move.
type Capture struct {
	Colour Colour
	Plane  uint8
	From   Place // its route index when it was hit
}

// Result says step by step what a move did, for event logs and animation.
type Result struct {
	Move  Move
	Roll  int
	Group uint8 // bit i: plane i of the mover moved (the stack, or one plane)
	From  Place // where the group started
	// Landed is where the roll's steps ended (after a bounce at the centre).
	Landed  Place
	Bounced bool
	// JumpTo is set (≥ 0) when the group jumped +4 from Landed; FlyTo when
	// it took the shortcut; FlyJumpTo when flyjump carried it on to 33.
	JumpTo, FlyTo, FlyJumpTo Place
	To                       Place // where the group ended
	Captures                 [3 * PlanesPerColour]Capture
	NCaptures                uint8
	// Penalised is the planes a third six sent home (bit i: plane i).
	Penalised uint8
	// ColourFinished is set when this move finished the mover's last plane.
	ColourFinished bool
	ExtraRoll      bool // the mover rolls again
	Next           Colour
}

// Play applies an outcome of roll after checking that it is one of
// Outcomes(rules, roll); it returns the new position and what happened.
// An illegal outcome returns an error wrapping ErrIllegal and p unchanged.
func (p Position) Play(rules Rules, roll int, m Move) (Position, Result, error) {
	var res Result
	if p.GameOver() {
		return p, res, errorf("the game is over: no moves")
	}
	if !ValidRoll(roll) {
		return p, res, errorf("roll %d: want 1..6", roll)
	}
	outs := p.Outcomes(rules, roll)
	k := outs.index(m)
	if k < 0 {
		return p, res, errorf("%s is not legal for %s with roll %d in %s (legal: %v)", m, p.toMove, roll, p, outs.Slice())
	}
	m = outs.At(k) // a pass or penalty read from text gets the mover's colour
	p.apply(rules, roll, m, &res)
	return p, res, nil
}

// Apply plays an outcome known to be legal (one of Outcomes). It does not
// check and does not allocate: it is the fast path for search and playouts.
func (p *Position) Apply(rules Rules, roll int, m Move) {
	if m.Kind == PlaneMove {
		p.movePlanes(rules, roll, int(m.Plane), nil) // the common case, one call less
		return
	}
	p.apply(rules, roll, m, nil)
}

func (p *Position) apply(rules Rules, roll int, m Move, res *Result) {
	c := p.toMove
	if res != nil {
		*res = Result{Move: m, Roll: roll, From: Hangar, Landed: Hangar, JumpTo: -1, FlyTo: -1, FlyJumpTo: -1, To: Hangar}
	}
	switch m.Kind {
	case Penalty:
		for i := 0; i < PlanesPerColour; i++ {
			if p.sixMoved&(1<<i) != 0 {
				p.planes[c][i] = Hangar
			}
		}
		if res != nil {
			res.Penalised = p.sixMoved
		}
		p.passTurn()
	case Pass:
		p.passTurn()
	default:
		p.movePlanes(rules, roll, int(m.Plane), res)
	}
	if res != nil {
		res.Next = p.toMove
	}
}

func (p *Position) movePlanes(rules Rules, roll, lead int, res *Result) {
	c := p.toMove & (NumColours - 1) // never NoColour here; the mask drops bounds checks
	pl := &p.planes[c]
	from := pl[lead&(PlanesPerColour-1)]
	var group uint8 = 1 << lead
	// With stacks, the planes after the lead on its square (never in the
	// hangar or launch area) move with it. Masks instead of branches: the
	// place is random.
	stacks := uint8(0)
	if !rules.NoStacks {
		stacks = 0xff
	}
	onRoute := ^uint8(int8(from) >> 7) // all ones unless from is H or L
	group |= matchMask(pl, from) &^ (group - 1) & stacks & onRoute
	// From the launch area (−1) the same sum gives index roll−1. Past the
	// centre the plane bounces to 110−t, which is then the smaller of the
	// two; so min needs no branch on the random roll.
	t := int(from) + roll
	to := Place(min(t, 2*Centre-t))
	if from == Hangar {
		to = Launch
	}
	if res != nil {
		res.Group, res.From, res.Landed, res.Bounced = group, from, to, from != Hangar && t > Centre
	}
	if onTrack(to) {
		to = p.land(rules, c, to, res)
	}
	// Every plane of the group to its new place in one word, without a
	// loop or tests whose outcome (the random stack) would be guessed wrong.
	m := groupBytes[group&(1<<PlanesPerColour-1)]
	w := word(pl)&^m | uint32(uint8(to))*0x01010101&m
	pl[0], pl[1], pl[2], pl[3] = Place(w), Place(w>>8), Place(w>>16), Place(w>>24)
	if res != nil {
		res.To = to
	}
	finished := to == Finished && p.colourFinished(c)
	if finished {
		p.order[p.nOrder] = c
		p.nOrder++
		if res != nil {
			res.ColourFinished = true
		}
		if p.flyingColours() <= 1 {
			p.toMove, p.sixes, p.sixMoved = NoColour, 0, 0
			return
		}
	}
	if roll == 6 && !finished {
		p.sixes++
		p.sixMoved |= group
		if res != nil {
			res.ExtraRoll = true
		}
		return
	}
	p.passTurn()
}

// groupBytes[g] has byte i all ones when bit i of g is set.
var groupBytes = func() (t [1 << PlanesPerColour]uint32) {
	for g := range t {
		for i := 0; i < PlanesPerColour; i++ {
			if g&(1<<i) != 0 {
				t[g] |= 0xff << (8 * i)
			}
		}
	}
	return t
}()

// jumpSquares has bit i set when IsJumpSquare(i).
var jumpSquares = func() (m uint64) {
	for i := 0; i <= TrackEnd; i++ {
		if IsJumpSquare(i) {
			m |= 1 << i
		}
	}
	return m
}()

// land applies the effects of landing on track square `at` (rules.md
// section 5) and returns where the group ends.
func (p *Position) land(rules Rules, c Colour, at Place, res *Result) Place {
	p.captureAt(c, at, res)
	switch {
	case at == ShortcutFrom:
		at = p.fly(c, res)
		if rules.FlyJump {
			at = FlyJumpTo
			p.captureAt(c, at, res)
			if res != nil {
				res.FlyJumpTo = at
			}
		}
	case jumpSquares>>uint(at)&1 != 0:
		at += JumpLength
		p.captureAt(c, at, res)
		if res != nil {
			res.JumpTo = at
		}
		if at == ShortcutFrom {
			at = p.fly(c, res) // a jump onto the shortcut flies, but never jumps again
		}
	}
	return at
}

// fly takes the shortcut 17 → 29: it crosses the opposite colour's H3, then
// captures on 29.
func (p *Position) fly(c Colour, res *Result) Place {
	o := c.Opposite()
	if p.InPlay(o) {
		for j := 0; j < PlanesPerColour; j++ {
			if p.planes[o][j] == CrossingHome {
				p.planes[o][j] = Hangar
				if res != nil {
					res.Captures[res.NCaptures] = Capture{Colour: o, Plane: uint8(j), From: CrossingHome}
					res.NCaptures++
				}
			}
		}
	}
	p.captureAt(c, ShortcutTo, res)
	if res != nil {
		res.FlyTo = ShortcutTo
	}
	return ShortcutTo
}

// squareKeys[a] is, for each colour o, o's route index of absolute square a
// repeated in the four bytes that hold o's planes (see captureAt), or
// neverPlace where o never visits a.
var squareKeys = func() (t [TrackSquares][2]uint64) {
	for a := 0; a < TrackSquares; a++ {
		for o := Colour(0); o < NumColours; o++ {
			key := uint64(neverPlace)
			if i := RouteIndex(o, a); i <= TrackEnd {
				key = uint64(i)
			}
			t[a][o/2] |= key * 0x01010101 << (32 * (o % 2))
		}
	}
	return t
}()

// neverPlace is a byte no plane place ever holds; ORed into a key byte
// (every key is ≤ 0x7f) it makes the byte neverPlace.
const neverPlace = 0x7f

// notOpponents[m] is neverPlace in the bytes of every colour whose bit in m
// is clear, so that ORing it into a key leaves only the opponents in m.
var notOpponents = func() (t [1 << NumColours][2]uint64) {
	for m := range t {
		for o := 0; o < NumColours; o++ {
			if m&(1<<o) == 0 {
				t[m][o/2] |= neverPlace * 0x01010101 << (32 * (o % 2))
			}
		}
	}
	return t
}()

// zeroBytes has the top bit of each byte of x that is zero, and no other
// bit: ((b&0x7f)+0x7f)|b has its top bit set exactly when b is not zero,
// and the sum never carries into the next byte.
func zeroBytes(x uint64) uint64 {
	const low7, top = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	return ^(((x & low7) + low7) | x) & top
}

// routeSquare[c][i] is Absolute(c, i) for the track's route indices.
var routeSquare = func() (t [NumColours][TrackEnd + 1]uint8) {
	for c := Colour(0); c < NumColours; c++ {
		for i := range t[c] {
			t[c][i] = uint8(Absolute(c, i))
		}
	}
	return t
}()

// captureAt sends every opponent plane on colour c's track square at (a
// route index 0..49) to its hangar. Most landings capture nothing, so it
// first compares all sixteen planes with the square at once.
func (p *Position) captureAt(c Colour, at Place, res *Result) {
	ex := &notOpponents[p.inPlay&^(1<<c)&(1<<NumColours-1)]
	key := &squareKeys[routeSquare[c&(NumColours-1)][at]]
	// All sixteen places in two words: colours 0 and 1 in the first, 2 and
	// 3 in the second, plane i of colour o in byte 4(o%2)+i.
	w0 := uint64(word(&p.planes[0])) | uint64(word(&p.planes[1]))<<32
	w1 := uint64(word(&p.planes[2])) | uint64(word(&p.planes[3]))<<32
	z0, z1 := zeroBytes(w0^(key[0]|ex[0])), zeroBytes(w1^(key[1]|ex[1]))
	if z0|z1 == 0 {
		return
	}
	p.sendHome(z0, 0, res)
	p.sendHome(z1, 2, res)
}

// sendHome sends to the hangar the planes marked in z (zeroBytes of a
// captureAt word whose first colour is base), colour by colour and plane
// by plane in ascending order.
func (p *Position) sendHome(z uint64, base Colour, res *Result) {
	for ; z != 0; z &= z - 1 {
		b := bits.TrailingZeros64(z) >> 3
		o, j := base+Colour(b>>2), b&3
		if res != nil {
			res.Captures[res.NCaptures] = Capture{Colour: o, Plane: uint8(j), From: p.planes[o][j]}
			res.NCaptures++
		}
		p.planes[o][j] = Hangar
	}
}

// passTurn hands the dice to the next colour clockwise that is in play and
// still flying, and clears the sixes of the turn (rules.md 4.7).
func (p *Position) passTurn() {
	p.sixes, p.sixMoved = 0, 0
	p.toMove = nextTurn[p.flyingMask()][p.toMove&(NumColours-1)]
}

// flyingMask has bit c set when colour c is in play and not finished.
func (p *Position) flyingMask() uint8 {
	const fin = uint32(Finished) * 0x01010101
	done := bit(word(&p.planes[0]) == fin) | bit(word(&p.planes[1]) == fin)<<1 |
		bit(word(&p.planes[2]) == fin)<<2 | bit(word(&p.planes[3]) == fin)<<3
	return p.inPlay &^ done & (1<<NumColours - 1)
}

// nextTurn[flying][c] is the first colour clockwise after c whose bit is in
// flying, or c itself when there is none.
var nextTurn = func() (t [1 << NumColours][NumColours]Colour) {
	for m := range t {
		for c := Colour(0); c < NumColours; c++ {
			t[m][c] = c
			for k := Colour(1); k <= NumColours; k++ {
				if o := (c + k) % NumColours; m&(1<<o) != 0 {
					t[m][c] = o
					break
				}
			}
		}
	}
	return t
}()

func (p *Position) flyingColours() int {
	n := 0
	for c := Colour(0); c < NumColours; c++ {
		if p.inPlay&(1<<c) != 0 && !p.colourFinished(c) {
			n++
		}
	}
	return n
}
