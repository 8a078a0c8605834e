package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// playCase is one roll and move on a hand-built position, with the exact
// position text it must give and, optionally, a summary of its Result.
type playCase struct {
	name  string
	rules string
	pos   string
	roll  int
	move  string
	want  string
	res   string // resultSummary(Result) when not empty
}

// resultSummary writes the Result fields a rule test cares about on one line.
func resultSummary(r Result) string {
	opt := func(p Place) string {
		if p < 0 {
			return "-"
		}
		return p.String()
	}
	var caps []string
	for _, c := range r.Captures[:r.NCaptures] {
		caps = append(caps, fmt.Sprintf("%c%d@%v", c.Colour.Letter(), c.Plane, c.From))
	}
	return fmt.Sprintf("group=%04b from=%v landed=%v bounce=%t jump=%s fly=%s flyjump=%s to=%v caps=[%s] pen=%04b fin=%t extra=%t next=%c",
		r.Group, r.From, r.Landed, r.Bounced, opt(r.JumpTo), opt(r.FlyTo), opt(r.FlyJumpTo), r.To,
		strings.Join(caps, " "), r.Penalised, r.ColourFinished, r.ExtraRoll, r.Next.Letter())
}

func runPlayCases(t *testing.T, cases []playCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rules := mustRules(t, tc.rules)
			p := mustParse(t, tc.pos)
			m, err := ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			q, res, err := p.Play(rules, tc.roll, m)
			if err != nil {
				t.Fatalf("Play(%s, roll %d, %s): %v\n%s", tc.pos, tc.roll, tc.move, err, p.Board())
			}
			if got := q.String(); got != tc.want {
				t.Errorf("Play(%s, roll %d, %s)\n got %s\nwant %s\n%s", tc.pos, tc.roll, tc.move, got, tc.want, q.Board())
			}
			if tc.res != "" {
				if got := resultSummary(res); got != tc.res {
					t.Errorf("Result of %s roll %d %s\n got %s\nwant %s", tc.pos, tc.roll, tc.move, got, tc.res)
				}
			}
			// Apply, the unchecked fast path, must agree with Play.
			a := p
			a.Apply(rules, tc.roll, m)
			if a != q {
				t.Errorf("Apply gives %s, Play gives %s", a, q)
			}
			if err := q.Validate(); err != nil {
				t.Errorf("result %s does not validate: %v", q, err)
			}
		})
	}
}

func TestTaxi(t *testing.T) {
	const start = "H,H,H,H/-/H,H,H,H/- R 0 -"
	for _, tc := range []struct {
		takeoff string
		taxi    [7]bool // by roll
	}{
		{"even", [7]bool{2: true, 4: true, 6: true}},
		{"six", [7]bool{6: true}},
		{"fivesix", [7]bool{5: true, 6: true}},
	} {
		rules := mustRules(t, "takeoff="+tc.takeoff)
		p := mustParse(t, start)
		for roll := 1; roll <= 6; roll++ {
			q, res, err := p.Play(rules, roll, Move{Kind: PlaneMove, Colour: Red, Plane: 0})
			if !tc.taxi[roll] {
				if !errors.Is(err, ErrIllegal) {
					t.Errorf("takeoff=%s roll %d: taxi allowed, want ErrIllegal (got %v)", tc.takeoff, roll, err)
				}
				outs := p.Outcomes(rules, roll)
				if outs.Len() != 1 || outs.At(0).Kind != Pass {
					t.Errorf("takeoff=%s roll %d: outcomes %v, want [pass]", tc.takeoff, roll, outs.Slice())
				}
				continue
			}
			want := "L,H,H,H/-/H,H,H,H/- Y 0 -"
			if roll == 6 {
				want = "L,H,H,H/-/H,H,H,H/- R 1:0 -"
			}
			if err != nil || q.String() != want {
				t.Errorf("takeoff=%s roll %d: got %s, %v; want %s", tc.takeoff, roll, q, err, want)
			}
			if res.From != Hangar || res.To != Launch || res.Group != 1 {
				t.Errorf("takeoff=%s roll %d: result %s", tc.takeoff, roll, resultSummary(res))
			}
		}
	}
}

