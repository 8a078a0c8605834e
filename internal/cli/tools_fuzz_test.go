package cli

import (
	"strings"
	"testing"

	"aeroplane/engine"
)

// FuzzMoves feeds arbitrary positions, rolls and rule strings to the moves
// and perft commands: they never panic, bad input exits 2 with a message,
// and every line of a success names an outcome and a valid position whose
// perft to depth 1 the perft command agrees with.
func FuzzMoves(f *testing.F) {
	f.Add("H,H,H,H/-/H,H,H,H/- R 0 -", "6", "")
	f.Add("L,5,5,H/-/9,H,H,H/- R 2:12 -", "6", "stack=off")
	f.Add("F,F,F,F/-/H,H,H,H/- - 0 R", "3", "takeoff=six")
	f.Add("14,52,F,F/H,H,H,H/16,H,H,H/- Y 1:0 -", "1", "flyjump=on,overshoot=stay")
	f.Fuzz(func(t *testing.T, pos, roll, rules string) {
		stdout, stderr, code := run("moves", "--rules="+rules, pos, roll)
		if code == 0 && strings.HasPrefix(stdout, "Usage: aeroplane moves") {
			return // a flag among the arguments asked for help (e.g. POSITION "-h")
		}
		switch code {
		case 0:
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			for _, l := range lines {
				m, next, ok := strings.Cut(l, " ")
				if _, err := engine.ParseMove(m); !ok || err != nil {
					t.Fatalf("line %q: bad move", l)
				}
				if _, err := engine.ParsePosition(next); err != nil {
					t.Fatalf("line %q: %v", l, err)
				}
			}
			if stderr != "" {
				t.Fatalf("success with stderr %q", stderr)
			}
		case 1:
			if !strings.Contains(stderr, "game is over") {
				t.Fatalf("exit 1 without saying the game is over: %q", stderr)
			}
		case 2:
			if stdout != "" || !strings.Contains(stderr, "usage: aeroplane moves") {
				t.Fatalf("exit 2: stdout %q stderr %q", stdout, stderr)
			}
		default:
			t.Fatalf("exit %d", code)
		}
		if code == 0 {
			if _, _, pc := run("perft", "--rules="+rules, pos, "1"); pc != 0 {
				t.Fatalf("moves accepted %q, perft exit %d", pos, pc)
			}
		}
	})
}
