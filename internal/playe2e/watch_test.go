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

// A person runs `aeroplane` on a LAN where two headless peers play a
// game with two bots. The lobby lists it under "Running games" with its
// players and roll; the person watches it with its number, sees the
// board and "watching — verified" as the game goes on, chats, and reaches
// the end screen with the players' finishing order and "watched to the
// end — verified"; the peers heard the chat line and logged that alice
// watches, and `aeroplane verify` on the watched log ends on the
// players' hash.
func TestPlayLANWatch(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "match", 2, 2, "60ms", "game ")

	tm, home := aliceAt(t, lan, 2)
	running := regexp.MustCompile(`1\) p[01], p[01] — roll \d+`)
	tm.waitFor("the running game in the lobby", 600, func(s string) bool {
		return strings.Contains(s, "Running games") && running.MatchString(s)
	}, peers)
	tm.keys(keyJoin1)
	tm.waitFor("the watched game, verified", 600, contains("watching — verified:", "Events"), peers)
	const chat = "go green"
	tm.keys(keyChat)
	tm.typeText(chat)
	tm.keys(keySend)
	end := tm.waitFor("the end of the watched game", 2400, contains("Game over", "Game log saved to"), peers)
	var order string
	for _, m := range rankLine.FindAllStringSubmatch(end, -1) {
		order += letters[m[2]]
	}
	hostOrder, hash := host.result(t, time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash || order != hostOrder {
		t.Errorf("p0 %s %s, p1 %s %s, the watcher's screen %s", hostOrder, hash, guestOrder, guestHash, order)
	}
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-watch-*.log"))
	if len(logs) != 1 || !strings.Contains(flat(inBox(end)), logs[0]) {
		t.Fatalf("watched logs %q; the end screen:\n%s", logs, end)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "history "+hash) {
		t.Errorf("verify of the watched log: %v, want ok and history %s:\n%s", err, hash, out)
	}
	watched, heard := false, false
	for _, h := range []*headless{host, guest} {
		watched = watched || strings.Contains(h.stderr.String(), "notice alice is watching the game")
		heard = heard || strings.Contains(h.stderr.String(), "chat alice (watching): "+chat)
	}
	if !watched || !heard {
		t.Errorf("the players were told alice watches: %v; heard her chat line: %v\n%s", watched, heard, peers())
	}
	tm.quitAndCheck()
}