func TestLaunchAreaToRoute(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "roll1", pos: "L,H,H,H/-/H,H,H,H/- R 0 -", roll: 1, move: "R0", want: "0,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "roll3", pos: "L,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "2,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "roll4", pos: "L,H,H,H/-/H,H,H,H/- R 0 -", roll: 4, move: "R0", want: "3,H,H,H/-/H,H,H,H/- Y 0 -"},
		// Index r−1 = 1 and 5 are own-colour squares: the plane jumps on.
		{name: "roll2 lands on 1 and jumps", pos: "L,H,H,H/-/H,H,H,H/- R 0 -", roll: 2, move: "R0", want: "5,H,H,H/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=L landed=1 bounce=false jump=5 fly=- flyjump=- to=5 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "roll6 lands on 5 and jumps once", pos: "L,H,H,H/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "9,H,H,H/-/H,H,H,H/- R 1:0 -"},
		// The lowest plane in the launch area leads; planes there never stack.
		{name: "two in L move one at a time", pos: "H,L,H,L/-/H,H,H,H/- R 0 -", roll: 3, move: "R1", want: "H,2,H,L/-/H,H,H,H/- Y 0 -"},
		{name: "capture on index 0", pos: "L,H,H,H/-/-/13,H,H,H R 0 -", roll: 1, move: "R0", want: "0,H,H,H/-/-/H,H,H,H G 0 -",
			res: "group=0001 from=L landed=0 bounce=false jump=- fly=- flyjump=- to=0 caps=[G0@13] pen=0000 fin=false extra=false next=G"},
	})
}

// TestJumpSquares lands a Red plane on each own-colour jump square with a
// roll of 3 (from L with a 2 for square 1), with a Blue plane waiting on
// the jump's target square, which it captures.
func TestJumpSquares(t *testing.T) {
	var cases []playCase
	for _, j := range []int{1, 5, 9, 13, 21, 25, 29, 33, 37, 41, 45} {
		from, roll := Place(j-3).String(), 3
		if j == 1 {
			from, roll = "L", 2
		}
		target := j + JumpLength
		blue := RouteIndex(Blue, Absolute(Red, target))
		to, fly := target, "-"
		if target == ShortcutFrom {
			to, fly = ShortcutTo, "29" // 13 → 17 → 29, and no second jump
		}
		for _, rules := range []string{"", "flyjump=on"} {
			cases = append(cases, playCase{
				name:  fmt.Sprintf("%d/%s", j, rules),
				rules: rules,
				pos:   fmt.Sprintf("%s,H,H,H/%d,H,H,H/H,H,H,H/- R 0 -", from, blue),
				roll:  roll, move: "R0",
				want: fmt.Sprintf("%d,H,H,H/H,H,H,H/H,H,H,H/- B 0 -", to),
				res: fmt.Sprintf("group=0001 from=%s landed=%d bounce=false jump=%d fly=%s flyjump=- to=%d caps=[B0@%d] pen=0000 fin=false extra=false next=B",
					from, j, target, fly, to, blue),
			})
		}
	}
	runPlayCases(t, cases)
}

func TestNoJump(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "turn square 49", pos: "46,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "49,H,H,H/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=46 landed=49 bounce=false jump=- fly=- flyjump=- to=49 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "45 jumps to 49 and stops", pos: "44,H,H,H/-/H,H,H,H/- R 0 -", roll: 1, move: "R0", want: "49,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "other colour square", pos: "2,H,H,H/-/H,H,H,H/- R 0 -", roll: 1, move: "R0", want: "3,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "into home column", pos: "47,H,H,H/-/H,H,H,H/- R 0 -", roll: 4, move: "R0", want: "51,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "home column", pos: "50,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "53,H,H,H/-/H,H,H,H/- Y 0 -"},
		// Squares passed over are untouched: Blue on abs 3 and 4 survives Red's 2 → 5 → 9.
		{name: "passing over is harmless", pos: "2,H,H,H/42,43,H,H/-/- R 0 -", roll: 3, move: "R0", want: "9,H,H,H/42,43,H,H/-/- B 0 -"},
	})
}

