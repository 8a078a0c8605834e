package engine

import (
	"errors"
	"strings"
	"testing"
)

// validPositions are canonical texts that must parse and format back unchanged.
var validPositions = []string{
	"H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -",
	"H,H,H,H/-/H,H,H,H/- R 0 -",
	"-/H,H,H,H/-/H,H,H,H G 0 -",
	"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 1:1 -",
	"H,L,F,30/-/H,H,H,H/- R 2:12 -",
	"F,F,F,F/H,H,H,H/H,H,H,H/- B 0 R",
	"F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB",
	"0,54,F,L/-/-/L,L,L,L R 1:0123 -",
	"F,F,F,F/-/9,H,H,H/- - 0 R",
	// Not reachable with stacks on (one six moved planes now apart), but
	// the notation is checked without a rule set (docs/RULES.md, row 17).
	"3,20,H,H/-/H,H,H,H/- R 1:01 -",
}

func TestParsePositionRoundTrip(t *testing.T) {
	for _, s := range validPositions {
		p, err := ParsePosition(s)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", s, err)
			continue
		}
		if got := p.String(); got != s {
			t.Errorf("ParsePosition(%q).String() = %q", s, got)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", s, err)
		}
	}
}

// TestParsePositionRejects covers every invalid case of rules.md section 9
// and the non-canonical spellings; each error must wrap ErrIllegal and name
// the problem.
func TestParsePositionRejects(t *testing.T) {
	for _, tc := range []struct{ pos, want string }{
		{"", "want 4 fields"},
		{"H,H,H,H/-/H,H,H,H/-  R 0 -", "want 4 fields"},
		{"H,H,H,H/-/H,H,H,H/- R 0 - ", "want 4 fields"},
		{"H,H,H,H/-/H,H,H,H/- R 0 -\n", "finishing order"},
		{"H,H,H,H/-/H,H,H,H R 0 -", "3 colour groups"},
		{"H,H,H,H/-/H,H,H,H/-/- R 0 -", "5 colour groups"},
		// wrong plane count
		{"H,H,H/-/H,H,H,H/- R 0 -", "Red has 3 planes, want 4"},
		{"H,H,H,H/-/H,H,H,H,H/- R 0 -", "Yellow has 5 planes, want 4"},
		{"H,H,H,H/-/H,H,H,H/ R 0 -", "Green has 1 planes, want 4"},
		{"H,H,H,H/-/-/- R 0 -", "1 colours in play, want 2 to 4"},
		{"-/-/-/- - 0 -", "0 colours in play"},
		// non-canonical or impossible places
		{"05,H,H,H/-/H,H,H,H/- R 0 -", `place "05"`},
		{"+5,H,H,H/-/H,H,H,H/- R 0 -", `place "+5"`},
		{"-0,H,H,H/-/H,H,H,H/- R 0 -", `place "-0"`},
		{"55,H,H,H/-/H,H,H,H/- R 0 -", `place "55"`},
		{"h,H,H,H/-/H,H,H,H/- R 0 -", `place "h"`},
		{"H,,H,H/-/H,H,H,H/- R 0 -", `Red plane 1: place ""`},
		// side to move
		{"H,H,H,H/-/H,H,H,H/- X 0 -", "side to move"},
		{"H,H,H,H/-/H,H,H,H/- r 0 -", "side to move"},
		{"H,H,H,H/-/H,H,H,H/- B 0 -", "side to move Blue is not in play"},
		{"H,H,H,H/F,F,F,F/H,H,H,H/- B 0 B", "side to move Blue has already finished"},
		// sixes
		{"H,H,H,H/-/L,H,H,H/- Y 3:0 -", "sixes"},
		{"H,H,H,H/-/L,H,H,H/- Y 1: -", "sixes"},
		{"H,H,H,H/-/L,H,H,H/- Y 1 -", "sixes"},
		{"H,H,H,H/-/L,H,H,H/- Y 00 -", "sixes"},
		{"H,H,H,H/-/L,L,H,H/- Y 1:10 -", "ascending"},
		{"H,H,H,H/-/L,L,H,H/- Y 1:00 -", "ascending"},
		{"H,H,H,H/-/L,L,H,H/- Y 1:4 -", "plane digit"},
		{"H,H,H,H/-/L,L,H,H/- Y 1:é -", "plane digit"},
		{"H,H,H,H/-/L,H,H,H/- Y 1:1 -", "Yellow plane 1 is recorded as moved by a six but is in its hangar"},
		// finishing order
		{"H,H,H,H/F,F,F,F/H,H,H,H/- R 0 -", "Blue has finished but is missing from the finishing order"},
		{"H,H,H,H/-/H,H,H,H/- R 0 R", "names Red, which has unfinished planes"},
		{"H,H,H,H/-/H,H,H,H/- R 0 B", "names Blue, which is not in play"},
		{"F,F,F,F/H,H,H,H/H,H,H,H/- B 0 RR", "names Red twice"},
		{"F,F,F,F/H,H,H,H/H,H,H,H/- B 0 Rx", "finishing order"},
		{"F,F,F,F/H,H,H,H/H,H,H,H/- B 0 R-", "finishing order"},
		{"F,F,F,F/F,F,F,F/F,F,F,F/F,F,F,F - 0 RBYGR", "too long"},
		{"H,H,H,H/-/H,H,H,H/- R 0 ", "finishing order is empty"},
		// game over
		{"H,H,H,H/-/H,H,H,H/- - 0 -", "stale game-over mark"},
		{"F,F,F,F/-/H,H,H,H/- Y 0 R", "the game is over"},
		{"F,F,F,F/-/H,H,H,H/- - 1:0 R", "sixes must be 0"},
		{"F,F,F,F/-/F,F,F,F/- - 0 RY", "every colour in play has finished"},
	} {
		_, err := ParsePosition(tc.pos)
		if err == nil {
			t.Errorf("ParsePosition(%q) accepted", tc.pos)
			continue
		}
		if !errors.Is(err, ErrIllegal) {
			t.Errorf("ParsePosition(%q): %v does not wrap ErrIllegal", tc.pos, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%q): %q does not say %q", tc.pos, err, tc.want)
		}
	}
}

