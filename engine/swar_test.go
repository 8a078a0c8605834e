package engine

import "testing"

// allPlaces is every value a plane's place can hold.
func allPlaces() []Place {
	ps := []Place{Hangar, Launch}
	for i := Place(0); i <= Finished; i++ {
		ps = append(ps, i)
	}
	return ps
}

// TestMatchMask checks the word-at-a-time comparison against the plain
// loop for every place and many plane layouts.
func TestMatchMask(t *testing.T) {
	places := allPlaces()
	r := NewRand(7)
	check := func(pl [PlanesPerColour]Place) {
		for _, at := range places {
			var want uint8
			for i, q := range pl {
				if q == at {
					want |= 1 << i
				}
			}
			if got := matchMask(&pl, at); got != want {
				t.Fatalf("matchMask(%v, %v) = %04b, want %04b", pl, at, got, want)
			}
		}
	}
	for _, a := range places {
		for _, b := range places {
			check([4]Place{a, b, a, b})
			check([4]Place{a, a, b, Hangar})
		}
	}
	for n := 0; n < 20000; n++ {
		var pl [PlanesPerColour]Place
		for i := range pl {
			pl[i] = places[r.Intn(len(places))]
		}
		check(pl)
	}
}

// TestCaptureAtMatchesRouteIndex checks the precomputed square keys: a
// plane of every other colour in play on the square is captured, nothing
// else is, for every colour, square and set of colours in play.
func TestCaptureAtMatchesRouteIndex(t *testing.T) {
	for inPlay := uint8(0); inPlay < 16; inPlay++ {
		for c := Colour(0); c < NumColours; c++ {
			for at := Place(0); at <= TrackEnd; at++ {
				a := Absolute(c, int(at))
				var p Position
				p.inPlay = inPlay | 1<<c
				var want [NumColours][PlanesPerColour]Place
				for o := Colour(0); o < NumColours; o++ {
					idx := Place(RouteIndex(o, a))
					// Plane 0 on the square (if o can be there), plane 1 just past it.
					p.planes[o] = [4]Place{idx, idx + 1, Launch, Finished}
					want[o] = p.planes[o]
					if o != c && p.inPlay&(1<<o) != 0 && idx <= TrackEnd {
						want[o][0] = Hangar
					}
				}
				var res Result
				p.captureAt(c, at, &res)
				if p.planes != want {
					t.Fatalf("inPlay %04b, %v lands on %d: planes %v, want %v", inPlay, c, at, p.planes, want)
				}
			}
		}
	}
}

// TestMoveListMembership checks At, Slice, Contains and index against each
// other for the outcomes of many positions reached in random games.
func TestMoveListMembership(t *testing.T) {
	start, _ := NewGame(Red, Blue, Yellow, Green)
	r := NewRand(11)
	var all []Move
	for c := Colour(0); c < NumColours; c++ {
		for i := uint8(0); i < 6; i++ {
			all = append(all, Move{Kind: PlaneMove, Colour: c, Plane: i})
		}
		all = append(all, Move{Kind: Pass, Colour: c}, Move{Kind: Penalty, Colour: c})
	}
	for g := 0; g < 50; g++ {
		p := start
		for !p.GameOver() {
			for roll := 1; roll <= 6; roll++ {
				outs := p.Outcomes(DefaultRules(), roll)
				s := outs.Slice()
				if len(s) != outs.Len() || len(s) == 0 {
					t.Fatalf("%s roll %d: Len %d, Slice %v", p, roll, outs.Len(), s)
				}
				for k, m := range s {
					if outs.At(k) != m || outs.index(m) != k {
						t.Fatalf("%s roll %d: At(%d) = %v, index = %d, Slice %v", p, roll, k, outs.At(k), outs.index(m), s)
					}
					if k > 0 && m.Plane <= s[k-1].Plane {
						t.Fatalf("%s roll %d: not sorted by lead plane: %v", p, roll, s)
					}
				}
				for _, m := range all {
					want := false
					for _, x := range s {
						want = want || x == m || (x.Kind != PlaneMove && x.Kind == m.Kind)
					}
					if outs.Contains(m) != want {
						t.Fatalf("%s roll %d: Contains(%v) = %t, outcomes %v", p, roll, m, !want, s)
					}
				}
			}
			roll := r.Roll()
			outs := p.Outcomes(DefaultRules(), roll)
			p.Apply(DefaultRules(), roll, outs.At(r.Intn(outs.Len())))
		}
	}
	var none MoveList
	if none.Len() != 0 || none.Contains(Move{Kind: Pass}) || none.Slice() != nil {
		t.Error("empty MoveList")
	}
}