func TestShortcut(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "direct landing flies to 29", pos: "14,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "29,H,H,H/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=14 landed=17 bounce=false jump=- fly=29 flyjump=- to=29 caps=[] pen=0000 fin=false extra=false next=Y"},
		// Captures on 17 (Blue 4), on Yellow's H3 (route 52), then on 29
		// (Blue 16, Yellow 3, Green 42). Yellow on 51 and 53 and Blue on its
		// own 52 are not on the line.
		{name: "captures on 17, H3 and 29",
			pos: "14,H,H,H/4,16,52,H/3,52,51,53/42,H,H,H R 0 -", roll: 3, move: "R0",
			want: "29,H,H,H/H,H,52,H/H,H,51,53/H,H,H,H B 0 -",
			res:  "group=0001 from=14 landed=17 bounce=false jump=- fly=29 flyjump=- to=29 caps=[B0@4 Y1@52 B1@16 Y0@3 G0@42] pen=0000 fin=false extra=false next=B"},
		{name: "Blue crosses Green's H3",
			pos: "30,42,H,H/14,H,H,H/-/52,H,H,H B 0 -", roll: 3, move: "B0",
			want: "H,H,H,H/29,H,H,H/-/H,H,H,H G 0 -",
			res:  "group=0001 from=14 landed=17 bounce=false jump=- fly=29 flyjump=- to=29 caps=[R0@30 G0@52 R1@42] pen=0000 fin=false extra=false next=G"},
		{name: "opposite colour not in play", pos: "14,H,H,H/52,H,H,H/-/- R 0 -", roll: 3, move: "R0", want: "29,H,H,H/52,H,H,H/-/- B 0 -"},
		{name: "flyjump off stops on 29", pos: "14,H,H,H/20,16,H,H/H,H,H,H/46,H,H,H R 0 -", roll: 3, move: "R0",
			want: "29,H,H,H/20,H,H,H/H,H,H,H/46,H,H,H B 0 -"},
		{name: "flyjump on: 17 → 29 → 33 capturing on 33", rules: "flyjump=on",
			pos: "14,H,H,H/20,16,H,H/H,H,H,H/46,H,H,H R 0 -", roll: 3, move: "R0",
			want: "33,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -",
			res:  "group=0001 from=14 landed=17 bounce=false jump=- fly=29 flyjump=33 to=33 caps=[B1@16 B0@20 G0@46] pen=0000 fin=false extra=false next=B"},
		{name: "flyjump on: 13 → 17 → 29 stops", rules: "flyjump=on",
			pos: "10,H,H,H/20,H,H,H/-/- R 0 -", roll: 3, move: "R0", want: "29,H,H,H/20,H,H,H/-/- B 0 -",
			res: "group=0001 from=10 landed=13 bounce=false jump=17 fly=29 flyjump=- to=29 caps=[] pen=0000 fin=false extra=false next=B"},
		{name: "stack flies together", pos: "14,14,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "29,29,H,H/-/H,H,H,H/- Y 0 -"},
	})
}

