package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// One of four peers is killed with kill -9 mid-game. The other three log
// it absent within seconds and go on (a bot flies its seat). It restarts
// with the same identity and data directory, finds its game from its log,
// catches up, checks what it missed and flies its seat again; all four
// print one hash, and its log verifies.
func TestCrashAndRejoin(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "rejoin", "--think", "20ms")
	victim := ps[3]
	short := shortID(victim.id())
	victim.mustLog(midGame, 2*time.Minute)
	killed := time.Now()
	victim.kill9()
	choosing := isChoosing(victim.stderr.String())
	checkLogReadable(t, victim.dataDir())
	for _, p := range ps[:3] {
		// A generous bound; how fast it was is checked below.
		p.mustLog(absentLine(short), 90*time.Second)
		t.Logf("peer %d saw peer 3 absent %.1fs after kill -9 (it was choosing a move: %v)", p.i, time.Since(killed).Seconds(), choosing)
	}
	if d := time.Since(killed); d > 15*time.Second {
		// The heartbeat (4 s) reports the connection down, and lockstep
		// then gives even a player choosing a move only the short absence
		// wait (Node.Reachable), so a crash is noticed in seconds.
		t.Errorf("the crash took %v to notice (it was choosing a move: %v); the heartbeat (4 s) bounds it to seconds", d, choosing)
	}
	for _, p := range ps[:3] {
		if p.exited() {
			t.Fatalf("peer %d stopped after the crash: %v\n%s", p.i, p.err, p.report())
		}
	}
	victim.start()
	victim.mustLog(regexp.MustCompile(`event returned peer=`+regexp.QuoteMeta(short)), time.Minute)
	r := finishEqual(t, ps, 4, 3*time.Minute)
	if !strings.Contains(ps[0].stderr.String(), "event returned peer="+short) {
		t.Errorf("peer 0 never saw peer 3 return")
	}
	t.Logf("all four agree after the rejoin: %s %s", r.order, r.hash[:16])
}

// isChoosing reports whether a headless peer's log ends while it is to
// choose a move: a your-move with no move for that roll after it.
func isChoosing(stderr string) bool {
	m := regexp.MustCompile(`event your-move roll=(\d+) `).FindAllStringSubmatch(stderr, -1)
	if m == nil {
		return false
	}
	roll := m[len(m)-1][1]
	return !strings.Contains(stderr, "event moved roll="+roll+" ")
}

// Every peer is killed at once mid-game and restarted: they resume the game
// from their logs and finish it with one history.
func TestCrashAllRestart(t *testing.T) {
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
		checkLogReadable(t, p.dataDir())
		p.start()
	}
	r := finishEqual(t, ps, 4, 3*time.Minute)
	t.Logf("all four resumed and agree: %s %s", r.order, r.hash[:16])
}
