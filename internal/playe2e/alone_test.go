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

var openSeat = regexp.MustCompile(`[BYG] open seat`)

// A person alone on the LAN (no --offline): c creates a game, ↓ and b give
// the three empty seats to bots, enter starts it at once, and the rolls
// and moves are played by key over the real protocol; q in the middle leaves
// cleanly and the saved log verifies as far as the game went.
func TestPlayLANAloneWithBots(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 1)
	home := t.TempDir()
	inPeer0 := func(name string, args ...string) *exec.Cmd { return lan.Command(0, name, args...) }
	tm := startTerm(t, inPeer0, playerEnv(home), binary(), "--name", "solo", "--lang", "en")
	tm.waitFor("the LAN lobby", 200, contains("Your address (for manual connect): /ip4/10.213.0.1/", "c create game"))
	tm.keys(keyCreate)
	tm.waitFor("the new game's table", 100, contains("R solo", "open seat", "b bot / open seat"))
	for range 3 {
		tm.keys(keySeat, keyBot)
	}
	tm.waitFor("three bot seats", 100, func(s string) bool { return strings.Count(s, "bot (") == 3 && openSeat.FindString(s) == "" })
	tm.keys(keyStart)
	tm.waitFor("the game", 200, contains("The game begins."))

	moves, last := 0, ""
	for i := 0; moves < 3; i++ {
		if i >= 1200 {
			t.Fatalf("after %d moves the game does not go on:\n%s", moves, tm.screen())
		}
		s := tm.screen()
		switch {
		case s == last:
			time.Sleep(poll)
		case chooseHint.FindString(bottomLine(s)) != "":
			tm.keys("1")
			moves++
			last = s
		case strings.Contains(bottomLine(s), "space roll"):
			// The die waits for the key (a minute before it rolls by
			// itself), as at the table.
			tm.keys(keyRoll)
			last = s
		default:
			time.Sleep(poll)
		}
	}
	tm.quitAndCheck()

	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games: %q, want one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") || !strings.Contains(string(out), "Green=bot") {
		t.Fatalf("verify of the game left in the middle: %v\n%s", err, out)
	}
	t.Logf("verify:\n%s", out)
}
