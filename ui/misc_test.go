package ui

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
)

func TestChiSquare(t *testing.T) {
	// Critical values of chi-square with 5 degrees of freedom.
	for _, c := range []struct{ x, p float64 }{{0, 1}, {1.6103, 0.9}, {4.3515, 0.5}, {11.0705, 0.05}, {15.0863, 0.01}, {20.515, 0.001}} {
		if got := chiSquareSF5(c.x); math.Abs(got-c.p) > 1e-4 {
			t.Errorf("sf(%g) = %g, want %g", c.x, got, c.p)
		}
	}
	var d diceStats
	for i := 0; i < 60; i++ {
		d.add(i%6 + 1)
	}
	if d.chiSquare() != 0 || d.pValue() != 1 {
		t.Errorf("even spread: chi² %g p %g", d.chiSquare(), d.pValue())
	}
	d = diceStats{}
	for i := 0; i < 60; i++ {
		d.add(6)
	}
	d.add(0) // not a face: ignored
	if d.n != 60 || d.pValue() > 1e-20 {
		t.Errorf("all sixes: n %d p %g", d.n, d.pValue())
	}
}

// TestStepsOfShortcut: a plane lands on its shortcut square, capturing
// there, then flies across the opposite colour's H3 to 29, capturing both.
func TestStepsOfShortcut(t *testing.T) {
	rules := engine.DefaultRules()
	before := mustPos(t, "15,H,H,H/H,H,H,H/H,H,H,52/H,H,H,H R 0 -")
	after, res, err := before.Play(rules, 2, engine.Move{Colour: engine.Red, Plane: 0})
	if err != nil {
		t.Fatal(err)
	}
	steps := stepsOf(&before, &after, rules, res)
	if len(steps) != 3 {
		t.Fatalf("%d steps, want landing, flight, final", len(steps))
	}
	if p := steps[0].planes[engine.Red][0]; p != 17 || steps[0].target.place != 17 {
		t.Errorf("step 1: R0 at %s", p)
	}
	if steps[0].planes[engine.Yellow][3] != 52 {
		t.Error("step 1: Yellow 3 captured before the flight")
	}
	if p := steps[1].planes[engine.Red][0]; p != 29 || steps[1].planes[engine.Yellow][3] != engine.Hangar {
		t.Errorf("step 2: R0 at %s, Y3 at %s", p, steps[1].planes[engine.Yellow][3])
	}
	if !reflect.DeepEqual(steps[2], modelOf(&after, rules)) {
		t.Error("last step is not the position after the move")
	}
	u := New(newFake(), Options{Lang: "en"})
	got := stripTags(u.describe(&before, res))
	want := "Red 0 rolled 2 and moved to square 17, flew the shortcut to square 29, captured Yellow 3"
	if got != want {
		t.Errorf("log line %q, want %q", got, want)
	}
}

func TestDescribe(t *testing.T) {
	rules := engine.DefaultRules()
	cases := []struct {
		pos  string
		roll int
		move engine.Move
		want string
	}{
		{"H,H,H,H/H,H,H,H/-/- R 0 -", 6, engine.Move{Colour: engine.Red}, "Red 0 rolled 6 and taxied to the launch area. Rolls again."},
		{"H,H,H,H/H,H,H,H/-/- R 0 -", 3, engine.Move{Kind: engine.Pass, Colour: engine.Red}, "Red rolled 3: no move"},
		{"5,5,H,H/H,H,H,H/-/- R 2:01 -", 6, engine.Move{Kind: engine.Penalty, Colour: engine.Red}, "Red rolled a third six: Red 0+1 back to the hangar"},
		// a stack lands on its own colour, jumps +4 onto a Blue plane
		{"3,3,H,H/48,H,H,H/-/- R 0 -", 2, engine.Move{Colour: engine.Red}, "Red 0+1 rolled 2 and moved to square 5, jumped to square 9, captured Blue 0"},
		{"53,F,F,F/H,H,H,H/-/- R 0 -", 4, engine.Move{Colour: engine.Red}, "Red 0 rolled 4 and moved to home r4, bounced off the centre"},
		// squares are named as the board numbers them, the same for every colour
		{"-/3,H,H,H/H,H,H,H/- B 0 -", 1, engine.Move{Colour: engine.Blue}, "Blue 0 rolled 1 and moved to square 17"},
		{"H,H,H,H/H,H,H,H/21,H,H,H/- Y 0 -", 4, engine.Move{Colour: engine.Yellow}, "Yellow 0 rolled 4 and moved to square 51, jumped to square 3"},
		{"53,F,F,F/H,H,H,H/H,H,H,H/- R 0 -", 2, engine.Move{Colour: engine.Red}, "Red 0 rolled 2 and moved to the centre. Red has brought every plane home!"},
	}
	u := New(newFake(), Options{Lang: "en"})
	for _, c := range cases {
		p := mustPos(t, c.pos)
		_, res, err := p.Play(rules, c.roll, c.move)
		if err != nil {
			t.Fatalf("%s: %v", c.pos, err)
		}
		if got := stripTags(u.describe(&p, res)); got != c.want {
			t.Errorf("%s %d %s:\n got %q\nwant %q", c.pos, c.roll, c.move, got, c.want)
		}
	}
}

func stripTags(s string) string {
	for _, tag := range []string{"[red::b]", "[blue::b]", "[olive::b]", "[green::b]", "[-::-]"} {
		s = strings.ReplaceAll(s, tag, "")
	}
	return s
}

func TestStateDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/a"}
	get := func(k string) string { return env[k] }
	if d, _ := StateDir(get); d != "/home/a/.local/state/aeroplane" {
		t.Errorf("home: %s", d)
	}
	env["XDG_STATE_HOME"] = "/x/state"
	if d, _ := StateDir(get); d != "/x/state/aeroplane" {
		t.Errorf("xdg: %s", d)
	}
	env["XDG_STATE_HOME"] = "relative" // the spec says to ignore relative paths
	if d, _ := StateDir(get); d != "/home/a/.local/state/aeroplane" {
		t.Errorf("relative xdg: %s", d)
	}
}

func TestResync(t *testing.T) {
	u, _ := choosingUI(t)
	p := mustPos(t, "L,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -")
	u.Apply(Resync{Position: p, Why: M("[red]rolled back to roll 7")})
	if u.pos != p || u.rolled != nil || u.choosing() {
		t.Fatalf("after resync: pos %s, rolled %v", u.pos, u.rolled)
	}
	if last := u.events[len(u.events)-1]; last != "[[:]red]rolled back to roll 7" {
		t.Fatalf("log line %q", last)
	}
}
