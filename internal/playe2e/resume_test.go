package playe2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A person's program is killed (kill -9) in the middle of a LAN game and
// started again: it takes the seat back by itself, says so, and the
// person plays the game to its end screen, whose finishing order is the
// headless host's, and the finished game is marked closed. Quitting on
// purpose is another matter: the game is then marked closed too, and the
// next start shows the lobby (TestFindInterrupted).
func TestPlayLANResumeAfterKill(t *testing.T) {
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	host := startHeadless(t, lan, 0, "--bot", "greedy", "--lobby", "party", "--players", "2", "--bots", "1",
		"--think", "0", "--find-for", "200ms")
	host.waitLog(t, `lobby "party" players=p0 free=1`, 300)
	home := t.TempDir()
	inPeer1 := func(name string, args ...string) *exec.Cmd { return lan.Command(1, name, args...) }
	argv := []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"}
	peer := func() string { return "p0:\n" + tail(host.stderr.String(), 15) }
	tm := startTerm(t, inPeer1, playerEnv(home), argv...)
	tm.waitFor("the host's game in the lobby", 400, contains("1) p0's game"), peer)
	tm.keys(keyJoin1)
	tm.waitFor("alice seated", 400, contains("alice", "you — not ready"), peer)
	tm.keys(keyReady)
	tm.waitFor("the game", 400, contains("The game begins."), peer)

	_, before := playUntil(tm, 8, peer)
	if out, err := exec.Command("pkill", "-9", "-f", "--", "--name alice --lang en").CombinedOutput(); err != nil {
		t.Fatalf("kill -9 of the player's program: %v %s", err, out)
	}
	tm.waitFor("the program gone", 100, contains("exit=137"), peer)

	tm2 := startTerm(t, inPeer1, playerEnv(home), argv...)
	tm2.waitFor("the game resumed", 400, contains(`Resuming your game "party"`), peer)
	end, _ := playUntil(tm2, 0, peer)
	var order string
	for _, m := range rankLine.FindAllStringSubmatch(end, -1) {
		order += letters[m[2]]
	}
	hostOrder, hash := host.result(t, time.Minute)
	if order != hostOrder {
		t.Errorf("finishing order on the resumed screen %q, the host's %q", order, hostOrder)
	}
	if strings.Contains(host.stderr.String(), "event cheating") || strings.Contains(host.stderr.String(), "event halted") {
		t.Errorf("the host saw cheating or halted:\n%s", tail(host.stderr.String(), 20))
	}
	// The game is over, so it is closed: the next start will not read it.
	var closed []string
	for i := 0; i < 200 && len(closed) == 0; i++ {
		closed, _ = filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.closed"))
		time.Sleep(poll)
	}
	if len(closed) != 1 {
		t.Errorf("closed markers after the end: %q, want one", closed)
	} else if b, _ := os.ReadFile(closed[0]); strings.TrimSpace(string(b)) != "over" {
		t.Errorf("%s says %q, want over", closed[0], b)
	}
	tm2.quitAndCheck()
	t.Logf("killed after %d rolls by key; resumed and finished: %s %s", before, hostOrder, hash[:16])
}

// playUntil rolls and chooses by key, pressing only on a screen that
// changed, until it has rolled rolls times (0: until the end screen);
// it returns the last screen and how many times it rolled.
func playUntil(tm *term, rolls int, more func() string) (string, int) {
	tm.t.Helper()
	last, n := "", 0
	for i := 0; ; i++ {
		if i >= 4000 {
			tm.t.Fatalf("no end after %d rolls:\n%s\n%s", n, tm.screen(), more())
		}
		s := tm.screen()
		switch {
		case strings.Contains(s, "Game over") && strings.Contains(s, "Game log saved to"):
			return s, n
		case rolls > 0 && n >= rolls:
			return s, n
		case s != last && strings.Contains(bottomLine(s), "space roll"):
			tm.keys(keyRoll)
			n++
			last = s
		case s != last && chooseHint.MatchString(bottomLine(s)):
			tm.keys("1")
			last = s
		default:
			time.Sleep(poll)
		}
	}
}
