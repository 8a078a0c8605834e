package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// mountTmpfs mounts a tmpfs of size with opts at a fresh directory. It
// runs inside netlab.Enter's own mount namespace, so the machine's mounts
// never change.
func mountTmpfs(t *testing.T, size, opts string) string {
	t.Helper()
	if !netlab.Inside() {
		t.Fatal("mountTmpfs outside the test's own mount namespace")
	}
	dir := t.TempDir()
	o := "size=" + size
	if opts != "" {
		o += "," + opts
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", o, "e2e", dir).CombinedOutput(); err != nil {
		netlab.Unavailable(t, errors.New("mount tmpfs: "+err.Error()+": "+string(out)))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// checkLogReadable asserts a log a stopped peer left is a good prefix (a
// torn last record at most) that verifies as far as it goes.
func checkLogReadable(t *testing.T, dir string) {
	t.Helper()
	path, data, recs := readGameLog(t, dir)
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		t.Fatalf("the log of a stopped peer does not verify: %v", err)
	}
	t.Logf("%s: %d bytes, %d records, verifies to roll %d", filepath.Base(path), len(data), len(recs), v.Rolls)
}

// readGameLog reads the one game log of a stopped peer's data directory
// (a hot-seat person's own seat log beside it aside): its path, bytes and
// records (a torn tail is left off, as a restart does).
func readGameLog(t *testing.T, dir string) (string, []byte, []lockstep.Record) {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(dir, "game-*.log"))
	logs := slices.DeleteFunc(all, func(p string) bool { return strings.Contains(filepath.Base(p), "-seat-") })
	if len(logs) != 1 {
		t.Fatalf("want one game log in %s, found %v", dir, logs)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil && !errors.Is(err, lockstep.ErrTornTail) {
		t.Fatalf("the log of a stopped peer does not read: %v", err)
	}
	return logs[0], data, recs
}

// The disk under --data fills up mid-game: the peer stops with an error
// that says so, its log up to there still reads and verifies, and the two
// others finish the game with a bot in its seat. (Three players: two can
// outvote an absent one; see TESTING.md for the two-player case.)
func TestDiskFullStopsSafely(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	full := mountTmpfs(t, "48k", "")
	// Peer 2's data directory is on the tiny disk (a later --data wins).
	ps := startGameWith(t, lan, 3, "disk full", map[int][]string{2: {"--data", full}}, "--think", "20ms")
	err := ps[2].wait(3 * time.Minute)
	if err == nil {
		t.Fatalf("the peer on a full disk finished as if nothing happened\n%s", ps[2].report())
	}
	msg := ps[2].stderr.String()
	if !strings.Contains(msg, "no space left on device") || !strings.Contains(msg, "game log") {
		t.Errorf("the error does not say the disk is full:\n%s", tail(msg, 5))
	}
	t.Logf("peer 2 stopped: %s", strings.TrimSpace(tail(msg, 1)))
	checkLogReadable(t, full)
	r := finishEqual(t, ps[:2], 3, 3*time.Minute)
	for _, p := range ps[:2] {
		if !regexp.MustCompile(`event absent peer=`).MatchString(p.stderr.String()) {
			t.Errorf("peer %d never saw the stopped peer absent", p.i)
		}
	}
	t.Logf("peers 0 and 1 finished with a bot in the seat: %s", r.order)
}

// An unwritable --data directory is refused with a clear error.
func TestUnwritableDataDir(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	ro := mountTmpfs(t, "64k", "ro")
	ps := startGameWith(t, lan, 2, "read only", map[int][]string{1: {"--data", ro}}, "--think", "20ms")
	if err := ps[1].wait(time.Minute); err == nil {
		t.Fatalf("a peer with a read-only --data ran\n%s", ps[1].report())
	}
	msg := ps[1].stderr.String()
	if !strings.Contains(msg, "read-only file system") || !strings.Contains(msg, "--data") {
		t.Errorf("the error does not name the read-only --data:\n%s", tail(msg, 5))
	}
	t.Logf("peer 1 refused: %s", strings.TrimSpace(tail(msg, 1)))
	if strings.Contains(msg, " starting:") {
		// --data is checked at start-up, before the lobby: a peer that
		// cannot keep its log must never take a seat in a game.
		t.Errorf("the peer joined and started a game before finding it cannot keep its log")
	}
}
