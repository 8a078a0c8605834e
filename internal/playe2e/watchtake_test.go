package playe2e

import (
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
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "seen", 2, 2, "60ms", "game ")

	tm, _ := aliceAt(t, lan, 2)
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
