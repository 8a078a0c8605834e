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

// playerEnv gives the player a home of its own: state, config and the
// terminal's language.
func playerEnv(home string) []string {
	return []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "LANG=C.UTF-8", "USER=player"}
}

// `aeroplane --offline` in a terminal: the lobby says there is no
// network; c, enter, space and the move keys play against bots through
// the real dice protocol; q in the middle of the game leaves with status
// 0, restores the terminal, and leaves a log that verifies as far as the
// game went. It opens no socket, but runs in a namespace to be sure.
func TestPlayOfflineKeys(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	home := t.TempDir()
	tm := startTerm(t, exec.Command, playerEnv(home), binary(), "--offline", "--name", "ann", "--lang", "en", "--bot-delay", "0")
	tm.waitFor("the offline lobby", 100, contains("Aeroplane Chess — lobby", "Your name: ann", "none — solo play, no network", "c create game"))

	tm.keys(keyCreate)
	tm.waitFor("the table with bots", 100, contains("R ann", "bot (", "enter ready, start"))
	tm.keys(keyStart)
	tm.waitFor("the board", 100, contains("The game begins."))

	// Roll and move with keys until the player has moved three times. A
	// key is pressed only on a screen that changed since the last press.
	rolls, moves, last := 0, 0, ""
	for i := 0; moves < 3; i++ {
		if i >= 1200 {
			t.Fatalf("after %d rolls and %d moves the game does not go on:\n%s", rolls, moves, tm.screen())
		}
		s := tm.screen()
		if s == last {
			time.Sleep(poll)
			continue
		}
		switch hints := bottomLine(s); {
		case strings.Contains(hints, "play move"):
			tm.keys(keyNext, keyPlay)
			moves++
		case strings.Contains(hints, "space roll"):
			tm.keys(keyRoll)
			rolls++
		default:
			time.Sleep(poll)
			continue
		}
		last = s
	}
	tm.quitAndCheck()

	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games: %q, want one in the default data dir", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unfinished: the log is whole") {
		t.Fatalf("verify of the unfinished game: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(home, "state", "aeroplane", "aeroplane.log")); err != nil {
		t.Errorf("no diagnostics file: %v", err)
	}
	t.Logf("%d rolls, %d moves by key; verify:\n%s", rolls, moves, out)
}
