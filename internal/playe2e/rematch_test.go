package playe2e

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// The client people use, through the whole lifecycle the headless peers
// share with it: a person's program and two headless peers (and a bot)
// play a LAN game; the person's program is killed with kill -9 in the
// middle and started again, takes its seat back by itself and plays the
// game to its end; r on the end screen takes the person back to the
// table (the creator reopened it with the same seats, bot and rules), r
// says ready, and the second game is played to its end. Each of the
// person's saved logs verifies to the history hash both headless peers
// printed for that game: the screen and --headless ran the same games.
func TestPlayLANRematchAndResume(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	t0 := time.Now()
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "party", 3, 1, "0", "players=p0,p1 free=1", "--games", "2")

	alice := program{home: t.TempDir(), argv: []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"},
		wrap: func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }}
	tm := alice.start(t)
	tm.joinFirstAndStart("1) p0's game", peers)
	_, before := playUntil(tm, 6, peers)
	tm = tm.killAndResume(alice, `party"`, peers)
	end1, _ := playUntil(tm, 0, peers)
	tGame1 := time.Since(t0)

	tm.keys("r") // rematch, from the end screen
	tm.waitFor("the rematch's table", 400, contains("alice", "you — not ready", "r ready / not ready"), peers)
	// Every change of seats clears the ready (a peer rejoining after alice
	// does): she says ready again whenever the full table says she is not,
	// until the game is on (the table and the end screen gone; the events
	// panel still tells of game 1).
	readied, last := 0, ""
	for i := 0; ; i++ {
		if i >= 600 {
			t.Fatalf("game 2 never began after %d presses of ready:\n%s\n%s", readied, tm.screen(), peers())
		}
		s := tm.screen()
		if !strings.Contains(s, "r ready / not ready") && !strings.Contains(s, "Game log saved to") {
			break
		}
		if s != last && strings.Contains(s, "you — not ready") && strings.Contains(s, " p0 ") && strings.Contains(s, " p1 ") {
			tm.keys(keyReady)
			readied++
			last = s
		}
		time.Sleep(poll)
	}
	end2, _ := playUntil(tm, 0, peers)
	tm.quitAndCheck()

	hostRes := results(t, host, 2)
	guestRes := results(t, guest, 2)
	byHash := tm.verifiedLogs(alice.home)
	if len(byHash) != 2 {
		t.Fatalf("saved games of the player: %v, want two", byHash)
	}
	for g, end := range []string{end1, end2} {
		h, gr := hostRes[g], guestRes[g]
		if h != gr {
			t.Errorf("game %d: the headless peers disagree: p0 %v, p1 %v", g+1, h, gr)
		}
		if saved, ok := byHash[h[1]]; !ok || !saved.over {
			t.Errorf("game %d: no log of the player verifies to the peers' hash %s (the player's: %v)", g+1, h[1], byHash)
		}
		if order := finishOrder(end); order != h[0] {
			t.Errorf("game %d: finishing order on the screen %q, the peers' %q", g+1, order, h[0])
		}
	}
	if !strings.Contains(host.stderr.String(), "rematch 2 of 2") {
		t.Errorf("the host never reopened the table for the rematch:\n%s", tail(host.stderr.String(), 20))
	}
	t.Logf("killed after %d rolls; game 1 over at %v; game 2 over at %v; results %v",
		before, tGame1.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond), hostRes)
}

// results waits for the peer to finish its run and returns each game's
// finishing order and hash.
func results(t *testing.T, h *headless, n int) [][2]string {
	t.Helper()
	h.result(t, time.Minute)
	var rs [][2]string
	for _, m := range resultLine.FindAllStringSubmatch(h.stdout.String(), -1) {
		rs = append(rs, [2]string{m[1], m[3]})
	}
	if len(rs) != n {
		t.Fatalf("%s printed %d results, want %d:\n%s", h.name, len(rs), n, h.stdout.String())
	}
	return rs
}

// kill9 kills the program in the window (the child of the window's
// shell, found by its pid) with SIGKILL: a crash, no goodbye.
func (tm *term) kill9() {
	tm.t.Helper()
	out, err := tm.tmux("list-panes", "-t", "play", "-F", "#{pane_pid}")
	if err != nil {
		tm.t.Fatalf("list-panes: %v: %s", err, out)
	}
	shell := strings.TrimSpace(out)
	b, err := os.ReadFile("/proc/" + shell + "/task/" + shell + "/children")
	if err != nil {
		tm.t.Fatalf("the window's program: %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		tm.t.Fatalf("the window's shell %s has children %q, want the program alone", shell, f)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil {
		tm.t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		tm.t.Fatalf("kill -9 %d: %v", pid, err)
	}
}
