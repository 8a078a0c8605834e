package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// A 3-player game is stopped by all three mid-game (at roll 30 or later)
// and taken up "another day": every file of their data directories is
// dated two days back, past the hour of the automatic resume, so a plain
// restart would start a new game; started again with --continue, each
// takes up the saved game from its own log and the three finish it with
// one history, their logs verifying to it.
func TestContinueAnotherDay(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	ps := startGame(t, lan, 3, "tuesday", "--think", "20ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=([3-9][0-9]|[1-9][0-9]{2,}) `), 3*time.Minute)
	for _, p := range ps {
		p.kill9()
	}
	continueAnotherDay(t, ps)
	r := finishEqual(t, ps, 3, 3*time.Minute)
	for _, p := range ps {
		data, err := os.ReadFile(r.log)
		if p != ps[0] {
			got, _ := p.result()
			data, err = os.ReadFile(got.log)
		}
		if err != nil {
			t.Fatal(err)
		}
		v, err := lockstep.Verify(data)
		if err != nil || v.Phase != lockstep.PhaseOver {
			t.Fatalf("peer %d's continued log: %v", p.i, err)
		}
	}
	t.Logf("stopped at roll ≥ 30, continued two days later to one history: %s %s", r.order, r.hash[:16])
}

// continueAnotherDay dates every file of the peers' data directories two
// days back (past the automatic resume's hour, so a plain restart would
// start a new game), starts them again with --continue and waits until
// each says it took up its saved game.
func continueAnotherDay(t *testing.T, ps []*peer) {
	t.Helper()
	twoDaysAgo := time.Now().Add(-48 * time.Hour)
	for _, p := range ps {
		checkLogReadable(t, p.dataDir())
		err := filepath.Walk(p.dataDir(), func(path string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(path, twoDaysAgo, twoDaysAgo)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range ps {
		p.start("--continue")
	}
	for _, p := range ps {
		p.mustLog(regexp.MustCompile(`game \S+ continuing after \d+ rolls, saved `), 30*time.Second)
	}
}

// verifyFile verifies the game log at path (a test's own failure if it
// cannot be read).
func verifyFile(t *testing.T, path string) (*lockstep.Verification, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lockstep.Verify(data)
}
