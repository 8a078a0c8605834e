package engine

import (
	"reflect"
	"testing"
)

func TestPlaceNames(t *testing.T) {
	cases := []struct {
		c    Colour
		p    Place
		want string
	}{
		{Red, 0, "0"}, {Red, 17, "17"}, {Blue, 0, "13"}, {Green, 49, "36"}, {Yellow, 45, "19"},
		{Red, HomeFirst, "r1"}, {Blue, CrossingHome, "b3"}, {Green, HomeLast, "g5"},
		{Yellow, Launch, "L"}, {Red, Hangar, "H"}, {Blue, Finished, "✓"},
	}
	for _, c := range cases {
		if got := c.p.Name(c.c); got != c.want {
			t.Errorf("%s at %s: named %q, want %q", c.c, c.p, got, c.want)
		}
	}
	// Every colour's route names the same absolute squares the same way.
	for a := 0; a < TrackSquares; a++ {
		for c := Colour(0); c < NumColours; c++ {
			if i := RouteIndex(c, a); i <= TrackEnd && Place(i).Name(c) != SquareName(a) {
				t.Errorf("square %d: %s names it %q", a, c, Place(i).Name(c))
			}
		}
	}
}

func TestResultPath(t *testing.T) {
	step := func(ps ...Place) (out []PathStep) {
		for _, p := range ps {
			out = append(out, PathStep{Place: p})
		}
		return out
	}
	leap := func(p Place) PathStep { return PathStep{Place: p, Leap: true} }
	cases := []struct {
		name, pos string
		roll      int
		plane     uint8
		want      []PathStep
	}{
		{"taxi", "H,H,H,H/H,H,H,H/-/- R 0 -", 2, 0, step(Launch)},
		{"from the launch area", "L,H,H,H/H,H,H,H/-/- R 0 -", 3, 0, step(0, 1, 2)},
		{"jump", "10,H,H,H/H,H,H,H/-/- R 0 -", 3, 0, append(step(11, 12, 13), leap(17), leap(29))},
		{"shortcut", "15,H,H,H/H,H,H,H/-/- R 0 -", 2, 0, append(step(16, 17), leap(29))},
		{"bounce", "52,H,H,H/H,H,H,H/-/- R 0 -", 5, 0, step(53, 54, 55, 54, 53)},
	}
	for _, c := range cases {
		p, err := ParsePosition(c.pos)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, res, err := p.Play(DefaultRules(), c.roll, Move{Colour: Red, Plane: c.plane})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := res.Path()
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: path %v, want %v", c.name, got, c.want)
		}
		if len(got) == 0 || got[len(got)-1].Place != res.To {
			t.Errorf("%s: path %v does not end at %s", c.name, got, res.To)
		}
	}
}
