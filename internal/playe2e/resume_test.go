package playe2e

import (
	"os/exec"
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
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	host := startHeadless(t, lan, 0, "--bot", "greedy", "--lobby", "party", "--players", "2", "--bots", "1",
		"--think", "0", "--find-for", "200ms")
	host.waitLog(t, `lobby "party" players=p0 free=1`, 300)
	alice := program{home: t.TempDir(), argv: []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"},
		wrap: func(name string, args ...string) *exec.Cmd { return lan.Command(1, name, args...) }}
	peer := func() string { return "p0:\n" + tail(host.stderr.String(), 15) }
	tm := alice.start(t)
	tm.joinFirstAndStart("1) p0's game", peer)
	_, before := playUntil(tm, 8, peer)
	tm2 := tm.killAndResume(alice, `party"`, peer)
	end, _ := playUntil(tm2, 0, peer)
	hostOrder, hash := host.result(t, time.Minute)
	if order := finishOrder(end); order != hostOrder {
		t.Errorf("finishing order on the resumed screen %q, the host's %q", order, hostOrder)
	}
	if strings.Contains(host.stderr.String(), "event cheating") || strings.Contains(host.stderr.String(), "event halted") {
		t.Errorf("the host saw cheating or halted:\n%s", tail(host.stderr.String(), 20))
	}
	// The game is over, so it is closed: the next start will not read it.
	if why := tm2.closedMarker(alice.home); why != "over" {
		t.Errorf("the game's closed marker says %q, want over", why)
	}
	if g, ok := tm2.verifiedLogs(alice.home)[hash]; !ok || !g.over || g.order != hostOrder {
		t.Errorf("the player's log does not verify to the host's hash %s", hash)
	}
	tm2.quitAndCheck()
	t.Logf("killed after %d rolls by key; resumed and finished: %s %s", before, hostOrder, hash[:16])
}

// playUntil rolls and chooses by key (turns) until it has rolled rolls
// times (0: until the end screen); it returns the last screen and how
// many times it rolled.
func playUntil(tm *term, rolls int, more func() string) (string, int) {
	tm.t.Helper()
	p := &turns{tm: tm}
	for i := 0; ; i++ {
		if i >= 4000 {
			tm.t.Fatalf("no end after %d rolls:\n%s\n%s", p.rolls, tm.screen(), more())
		}
		if rolls > 0 && p.rolls >= rolls {
			return tm.screen(), p.rolls
		}
		if s, over := p.step(); over {
			return s, p.rolls
		}
	}
}
