package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A peer killed with kill -9 mid-game is seen absent by the others within
// seconds, a bot flies its seat, and the three survivors finish the game
// with one history.
func TestCrashOneOfFourOthersGoOn(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "crash", "--think", "20ms")
	victim := ps[3]
	short := shortID(victim.id())
	victim.mustLog(midGame, 2*time.Minute)
	killed := time.Now()
	victim.kill9()
	for _, p := range ps[:3] {
		p.mustLog(absentLine(short), 30*time.Second)
		t.Logf("peer %d saw peer 3 absent %.1fs after kill -9", p.i, time.Since(killed).Seconds())
	}
	if d := time.Since(killed); d > 15*time.Second {
		t.Errorf("the crash took %v to notice; the heartbeat (4 s) and lockstep's absence (3 s) bound it to seconds", d)
	}
	r := finishEqual(t, ps[:3], 4, 3*time.Minute)
	t.Logf("survivors agree: %s %s", r.order, r.hash[:16])
}

// The killed peer restarts with the same identity and data directory, finds
// its game from its log, catches up, verifies what it missed and flies its
// seat again; all four print the same hash. The headless peer cannot do
// this yet (see TESTING.md, pending).
func TestCrashRejoin(t *testing.T) {
	if !pending() {
		t.Skip("pending: the headless peer does not resume a game from its log; run with -e2e.pending")
	}
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "rejoin", "--think", "20ms")
	victim := ps[3]
	short := shortID(victim.id())
	victim.mustLog(midGame, 2*time.Minute)
	victim.kill9()
	ps[0].mustLog(absentLine(short), 30*time.Second)
	victim.start()
	victim.mustLog(regexp.MustCompile(`event returned peer=`+regexp.QuoteMeta(short)), time.Minute)
	finishEqual(t, ps, 4, 3*time.Minute)
	if !strings.Contains(ps[0].stderr.String(), "event returned peer="+short) {
		t.Errorf("peer 0 never saw peer 3 return")
	}
}

// Every peer is killed at once mid-game and restarted: they resume the game
// from their logs and finish it with one history.
func TestCrashAllRestart(t *testing.T) {
	if !pending() {
		t.Skip("pending: the headless peer does not resume a game from its log; run with -e2e.pending")
	}
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "all crash", "--think", "20ms")
	ps[0].mustLog(midGame, 2*time.Minute)
	for _, p := range ps {
		p.kill9()
	}
	for _, p := range ps {
		p.start()
	}
	finishEqual(t, ps, 4, 3*time.Minute)
}