func TestOvershoot(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "bounce", pos: "53,F,F,F/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "54,F,F,F/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=53 landed=54 bounce=true jump=- fly=- flyjump=- to=54 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "bounce back to the start", pos: "53,F,F,F/-/H,H,H,H/- R 0 -", roll: 4, move: "R0", want: "53,F,F,F/-/H,H,H,H/- Y 0 -"},
		{name: "bounce from H1 with a six", pos: "50,F,F,F/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "54,F,F,F/-/H,H,H,H/- R 1:0 -"},
		// Moved by a six even though the bounce brings it back (rules 4.6).
		{name: "six bounces to where it left", pos: "52,H,H,H/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "52,H,H,H/-/H,H,H,H/- R 1:0 -",
			res: "group=0001 from=52 landed=52 bounce=true jump=- fly=- flyjump=- to=52 caps=[] pen=0000 fin=false extra=true next=R"},
		{name: "exact roll finishes", pos: "52,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "F,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "stay: exact roll finishes", rules: "overshoot=stay", pos: "52,H,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "F,H,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "stay: overshoot forfeits", rules: "overshoot=stay", pos: "53,F,F,F/-/H,H,H,H/- R 0 -", roll: 3, move: "pass", want: "53,F,F,F/-/H,H,H,H/- Y 0 -"},
		{name: "stay: a six with no move passes", rules: "overshoot=stay", pos: "53,54,F,F/-/H,H,H,H/- R 0 -", roll: 6, move: "pass", want: "53,54,F,F/-/H,H,H,H/- Y 0 -",
			res: "group=0000 from=H landed=H bounce=false jump=- fly=- flyjump=- to=H caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "stay: other plane moves", rules: "overshoot=stay", pos: "53,2,F,F/-/H,H,H,H/- R 0 -", roll: 4, move: "R1", want: "53,6,F,F/-/H,H,H,H/- Y 0 -"},
	})
	// With stay the overshooting plane is not an outcome.
	p := mustParse(t, "53,2,F,F/-/H,H,H,H/- R 0 -")
	if got := p.Outcomes(mustRules(t, "overshoot=stay"), 4); fmt.Sprint(got.Slice()) != "[R1]" {
		t.Errorf("stay outcomes = %v, want [R1]", got.Slice())
	}
	if got := p.Outcomes(DefaultRules(), 4); fmt.Sprint(got.Slice()) != "[R0 R1]" {
		t.Errorf("bounce outcomes = %v, want [R0 R1]", got.Slice())
	}
}

