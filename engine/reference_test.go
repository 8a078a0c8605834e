package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// This file is a second, deliberately plain implementation of rules.md
// sections 4–7, written from the rule book and not from the engine's code.
// The fast engine (bit sets, word-at-a-time captures) must agree with it
// on every position, including hand-built ones no game reaches.

func refOutcomes(p Position, rules Rules, roll int) []Move {
	c := p.toMove
	if c == NoColour || roll < 1 || roll > 6 {
		return nil
	}
	if roll == 6 && p.sixes == 2 {
		return []Move{{Kind: Penalty, Colour: c}}
	}
	var ms []Move
	for i := 0; i < 4; i++ {
		at := p.planes[c][i]
		lowest := true
		for j := 0; j < i; j++ {
			if p.planes[c][j] == at {
				lowest = false
			}
		}
		taxi := (rules.Takeoff == TakeoffEven && roll%2 == 0) ||
			(rules.Takeoff == TakeoffSix && roll == 6) ||
			(rules.Takeoff == TakeoffFiveSix && roll >= 5)
		switch {
		case !lowest, at == Finished:
		case at == Hangar && !taxi:
		case at >= 0 && int(at)+roll > 55 && rules.StayOnOvershoot:
		default:
			ms = append(ms, Move{Kind: PlaneMove, Colour: c, Plane: uint8(i)})
		}
	}
	if len(ms) == 0 {
		ms = []Move{{Kind: Pass, Colour: c}}
	}
	return ms
}

func refAllFinished(p *Position, c Colour) bool {
	for _, at := range p.planes[c] {
		if at != Finished {
			return false
		}
	}
	return true
}

func refPassTurn(p *Position) {
	p.sixes, p.sixMoved = 0, 0
	for k := 1; k <= 4; k++ {
		o := Colour((int(p.toMove) + k) % 4)
		if p.inPlay&(1<<o) != 0 && !refAllFinished(p, o) {
			p.toMove = o
			return
		}
	}
}

// refCapture sends every opponent plane on c's route square i home.
func refCapture(p *Position, c Colour, i int) {
	square := (13*int(c) + i) % 52
	for o := Colour(0); o < 4; o++ {
		if o == c || p.inPlay&(1<<o) == 0 {
			continue
		}
		for j, at := range p.planes[o] {
			if at >= 0 && at <= 49 && (13*int(o)+int(at))%52 == square {
				p.planes[o][j] = Hangar
			}
		}
	}
}

func refFly(p *Position, c Colour) {
	o := (c + 2) % 4
	if p.inPlay&(1<<o) != 0 {
		for j, at := range p.planes[o] {
			if at == 52 {
				p.planes[o][j] = Hangar
			}
		}
	}
	refCapture(p, c, 29)
}

func refApply(p Position, rules Rules, roll int, m Move) Position {
	c := p.toMove
	switch m.Kind {
	case Penalty:
		for i := 0; i < 4; i++ {
			if p.sixMoved&(1<<i) != 0 {
				p.planes[c][i] = Hangar
			}
		}
		refPassTurn(&p)
		return p
	case Pass:
		refPassTurn(&p)
		return p
	}
	from := p.planes[c][m.Plane]
	group := []int{int(m.Plane)}
	if !rules.NoStacks && from >= 0 && from <= 54 {
		group = nil
		for j, at := range p.planes[c] {
			if at == from {
				group = append(group, j)
			}
		}
	}
	var to int
	switch from {
	case Hangar:
		to = -1
	case Launch:
		to = roll - 1
	default:
		to = int(from) + roll
		if to > 55 {
			to = 110 - to
		}
	}
	if to >= 0 && to <= 49 {
		refCapture(&p, c, to)
		if to == 17 {
			refFly(&p, c)
			to = 29
			if rules.FlyJump {
				to = 33
				refCapture(&p, c, to)
			}
		} else if to%4 == 1 && to != 49 {
			to += 4
			refCapture(&p, c, to)
			if to == 17 {
				refFly(&p, c)
				to = 29
			}
		}
	}
	for _, j := range group {
		p.planes[c][j] = Place(to)
	}
	if refAllFinished(&p, c) {
		p.order[p.nOrder] = c
		p.nOrder++
		flying := 0
		for o := Colour(0); o < 4; o++ {
			if p.inPlay&(1<<o) != 0 && !refAllFinished(&p, o) {
				flying++
			}
		}
		if flying <= 1 {
			p.toMove, p.sixes, p.sixMoved = NoColour, 0, 0
			return p
		}
		refPassTurn(&p)
		return p
	}
	if roll == 6 {
		p.sixes++
		for _, j := range group {
			p.sixMoved |= 1 << j
		}
		return p
	}
	refPassTurn(&p)
	return p
}

