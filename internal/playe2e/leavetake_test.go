package playe2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A person leaves and a newcomer takes her seat: two headless peers and
// a bot play with alice at a terminal; alice plays a few rolls, presses
// q and confirms (a signed leave: her program exits, a bot flies her
// seat); a fourth program then asks for her colour (aeroplane --headless
// --take-seat LOBBY:COLOUR), is seated by the players' votes and flies
// it to the end. The two players and the newcomer print one result and
// history; the newcomer's saved log verifies with that history and names
// it as the seat's owner after alice; alice's log verifies up to her
// leave, and her game is marked left.
func TestPlayLANLeaveThenTakeSeat(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	host, guest, peers := hostAndGuest(t, lan, "leaveseat", 3, 1, "250ms", "players=p0,p1 free=1")
	tm, home := aliceAt(t, lan, 2)
	tm.waitFor("the peers' game in the lobby", 400, contains("1) p0's game"), peers)
	tm.keys(keyJoin1)
	tm.waitFor("alice seated, not ready", 400, contains("alice", "you — not ready"), peers)
	tm.keys(keyReady)
	tm.waitFor("the game with the peers", 400, contains("The game begins."), peers)
	m := regexp.MustCompile(`([RBYG]) alice\b`).FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatalf("alice's colour is not in the list of players:\n%s", tm.screen())
	}
	colour := map[string]string{"R": "Red", "B": "Blue", "Y": "Yellow", "G": "Green"}[m[1]]
	p := &turns{tm: tm}
	for i := 0; p.rolls < 3; i++ {
		if i >= 4000 {
			t.Fatalf("alice rolled %d times of 3:\n%s\n%s", p.rolls, tm.screen(), peers())
		}
		if _, over := p.step(); over {
			t.Fatal("the game ended before alice had played")
		}
	}
	tm.keys(keyQuit)
	tm.waitFor("the leave question", 100, contains("Leave the game?", "y leave for good"))
	tm.keys("y")
	tm.waitFor("alice's program gone", 400, contains("exit=0"), peers)
	if why := tm.closedMarker(home); why != "left on purpose" {
		t.Errorf("alice's game is marked %q, want left on purpose", why)
	}
	left := regexp.MustCompile(`event left peer=\S+ colour=` + colour)
	for i := 0; !left.MatchString(host.stderr.String()); i++ {
		if i >= 600 {
			t.Fatalf("p0 never logged alice's leave:\n%s", peers())
		}
		time.Sleep(poll)
	}

	carolDir := t.TempDir()
	carol := startHeadlessIn(t, lan, 3, carolDir, "--name", "carol", "--bot", "random", "--take-seat", "leaveseat:"+strings.ToLower(colour))
	taken := regexp.MustCompile(`event seat-taken peer=\S+ colour=` + colour + ` from-roll=(\d+)`)
	var from []string
	for i := 0; from == nil; i++ {
		if i >= 1200 {
			t.Fatalf("carol was never seated at %s:\n%s\ncarol:\n%s", colour, peers(), tail(carol.stderr.String(), 20))
		}
		from = taken.FindStringSubmatch(carol.stderr.String())
		time.Sleep(poll)
	}
	order, hash := host.result(t, 4*time.Minute)
	gOrder, gHash := guest.result(t, time.Minute)
	cOrder, cHash := carol.result(t, time.Minute)
	if gOrder != order || gHash != hash || cOrder != order || cHash != hash {
		t.Fatalf("p0 %s %s, p1 %s %s, carol %s %s: not one history", order, hash, gOrder, gHash, cOrder, cHash)
	}
	logs, _ := filepath.Glob(filepath.Join(carolDir, "data", "game-take-*.log"))
	if len(logs) != 1 {
		t.Fatalf("carol's taken-seat logs %q, want one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "history "+hash) ||
		!regexp.MustCompile(`seat `+colour+`: flown by carol \(…\S+\) from roll `+from[1]+`\n`).Match(out) {
		t.Errorf("verify of carol's log: %v, want history %s and carol flying %s from roll %s:\n%s", err, hash, colour, from[1], out)
	}
	if games := tm.verifiedLogs(home); len(games) != 1 {
		t.Errorf("alice's games: %v, want one that verifies", games)
	}
	t.Logf("alice left %s after %d rolls; carol took it from roll %s; one history %s %s", colour, p.rolls, from[1], order, hash[:16])
}
