package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// One peer's cable is pulled for 10 s mid-game and plugged back: the game
// goes on without it, it comes back, and all four finish with one history.
//
// The others must still be playing when the cut peer has caught up, or it
// cannot be readmitted, which this test checks (after the end they only
// linger while it fetches the rest): --think 100ms makes the game last
// about 30 s, and the cable is pulled early (roll 10), so about 15 s of
// game are left when it goes back in.
func TestPartitionLinkDown10s(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	args := []string{"--think", "100ms"}
	if os.Getenv("AEROPLANE_E2E_VERBOSE") != "" {
		args = append(args, "-v")
	}
	ps := startGame(t, lan, 4, "partition", args...)
	cut := ps[2]
	short := shortID(cut.id())
	cut.mustLog(midGame, 2*time.Minute)
	lan.LinkDown(cut.i)
	time.Sleep(10 * time.Second)
	lan.LinkUp(cut.i)
	up := time.Now()
	if _, err := ps[0].waitLog(absentLine(short), 0); err == nil {
		t.Logf("peer 0 voted the cut peer absent while its cable was out")
	} else {
		t.Logf("peer 0 waited for the cut peer without voting it absent (it was choosing a move: %v)", isChoosing(cut.stderr.String()))
	}
	// Every other peer's stream to the cut one comes back up.
	for _, p := range ps {
		if p == cut {
			continue
		}
		if _, err := p.waitLog(regexp.MustCompile(`(?s)peer down[^\n]*peer=\S*`+regexp.QuoteMeta(short)+`.*peer up[^\n]*peer=\S*`+regexp.QuoteMeta(short)), 20*time.Second); err != nil && !p.exited() {
			t.Errorf("peer %d: the cut peer did not reconnect: %v", p.i, err)
		}
	}
	t.Logf("reconnected %.1fs after the cable went back in", time.Since(up).Seconds())
	finishEqual(t, ps, 4, 3*time.Minute)
	voted := absentLine(short)
	back := regexp.MustCompile(`event returned peer=` + regexp.QuoteMeta(short) + ` `)
	for _, p := range ps {
		log := p.stderr.String()
		t.Logf("peer %d: %s", p.i, summary(log))
		if p == cut {
			continue
		}
		// The cut peer is honest: nobody may call it a cheat or stop the
		// game, and a peer that voted it out must have let it back in.
		for _, bad := range []string{"event halted", "event cheating", "event state-mismatch"} {
			if strings.Contains(log, bad) {
				t.Errorf("peer %d logged %q:\n%s", p.i, bad, faultLines(log))
			}
		}
		if voted.MatchString(log) && !back.MatchString(log) {
			t.Errorf("peer %d voted the cut peer absent and never readmitted it:\n%s", p.i, faultLines(log))
		}
	}
}