func TestParseRules(t *testing.T) {
	// Every rule set prints canonically and reads back as itself.
	n := 0
	for _, takeoff := range []string{"even", "six", "fivesix"} {
		for _, over := range []string{"bounce", "stay"} {
			for _, stack := range []string{"on", "off"} {
				for _, fly := range []string{"off", "on"} {
					canon := "takeoff=" + takeoff + ",overshoot=" + over + ",stack=" + stack + ",flyjump=" + fly
					r := mustRules(t, canon)
					if r.String() != canon {
						t.Errorf("ParseRules(%q).String() = %q", canon, r.String())
					}
					shuffled := "flyjump=" + fly + ",stack=" + stack + ",takeoff=" + takeoff + ",overshoot=" + over
					if mustRules(t, shuffled) != r {
						t.Errorf("key order matters: %q", shuffled)
					}
					n++
				}
			}
		}
	}
	if n != 24 {
		t.Fatalf("%d rule sets", n)
	}
	for _, tc := range []struct {
		in   string
		want Rules
	}{
		{"", DefaultRules()},
		{"takeoff=even", Rules{}},
		{"stack=off", Rules{NoStacks: true}},
		{"overshoot=stay,takeoff=fivesix", Rules{Takeoff: TakeoffFiveSix, StayOnOvershoot: true}},
		{"flyjump=on", Rules{FlyJump: true}},
	} {
		if got := mustRules(t, tc.in); got != tc.want {
			t.Errorf("ParseRules(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if DefaultRules().String() != "takeoff=even,overshoot=bounce,stack=on,flyjump=off" {
		t.Errorf("default rules print as %q", DefaultRules())
	}
}

func TestParseRulesRejects(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"colour=red", `unknown key "colour"`},
		{"Takeoff=even", `unknown key "Takeoff"`},
		{" takeoff=even", `unknown key " takeoff"`},
		{"=on", `unknown key ""`},
		{"takeoff=odd", `takeoff="odd" is not a value of takeoff`},
		{"overshoot=wrap", `overshoot="wrap"`},
		{"stack=yes", `stack="yes"`},
		{"flyjump=", `flyjump=""`},
		{"stack=on,stack=off", `key "stack" given twice`},
		{"takeoff=six,overshoot=stay,takeoff=six", `key "takeoff" given twice`},
		{"takeoff", `"takeoff" is not key=value`},
		{"takeoff=even,", `item 2 "" is not key=value`},
		{",", `item 1 "" is not key=value`},
	} {
		_, err := ParseRules(tc.in)
		if err == nil {
			t.Errorf("ParseRules(%q) accepted", tc.in)
			continue
		}
		if !errors.Is(err, ErrIllegal) {
			t.Errorf("ParseRules(%q): %v does not wrap ErrIllegal", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseRules(%q): %q does not say %q", tc.in, err, tc.want)
		}
	}
}

func TestParseMove(t *testing.T) {
	for _, s := range []string{"R0", "R3", "B1", "Y2", "G3", "pass", "penalty"} {
		m, err := ParseMove(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseMove(%q) = %v, %v", s, m, err)
		}
	}
	if m, _ := ParseMove("Y2"); m != (Move{Kind: PlaneMove, Colour: Yellow, Plane: 2}) {
		t.Errorf("ParseMove(Y2) = %#v", m)
	}
	for _, s := range []string{"", "R", "R4", "X0", "r0", "R00", "0R", "Pass", "PASS", "pass ", "-"} {
		if _, err := ParseMove(s); !errors.Is(err, ErrIllegal) {
			t.Errorf("ParseMove(%q): %v, want ErrIllegal", s, err)
		}
	}
}

func TestColourAndPlaceNames(t *testing.T) {
	for c := Red; c <= Green; c++ {
		got, err := ParseColour(string(c.Letter()))
		if err != nil || got != c {
			t.Errorf("ParseColour(%c) = %v, %v", c.Letter(), got, err)
		}
		if c.Next().Next() != c.Opposite() || c.Opposite().Opposite() != c {
			t.Errorf("%v: next/opposite disagree", c)
		}
	}
	if Green.Next() != Red || NoColour.Letter() != '-' || NoColour.String() != "none" {
		t.Error("colour edge cases")
	}
	for _, tc := range []struct {
		p    Place
		want string
	}{{Hangar, "H"}, {Launch, "L"}, {0, "0"}, {54, "54"}, {Finished, "F"}, {60, "?60"}} {
		if tc.p.String() != tc.want {
			t.Errorf("Place(%d) = %q, want %q", tc.p, tc.p.String(), tc.want)
		}
	}
}

// TestGeometry checks the board tables against rules.md section 2.
func TestGeometry(t *testing.T) {
	for c := Red; c <= Green; c++ {
		for i := 0; i <= TrackEnd; i++ {
			a := Absolute(c, i)
			if RouteIndex(c, a) != i {
				t.Errorf("%v: RouteIndex(Absolute(%d)) = %d", c, i, RouteIndex(c, a))
			}
			own := SquareColour(a) == c
			if own != (i%4 == 1) {
				t.Errorf("%v index %d (abs %d) own colour = %t", c, i, a, own)
			}
			if IsJumpSquare(i) != (own && i != ShortcutFrom && i != TurnSquare) {
				t.Errorf("%v index %d: IsJumpSquare = %t", c, i, IsJumpSquare(i))
			}
		}
		// Route index 0 is coloured as the previous player's square.
		if SquareColour(Absolute(c, 0)) != (c+3)%4 {
			t.Errorf("%v: index 0 is %v", c, SquareColour(Absolute(c, 0)))
		}
		// The two squares a colour never visits are just behind its start.
		if RouteIndex(c, Absolute(c, 0)+50) != 50 {
			t.Errorf("%v: unvisited squares", c)
		}
	}
	if SquareColour(0) != Green || SquareColour(1) != Red || SquareColour(2) != Blue || SquareColour(3) != Yellow {
		t.Error("square colours 0..3")
	}
	if IsJumpSquare(-3) || IsJumpSquare(53) || !IsJumpSquare(45) || IsJumpSquare(49) || IsJumpSquare(17) {
		t.Error("jump square edges")
	}
}
