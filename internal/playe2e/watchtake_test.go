package playe2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A watcher takes a seat: the person watches two headless peers' game
// with two bots (its number in the lobby), sees "watching — verified",
// then presses j. The session stops watching, asks the players for the
// first seat a bot flies and, once they agree, the screen is alice's
// game: she is in the list of players, no longer watching, and plays by
// key to the end with the players' finishing order.
func TestPlayLANWatchThenTakeSeat(t *testing.T) {
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	host := startHeadless(t, lan, 0, "--bot", "greedy", "--lobby", "seen", "--players", "2", "--bots", "2",
		"--think", "60ms", "--find-for", "200ms")
	host.waitLog(t, `lobby "seen" players=p0 free=1`, 300)
	guest := startHeadless(t, lan, 1, "--bot", "greedy", "--lobby", "seen", "--think", "60ms", "--find-for", "1m")
	host.waitLog(t, "game ", 300)

	home := t.TempDir()
	inPeer2 := func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }
	tm := startTerm(t, inPeer2, playerEnv(home), binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0")
	peers := func() string {
		return "p0:\n" + tail(host.stderr.String(), 10) + "\np1:\n" + tail(guest.stderr.String(), 10)
	}
	running := regexp.MustCompile(`1\) p[01], p[01] — roll \d+`)
	tm.waitFor("the running game in the lobby", 600, func(s string) bool { return running.MatchString(s) }, peers)
	tm.keys(keyJoin1)
	tm.waitFor("the watched game, a seat to take", 600, func(s string) bool {
		return strings.Contains(s, "watching — verified:") && strings.Contains(bottomLine(s), "j take a seat")
	}, peers)
	tm.keys("j")
	tm.waitFor("alice in the list of players, not watching", 1200, func(s string) bool {
		return regexp.MustCompile(`[RBYG] alice\b`).MatchString(s) && !strings.Contains(s, "watching — verified")
	}, peers)
	p := &turns{tm: tm}
	var end string
	for i := 0; ; i++ {
		scr, over := p.step()
		if over {
			end = scr
			break
		}
		if i > 20000 {
			t.Fatalf("the game did not end; the screen:\n%s\n%s", scr, peers())
		}
	}
	order := finishOrder(end)
	hostOrder, hash := host.result(t, time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash || order != hostOrder || p.rolls == 0 {
		t.Errorf("p0 %s %s, p1 %s %s, the person's screen %s after %d rolls", hostOrder, hash, guestOrder, guestHash, order, p.rolls)
	}
	if !regexp.MustCompile(`notice alice takes \S+ from roll \d+\.`).MatchString(host.stderr.String()) {
		t.Errorf("p0 was not told alice takes a seat:\n%s", peers())
	}
	tm.quitAndCheck()
}
