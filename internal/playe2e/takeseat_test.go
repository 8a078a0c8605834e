package playe2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A person comes late: two headless peers play a game with two bots on
// the LAN; the person's lobby lists it under "Running games" with its
// number; s, the number and Enter ask for a seat. The players vote yes,
// the person's list of players names alice at the seat, and the screen
// asks for alice's rolls and moves, which the person plays by key to the
// end.
// The peers said who took the seat; the end screen's order is theirs;
// the person's saved log (game-take-…) passes aeroplane verify with the
// players' hash and names alice as the seat's second owner.
func TestPlayLANTakeSeat(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "late", 2, 2, "60ms", "game ")

	tm, home := aliceAt(t, lan, 2)
	running := regexp.MustCompile(`1\) p[01], p[01] — roll \d+`)
	tm.waitFor("the running game in the lobby, a seat to take", 600, func(s string) bool {
		return running.MatchString(s) && strings.Contains(bottomLine(s), "j take a seat")
	}, peers)
	tm.keys("j")
	// The list of players names alice at the seat she took.
	colour, from := tm.takeSeatByKey(t, "1", host, peers)
	told := fmt.Sprintf("notice alice takes %s from roll %s.", colour, from)
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
	if p.rolls == 0 {
		t.Errorf("the person never rolled for the seat taken")
	}
	order := finishOrder(end)
	hostOrder, hash := host.result(t, time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash || order != hostOrder {
		t.Errorf("p0 %s %s, p1 %s %s, the person's screen %s", hostOrder, hash, guestOrder, guestHash, order)
	}
	for _, h := range []*headless{host, guest} {
		if !strings.Contains(h.stderr.String(), told) {
			t.Errorf("a player was not told alice takes %s from roll %s:\n%s", colour, from, tail(h.stderr.String(), 20))
		}
	}
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-take-*.log"))
	if len(logs) != 1 {
		t.Fatalf("taken-seat logs %q, want one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "history "+hash) ||
		!regexp.MustCompile(`seat `+colour+`: flown by alice \(…\S+\) from roll `+from+`\n`).Match(out) {
		t.Errorf("verify of the person's log: %v, want ok, history %s and alice flying %s from roll %s:\n%s", err, hash, colour, from, out)
	}
	t.Logf("alice took %s from roll %s, rolled %d times; order %s", colour, from, p.rolls, order)
	tm.quitAndCheck()
}
