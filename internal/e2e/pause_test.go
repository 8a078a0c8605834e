package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

var pausedLine = regexp.MustCompile(`(?m)^paused ([0-9]+) log=(\S+)$`)

// A 3-player game is paused by all three together (--pause-at 30: each
// asks to pause on reaching roll 30, lockstep's Pause): every program
// prints its paused line at one roll and exits by itself, its log whole,
// unfinished and saying "paused"; every file is dated two days back,
// past the hour of the automatic resume; started again with --continue,
// each takes up the game from its own log, lifts its pause, and the
// three finish with one history, their logs verifying to it.
func TestPauseTogetherAnotherDay(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	ps := startGameWith(t, lan, 3, "wednesday", map[int][]string{0: {"--pause-at", "30"}, 1: {"--pause-at", "30"}, 2: {"--pause-at", "30"}}, "--think", "20ms")
	roll := ""
	for _, p := range ps {
		if err := p.wait(3 * time.Minute); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
		m := pausedLine.FindStringSubmatch(p.stdout.String())
		if m == nil {
			t.Fatalf("peer %d printed no paused line; stdout %q\n%s", p.i, p.stdout.String(), p.report())
		}
		if roll == "" {
			roll = m[1]
		} else if m[1] != roll {
			t.Fatalf("peer %d paused at roll %s, peer 0 at %s", p.i, m[1], roll)
		}
		v, err := verifyFile(t, m[2])
		if err != nil || !v.Paused || fmt.Sprint(v.PausedAt) != roll || v.PausedAt < 30 {
			t.Fatalf("peer %d's paused log: %v (paused %v at %d, printed %s)", p.i, err, v != nil && v.Paused, v.PausedAt, roll)
		}
		if absent := regexp.MustCompile(`event absent peer=\S+`).FindString(p.stderr.String()); absent != "" {
			t.Fatalf("peer %d saw someone absent while pausing together: %s", p.i, absent)
		}
		// The next start continues without pausing again.
		p.args = slices.DeleteFunc(slices.Clone(p.args), func(a string) bool { return a == "--pause-at" || a == "30" })
	}
	continueAnotherDay(t, ps)
	r := finishEqual(t, ps, 3, 3*time.Minute)
	for _, p := range ps {
		got, err := p.result()
		if err != nil {
			t.Fatal(err)
		}
		v, err := verifyFile(t, got.log)
		if err != nil || v.Phase != lockstep.PhaseOver {
			t.Fatalf("peer %d's continued log: %v", p.i, err)
		}
	}
	t.Logf("paused together at roll %s, continued two days later to one history: %s %s", roll, r.order, r.hash[:16])
}
