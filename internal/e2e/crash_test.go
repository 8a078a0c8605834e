package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// One of four peers is killed with kill -9 mid-game. The other three log
// it absent within seconds and go on (a bot flies its seat). It restarts
// with the same identity and data directory, finds its game from its log,
// catches up, checks what it missed and flies its seat again; all four
// print one hash, and its log verifies.
func TestCrashAndRejoin(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "rejoin", "--think", "50ms") // slow enough that the game outlasts the rejoin
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
	t.Parallel()
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

// The victim's machine stops rather than its process: its game log also
// loses the tail the lazy fsync had not reached, its own last messages
// among them (cut here at a record boundary: the file as a machine crash
// can leave it). Restarted at once, while the others still count it
// present, it fetches those messages back before it signs anything new
// (event recovered), and all four finish with one history, nobody named
// a cheat.
func TestMachineCrashLosesOwnMessages(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "machine", "--think", "20ms")
	victim := ps[3]
	victim.mustLog(midGame, 2*time.Minute)
	victim.kill9()
	lost, own := cutOwnTail(t, victim.dataDir(), victim.id(), 3)
	t.Logf("the crash took %d bytes of the victim's log, %d of its own messages among them", lost, own)
	victim.start()
	victim.mustLog(regexp.MustCompile(`event recovered`), time.Minute)
	r := finishEqual(t, ps, 4, 3*time.Minute)
	for _, p := range ps {
		for _, bad := range []string{"event cheating", "event halted", "event state-mismatch"} {
			if strings.Contains(p.stderr.String(), bad) {
				t.Errorf("peer %d logged %q after the machine crash:\n%s", p.i, bad, p.report())
			}
		}
	}
	t.Logf("all four agree after the machine crash: %s %s", r.order, r.hash[:16])
}

// cutOwnTail truncates the one game log in dir at the start of the n-th
// last message signed by id, and reports the bytes and own messages cut.
func cutOwnTail(t *testing.T, dir, id string, n int) (lost int64, own int) {
	t.Helper()
	path, data, recs := readGameLog(t, dir)
	var mine []lockstep.Record
	for _, r := range recs {
		if r.Type == lockstep.RecordMessage && lockstep.SignedBy(r.Data).String() == id {
			mine = append(mine, r)
		}
	}
	if len(mine) < n+1 {
		t.Fatalf("the log holds %d messages of the victim's, want more than %d", len(mine), n)
	}
	cut := mine[len(mine)-n].Offset
	if err := os.Truncate(path, cut); err != nil {
		t.Fatal(err)
	}
	return int64(len(data)) - cut, n
}