func TestCaptures(t *testing.T) {
	runPlayCases(t, []playCase{
		// Hand-built: three colours share abs 6; all go home at once.
		{name: "several colours on one square", pos: "3,H,H,H/45,H,H,H/32,32,H,H/19,H,H,H R 0 -", roll: 3, move: "R0",
			want: "6,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -",
			res:  "group=0001 from=3 landed=6 bounce=false jump=- fly=- flyjump=- to=6 caps=[B0@45 Y0@32 Y1@32 G0@19] pen=0000 fin=false extra=false next=B"},
		// Landing on 5 captures Green, the jump to 9 captures Blue and Yellow.
		{name: "landing and jump squares", pos: "2,H,H,H/48,H,H,H/35,H,H,H/18,H,H,H R 0 -", roll: 3, move: "R0",
			want: "9,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -",
			res:  "group=0001 from=2 landed=5 bounce=false jump=9 fly=- flyjump=- to=9 caps=[G0@18 B0@48 Y0@35] pen=0000 fin=false extra=false next=B"},
		{name: "own planes are never captured", pos: "3,6,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "6,6,H,H/-/H,H,H,H/- Y 0 -"},
		// From L a 6 lands on 5 (Yellow 31) and jumps to 9 (Yellow 35); the six still rolls again.
		{name: "captures with a six keep the turn", pos: "L,H,H,H/-/31,35,H,H/- R 0 -", roll: 6, move: "R0", want: "9,H,H,H/-/H,H,H,H/- R 1:0 -",
			res: "group=0001 from=L landed=5 bounce=false jump=9 fly=- flyjump=- to=9 caps=[Y0@31 Y1@35] pen=0000 fin=false extra=true next=R"},
		{name: "capture on the jump's target only", pos: "2,H,H,H/-/H,35,H,H/- R 0 -", roll: 3, move: "R0", want: "9,H,H,H/-/H,H,H,H/- Y 0 -"},
	})
}

func TestStacks(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "forming", pos: "3,6,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "6,6,H,H/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=3 landed=6 bounce=false jump=- fly=- flyjump=- to=6 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "forming by a jump", pos: "2,9,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "9,9,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "moving together", pos: "H,6,H,6/-/H,H,H,H/- R 0 -", roll: 1, move: "R1", want: "H,7,H,7/-/H,H,H,H/- Y 0 -",
			res: "group=1010 from=6 landed=7 bounce=false jump=- fly=- flyjump=- to=7 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "three jump together", pos: "2,2,2,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "9,9,9,H/-/H,H,H,H/- Y 0 -"},
		{name: "in the home column", pos: "50,50,H,H/-/H,H,H,H/- R 0 -", roll: 2, move: "R0", want: "52,52,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "finishing together", pos: "52,52,H,H/-/H,H,H,H/- R 0 -", roll: 3, move: "R0", want: "F,F,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "captured together", pos: "10,10,H,H/46,H,H,H/-/- B 0 -", roll: 3, move: "B0", want: "H,H,H,H/49,H,H,H/-/- R 0 -",
			res: "group=0001 from=46 landed=49 bounce=false jump=- fly=- flyjump=- to=49 caps=[R0@10 R1@10] pen=0000 fin=false extra=false next=R"},
		{name: "stack captures", pos: "3,3,H,H/-/32,H,H,H/- R 0 -", roll: 3, move: "R0", want: "6,6,H,H/-/H,H,H,H/- Y 0 -"},
		{name: "recorded together on a six", pos: "3,3,H,H/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "13,13,H,H/-/H,H,H,H/- R 1:01 -"},
		{name: "stack=off: one plane moves", rules: "stack=off", pos: "6,6,H,H/-/H,H,H,H/- R 0 -", roll: 1, move: "R0", want: "7,6,H,H/-/H,H,H,H/- Y 0 -",
			res: "group=0001 from=6 landed=7 bounce=false jump=- fly=- flyjump=- to=7 caps=[] pen=0000 fin=false extra=false next=Y"},
		{name: "stack=off: one plane recorded", rules: "stack=off", pos: "6,6,H,H/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "12,6,H,H/-/H,H,H,H/- R 1:0 -"},
		{name: "stack=off: all captured", rules: "stack=off", pos: "10,10,H,H/46,H,H,H/-/- B 0 -", roll: 3, move: "B0", want: "H,H,H,H/49,H,H,H/-/- R 0 -"},
	})
	p := mustParse(t, "H,6,H,6/-/H,H,H,H/- R 0 -")
	for _, tc := range []struct {
		rules string
		roll  int
		want  string
	}{
		{"", 1, "[R1]"},
		{"", 2, "[R0 R1]"},
		{"stack=off", 1, "[R1]"},
		{"stack=off", 2, "[R0 R1]"},
	} {
		if got := p.Outcomes(mustRules(t, tc.rules), tc.roll); fmt.Sprint(got.Slice()) != tc.want {
			t.Errorf("%s roll %d outcomes %v, want %s", tc.rules, tc.roll, got.Slice(), tc.want)
		}
	}
	if _, _, err := p.Play(DefaultRules(), 1, Move{Colour: Red, Plane: 3}); !errors.Is(err, ErrIllegal) {
		t.Errorf("moving a stack by a plane that is not its lead: %v, want ErrIllegal", err)
	}
}

