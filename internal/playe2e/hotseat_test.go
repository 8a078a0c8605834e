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

// `aeroplane --offline --names ann,bob` in a terminal, and p at the
// table seating cat: three people at one laptop play a whole game against
// a bot with the keys, the screen naming whose turn it is ("bob's turn
// (on this laptop)"), and the saved log verifies with three players of
// three different keys (named: the names are saved beside it), each of
// whose links made every roll.
func TestPlayOfflineHotSeat(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	home := t.TempDir()
	tm := startTerm(t, exec.Command, playerEnv(home), binary(), "--offline", "--names", "ann,bob", "--lang", "en", "--bot-delay", "0")
	tm.waitFor("the offline lobby", 100, contains("Aeroplane Chess — lobby", "Your name: ann"))
	tm.keys(keyCreate)
	tm.waitFor("the table with ann and bob", 100, contains("R ann", "B bob", "+ add a person here"))
	tm.keys("+")
	tm.typeText("cat")
	tm.keys("Enter")
	tm.waitFor("cat at the table", 100, contains("R ann", "B bob", "Y cat", "G bot ("))
	tm.keys(keyStart)
	tm.waitFor("the board", 100, contains("The game begins."))

	asked := map[string]int{}
	turn := regexp.MustCompile(`(ann|bob|cat)'s turn \(on this laptop\)`)
	last, presses := "", 0
	for {
		if presses > 4000 {
			t.Fatalf("after %d key presses the game is not over; asked %v:\n%s", presses, asked, tm.screen())
		}
		s := tm.screen()
		if strings.Contains(s, "The game is over.") {
			break
		}
		if s == last {
			time.Sleep(poll)
			continue
		}
		who := turn.FindStringSubmatch(s)
		switch hints := bottomLine(s); {
		case who != nil && strings.Contains(hints, "play move"):
			asked[who[1]]++
			tm.keys(keyNext, keyPlay)
		case who != nil && strings.Contains(hints, "space roll"):
			asked[who[1]]++
			tm.keys(keyRoll)
		default:
			time.Sleep(poll)
			continue
		}
		presses++
		last = s
	}
	for _, name := range []string{"ann", "bob", "cat"} {
		if asked[name] == 0 {
			t.Errorf("the screen never asked %s by name (asked: %v)", name, asked)
		}
	}
	tm.quitAndCheck()

	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games: %q, want one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "finishing order") {
		t.Fatalf("verify of the hot-seat game: %v\n%s", err, out)
	}
	seats := regexp.MustCompile(`(Red|Blue|Yellow)=(?:ann|bob|cat) \((\S+)\)`).FindAllStringSubmatch(string(out), -1)
	ids := map[string]bool{}
	for _, m := range seats {
		ids[m[2]] = true
	}
	if len(ids) != 3 {
		t.Fatalf("the log's players %v, want three distinct keys:\n%s", seats, out)
	}
	t.Logf("%d key presses; asked by name %v; verify:\n%s", presses, asked, out)
}
