package e2e

import (
	"regexp"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A peer of a `--games 3` run is killed with kill -9 just after its first
// game (as it starts the rematch) and restarted with the same arguments: it
// finds its place in the run from --data (the rematch if it had begun, else
// the game that ended, whose rematch it derives), and every game's result is
// the same on all three peers.
func TestGamesRunSurvivesRestart(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	ps := startGame(t, lan, 3, "rerun", "--games", "3")
	victim := ps[2]
	victim.mustLog(regexp.MustCompile(`progress game=1/3 `), 2*time.Minute)
	victim.kill9()
	first := resultLine.FindAllStringSubmatch(victim.stdout.String(), -1)
	victim.start()
	for _, p := range ps {
		if err := p.wait(4 * time.Minute); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
	}
	all := func(p *peer) [][]string { return resultLine.FindAllStringSubmatch(p.stdout.String(), -1) }
	want := all(ps[0])
	if len(want) != 3 || len(all(ps[1])) != 3 {
		t.Fatalf("peers 0 and 1 printed %d and %d results, want 3 each", len(want), len(all(ps[1])))
	}
	got := append(first, all(victim)...)
	if len(got) != 3 {
		t.Fatalf("the restarted peer printed %d results over its two runs, want 3\n%s", len(got), victim.report())
	}
	for g := range 3 {
		for _, r := range [][]string{all(ps[1])[g], got[g]} {
			if r[1] != want[g][1] || r[3] != want[g][3] {
				t.Errorf("game %d: result %s %s, peer 0 %s %s", g+1, r[1], r[3][:12], want[g][1], want[g][3][:12])
			}
		}
	}
	t.Logf("3 games, one result each on all peers; the restarted peer resumed with: %s",
		regexp.MustCompile(`game \S+ (resuming|rematch 2 of 3 after a restart)`).FindString(victim.stderr.String()))
}