func TestSixes(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "extra roll", pos: "3,H,H,H/-/H,H,H,H/- R 0 -", roll: 6, move: "R0", want: "13,H,H,H/-/H,H,H,H/- R 1:0 -",
			res: "group=0001 from=3 landed=9 bounce=false jump=13 fly=- flyjump=- to=13 caps=[] pen=0000 fin=false extra=true next=R"},
		{name: "second six adds to the record", pos: "H,L,F,30/-/H,H,H,H/- R 1:1 -", roll: 6, move: "R3", want: "H,L,F,36/-/H,H,H,H/- R 2:13 -"},
		{name: "second six by the same plane", pos: "H,L,F,30/-/H,H,H,H/- R 1:1 -", roll: 6, move: "R1", want: "H,9,F,30/-/H,H,H,H/- R 2:1 -"},
		{name: "other roll after two sixes ends the turn", pos: "H,L,F,30/-/H,H,H,H/- R 2:12 -", roll: 5, move: "R3", want: "H,L,F,35/-/H,H,H,H/- Y 0 -"},
		{name: "third six sends the recorded planes home, a finished one too",
			pos: "H,L,F,30/-/H,H,H,H/- R 2:12 -", roll: 6, move: "penalty", want: "H,H,H,30/-/H,H,H,H/- Y 0 -",
			res: "group=0000 from=H landed=H bounce=false jump=- fly=- flyjump=- to=H caps=[] pen=0110 fin=false extra=false next=Y"},
		{name: "third six sends a stack home", pos: "H,20,20,30/-/H,H,H,H/- R 2:12 -", roll: 6, move: "penalty", want: "H,H,H,30/-/H,H,H,H/- Y 0 -"},
		{name: "finished plane on a six still rolls again", pos: "F,F,49,30/-/H,H,H,H/- R 0 -", roll: 6, move: "R2", want: "F,F,F,30/-/H,H,H,H/- R 1:2 -"},
		{name: "no extra roll when the colour finishes", pos: "F,F,F,49/H,H,H,H/H,H,H,H/- R 0 -", roll: 6, move: "R3", want: "F,F,F,F/H,H,H,H/H,H,H,H/- B 0 R",
			res: "group=1000 from=49 landed=F bounce=false jump=- fly=- flyjump=- to=F caps=[] pen=0000 fin=true extra=false next=B"},
		{name: "a pass on a six clears the sixes", rules: "overshoot=stay", pos: "53,54,F,F/-/H,H,H,H/- R 1:0 -", roll: 6, move: "pass", want: "53,54,F,F/-/H,H,H,H/- Y 0 -"},
		{name: "penalty passes to the next colour in play", pos: "H,L,H,H/H,H,H,H/-/L,H,H,H G 2:0 -", roll: 6, move: "penalty", want: "H,L,H,H/H,H,H,H/-/H,H,H,H R 0 -"},
	})
	// The third six has one outcome, whatever the planes could do.
	p := mustParse(t, "H,L,F,30/-/H,H,H,H/- R 2:12 -")
	if got := p.Outcomes(DefaultRules(), 6); fmt.Sprint(got.Slice()) != "[penalty]" {
		t.Errorf("third six outcomes %v, want [penalty]", got.Slice())
	}
}

func TestTurnPassing(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "skips finished and absent colours", pos: "H,H,H,H/F,F,F,F/-/H,H,H,H R 0 B", roll: 1, move: "pass", want: "H,H,H,H/F,F,F,F/-/H,H,H,H G 0 B"},
		{name: "wraps round to Red", pos: "H,H,H,H/F,F,F,F/-/H,H,H,H G 0 B", roll: 1, move: "pass", want: "H,H,H,H/F,F,F,F/-/H,H,H,H R 0 B"},
		{name: "two players opposite", pos: "H,H,H,H/-/H,H,H,H/- Y 0 -", roll: 3, move: "pass", want: "H,H,H,H/-/H,H,H,H/- R 0 -"},
		{name: "two players adjacent", pos: "-/H,H,H,H/H,H,H,H/- B 0 -", roll: 3, move: "pass", want: "-/H,H,H,H/H,H,H,H/- Y 0 -"},
		{name: "finishing passes the turn", pos: "F,F,F,52/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", roll: 3, move: "R3", want: "F,F,F,F/H,H,H,H/H,H,H,H/H,H,H,H B 0 R"},
	})
}