// compareWithReference checks Outcomes and Apply against the reference
// for every roll and outcome of p.
func compareWithReference(t fataler, p Position, rules Rules) {
	t.Helper()
	for roll := 0; roll <= 7; roll++ {
		outs := p.Outcomes(rules, roll)
		want := refOutcomes(p, rules, roll)
		if got := outs.Slice(); !slices.Equal(got, want) {
			t.Fatalf("%s rules %s roll %d: outcomes %v, reference %v", p, rules, roll, got, want)
		}
		for _, m := range want {
			got := p
			got.Apply(rules, roll, m)
			if ref := refApply(p, rules, roll, m); got != ref {
				t.Fatalf("%s rules %s roll %d %s:\n engine    %s\n reference %s", p, rules, roll, m, got, ref)
			}
		}
	}
}

// drawPosition draws any valid position, reachable or not: planes anywhere,
// several colours on one square, any sixes record.
func drawPosition(t *rapid.T) Position {
	var p Position
	colours := rapid.SliceOfNDistinct(rapid.IntRange(0, 3), 2, 4, func(i int) int { return i }).Draw(t, "colours")
	places := allPlaces()
	for _, c := range colours {
		p.inPlay |= 1 << c
		for i := range p.planes[c] {
			p.planes[c][i] = rapid.SampledFrom(places).Draw(t, "place")
		}
	}
	var flying []Colour
	for _, c := range colours {
		if refAllFinished(&p, Colour(c)) {
			p.order[p.nOrder] = Colour(c)
			p.nOrder++
		} else {
			flying = append(flying, Colour(c))
		}
	}
	if len(flying) == 0 {
		// The last colour never finishes: take it back out of the order.
		p.nOrder--
		p.planes[p.order[p.nOrder]][0] = Hangar
		flying = append(flying, p.order[p.nOrder])
	}
	if len(flying) == 1 {
		p.toMove = NoColour
		return p
	}
	p.toMove = rapid.SampledFrom(flying).Draw(t, "toMove")
	if n := rapid.IntRange(0, 2).Draw(t, "sixes"); n > 0 {
		for i, at := range p.planes[p.toMove] {
			if at != Hangar && rapid.Bool().Draw(t, "recorded") {
				p.sixMoved |= 1 << i
			}
		}
		if p.sixMoved != 0 {
			p.sixes = uint8(n)
		}
	}
	return p
}

func drawRules(t *rapid.T) Rules {
	return Rules{
		Takeoff:         rapid.SampledFrom([]Takeoff{TakeoffEven, TakeoffSix, TakeoffFiveSix}).Draw(t, "takeoff"),
		StayOnOvershoot: rapid.Bool().Draw(t, "stay"),
		NoStacks:        rapid.Bool().Draw(t, "nostacks"),
		FlyJump:         rapid.Bool().Draw(t, "flyjump"),
	}
}

// TestMatchesReferenceAnyPosition compares the engine with the plain
// reference on arbitrary valid positions.
func TestMatchesReferenceAnyPosition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawPosition(t)
		if err := p.Validate(); err != nil {
			t.Fatalf("drew an invalid position %s: %v", p, err)
		}
		compareWithReference(t, p, drawRules(t))
	})
}

// TestMatchesReferenceInGames compares the engine with the reference at
// every position of random games under every rule set.
func TestMatchesReferenceInGames(t *testing.T) {
	for set := 0; set < 24; set++ {
		rules := Rules{Takeoff: Takeoff(set % 3), StayOnOvershoot: set/3%2 == 1, NoStacks: set/6%2 == 1, FlyJump: set/12 == 1}
		for _, cs := range [][]Colour{{Red, Yellow}, {Red, Blue, Green}, {Red, Blue, Yellow, Green}} {
			p, _ := NewGame(cs...)
			r := NewRand(uint64(100 + set))
			for !p.GameOver() {
				compareWithReference(t, p, rules)
				roll := r.Roll()
				outs := p.Outcomes(rules, roll)
				p.Apply(rules, roll, outs.At(r.Intn(outs.Len())))
			}
		}
	}
}