func TestGameOver(t *testing.T) {
	runPlayCases(t, []playCase{
		{name: "three players", pos: "F,F,F,F/F,F,F,52/H,H,H,H/- B 0 R", roll: 3, move: "B3", want: "F,F,F,F/F,F,F,F/H,H,H,H/- - 0 RB",
			res: "group=1000 from=52 landed=F bounce=false jump=- fly=- flyjump=- to=F caps=[] pen=0000 fin=true extra=false next=-"},
		{name: "four players", pos: "F,F,F,F/F,F,F,52/3,H,H,H/F,F,F,F B 0 GR", roll: 3, move: "B3", want: "F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB"},
		{name: "on a six", pos: "F,F,F,49/-/H,H,H,H/- R 1:3 -", roll: 6, move: "R3", want: "F,F,F,F/-/H,H,H,H/- - 0 R"},
		{name: "stack finishes the game", pos: "-/-/F,F,53,53/L,L,L,L Y 0 -", roll: 2, move: "Y2", want: "-/-/F,F,F,F/L,L,L,L - 0 Y"},
	})
	p := mustParse(t, "F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB")
	if got := fmt.Sprint(p.Ranking()); got != "[Green Red Blue Yellow]" {
		t.Errorf("Ranking = %s", got)
	}
	if got := fmt.Sprint(p.Order()); got != "[Green Red Blue]" {
		t.Errorf("Order = %s", got)
	}
	for roll := 1; roll <= 6; roll++ {
		if outs := p.Outcomes(DefaultRules(), roll); outs.Len() != 0 {
			t.Errorf("game over: roll %d has outcomes %v", roll, outs.Slice())
		}
	}
	if _, _, err := p.Play(DefaultRules(), 3, Move{Kind: Pass}); !errors.Is(err, ErrIllegal) {
		t.Errorf("Play after game over: %v, want ErrIllegal", err)
	}
	p = mustParse(t, "H,H,H,H/-/H,H,H,H/- R 0 -")
	if r := p.Ranking(); r != nil {
		t.Errorf("Ranking of a game in progress = %v, want nil", r)
	}
}

func TestOutcomesOrder(t *testing.T) {
	for _, tc := range []struct {
		pos   string
		rules string
		roll  int
		want  string
	}{
		{"3,L,3,H/-/H,H,H,H/- R 0 -", "", 2, "[R0 R1 R3]"},
		{"20,H,L,20/-/H,H,H,H/- R 0 -", "", 4, "[R0 R1 R2]"},
		{"H,20,H,20/-/H,H,H,H/- R 0 -", "", 4, "[R0 R1]"},
		{"H,20,H,20/-/H,H,H,H/- R 0 -", "", 3, "[R1]"},
		{"L,L,20,H/-/H,H,H,H/- R 0 -", "", 3, "[R0 R2]"},
		{"20,30,40,50/-/H,H,H,H/- R 0 -", "", 1, "[R0 R1 R2 R3]"},
		{"20,20,20,20/-/H,H,H,H/- R 0 -", "", 1, "[R0]"},
		{"20,20,20,20/-/H,H,H,H/- R 0 -", "stack=off", 1, "[R0]"},
		{"F,F,F,H/-/H,H,H,H/- R 0 -", "", 3, "[pass]"},
		{"-/F,H,H,H/-/H,H,H,H B 0 -", "takeoff=fivesix", 5, "[B1]"},
	} {
		p := mustParse(t, tc.pos)
		if got := p.Outcomes(mustRules(t, tc.rules), tc.roll); fmt.Sprint(got.Slice()) != tc.want {
			t.Errorf("Outcomes(%s, %q, %d) = %v, want %s", tc.pos, tc.rules, tc.roll, got.Slice(), tc.want)
		}
	}
}

func TestPlayRejects(t *testing.T) {
	const pos = "H,6,H,6/L,H,H,H/-/- R 0 -"
	for _, tc := range []struct {
		name string
		pos  string
		roll int
		move Move
	}{
		{"roll 0", pos, 0, Move{Colour: Red, Plane: 1}},
		{"roll 7", pos, 7, Move{Colour: Red, Plane: 1}},
		{"not the lead plane", pos, 1, Move{Colour: Red, Plane: 3}},
		{"other colour", pos, 1, Move{Colour: Blue, Plane: 0}},
		{"taxi on an odd roll", pos, 1, Move{Colour: Red, Plane: 0}},
		{"pass with a move", pos, 1, Move{Kind: Pass}},
		{"penalty without two sixes", pos, 6, Move{Kind: Penalty}},
		{"no such plane", pos, 2, Move{Colour: Red, Plane: 7}},
		{"no such kind", pos, 2, Move{Kind: 9}},
		{"finished plane", "F,6,H,H/L,H,H,H/-/- R 0 -", 1, Move{Colour: Red, Plane: 0}},
		{"move on the third six", "H,6,H,6/L,H,H,H/-/- R 2:1 -", 6, Move{Colour: Red, Plane: 1}},
		{"game over", "F,F,F,F/L,H,H,H/-/- - 0 R", 1, Move{Colour: Blue, Plane: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.pos)
			before := p
			q, res, err := p.Play(DefaultRules(), tc.roll, tc.move)
			if !errors.Is(err, ErrIllegal) {
				t.Fatalf("Play: %v, want ErrIllegal", err)
			}
			if q != before || p != before {
				t.Errorf("position changed: %s → %s", before, q)
			}
			if res != (Result{}) {
				t.Errorf("result of an illegal move is not zero: %s", resultSummary(res))
			}
		})
	}
}

// TestPassAndPenaltyByName checks that a pass or penalty read from its
// notation (which names no colour) plays for whichever colour is to move.
func TestPassAndPenaltyByName(t *testing.T) {
	pass, _ := ParseMove("pass")
	pen, _ := ParseMove("penalty")
	p := mustParse(t, "-/H,H,H,H/-/H,H,H,H G 0 -")
	q, _, err := p.Play(DefaultRules(), 1, pass)
	if err != nil || q.String() != "-/H,H,H,H/-/H,H,H,H B 0 -" {
		t.Errorf("pass for Green: %s, %v", q, err)
	}
	p = mustParse(t, "-/L,H,H,H/-/H,H,H,H B 2:0 -")
	q, _, err = p.Play(DefaultRules(), 6, pen)
	if err != nil || q.String() != "-/H,H,H,H/-/H,H,H,H G 0 -" {
		t.Errorf("penalty for Blue: %s, %v", q, err)
	}
}

func TestNewGameAndWithToMove(t *testing.T) {
	for _, tc := range []struct {
		colours []Colour
		want    string
	}{
		{[]Colour{Red, Blue, Yellow, Green}, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"},
		{[]Colour{Yellow, Red}, "H,H,H,H/-/H,H,H,H/- R 0 -"},
		{[]Colour{Green, Blue}, "-/H,H,H,H/-/H,H,H,H B 0 -"},
		{[]Colour{Green, Blue, Yellow}, "-/H,H,H,H/H,H,H,H/H,H,H,H B 0 -"},
	} {
		p, err := NewGame(tc.colours...)
		if err != nil || p.String() != tc.want {
			t.Errorf("NewGame(%v) = %s, %v; want %s", tc.colours, p, err, tc.want)
		}
		if p != mustParse(t, tc.want) {
			t.Errorf("NewGame(%v) differs from its parsed text", tc.colours)
		}
	}
	for _, cs := range [][]Colour{{Red}, {}, {Red, Red}, {Red, NoColour}, {Red, Blue, Yellow, Green, Red}} {
		if _, err := NewGame(cs...); !errors.Is(err, ErrIllegal) {
			t.Errorf("NewGame(%v): %v, want ErrIllegal", cs, err)
		}
	}
	p := mustParse(t, "L,H,H,H/F,F,F,F/-/H,H,H,H R 1:0 B")
	q, err := p.WithToMove(Green)
	if err != nil || q.String() != "L,H,H,H/F,F,F,F/-/H,H,H,H G 0 B" {
		t.Errorf("WithToMove(Green) = %s, %v", q, err)
	}
	for _, c := range []Colour{Blue, Yellow, NoColour} {
		if _, err := p.WithToMove(c); !errors.Is(err, ErrIllegal) {
			t.Errorf("WithToMove(%v): %v, want ErrIllegal", c, err)
		}
	}
}
