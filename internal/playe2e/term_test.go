package playe2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// Keys the player presses, as ui/keys.go's keyTable defines them (the
// table is unexported; these are the labels its help screen shows).
const (
	keyCreate = "c"     // lobby: create a game
	keyJoin1  = "1"     // lobby: join the first game listed
	keyStart  = "Enter" // table: ready, start
	keyBot    = "b"     // table: give the selected seat to a bot
	keyReady  = "r"     // table: say ready (or not)
	keySeat   = "Down"  // table: select the next seat
	keyRoll   = "Space" // game: roll
	keyNext   = "Tab"   // game: select the next move
	keyPlay   = "Enter" // game: play the selected move
	keyChat   = "t"     // table and game: type a chat line
	keySend   = "Enter" // chat: send it
	keyQuit   = "q"     // anywhere but a text input: leave
)

// poll is how often the screen is read; every wait is a bounded number of
// polls, never a fixed sleep.
const poll = 50 * time.Millisecond

// term is a tmux server of the test's own (its socket lives in a temp
// dir) running one program in a 120×40 window.
type term struct {
	t    *testing.T
	sock string
}

// tmuxAvailable fails in CI and skips elsewhere when tmux is missing.
func tmuxAvailable(t *testing.T) bool {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		netlab.Unavailable(t, fmt.Errorf("tmux is needed to drive the terminal: %w", err))
		return false
	}
	return true
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startTerm runs argv in a new tmux window with env (on top of a minimal
// PATH), through wrap (e.g. a namespace's ip netns exec), so the tmux
// server and the program live where wrap puts them. When the program
// exits, the window shows its exit status and the terminal's modes.
func startTerm(t *testing.T, wrap func(name string, args ...string) *exec.Cmd, env []string, argv ...string) *term {
	t.Helper()
	tm := &term{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	var q []string
	for _, a := range argv {
		q = append(q, shellQuote(a))
	}
	// The exit line starts at column 0 of a line of its own even when the
	// program died (kill -9) with the terminal raw and the cursor at the
	// end of a full bottom line: in raw mode a newline does not return
	// the carriage, and "exit=137" wrapped as "exit=13" and "7".
	script := strings.Join(q, " ") + `; printf '\r\nexit=%s\r\n' "$?"; stty -a; echo "modes-end"; exec sleep 600`
	args := []string{"-u", "-S", tm.sock, "-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "120", "-y", "40"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, script)
	cmd := wrap("tmux", args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "SHELL=/bin/sh"}, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tm.sock, "kill-server").Run() })
	return tm
}

func (tm *term) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	return string(out), err
}

// screen is the window's text now.
func (tm *term) screen() string {
	tm.t.Helper()
	out, err := tm.tmux("capture-pane", "-p", "-t", "play")
	if err != nil {
		tm.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return out
}

// keys presses tmux key names (Enter, Tab, Space, a letter…) in order.
func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	if out, err := tm.tmux(append([]string{"send-keys", "-t", "play"}, keys...)...); err != nil {
		tm.t.Fatalf("send-keys %q: %v: %s", keys, err, out)
	}
}

// typeText types text literally.
func (tm *term) typeText(text string) {
	tm.t.Helper()
	if out, err := tm.tmux("send-keys", "-t", "play", "-l", text); err != nil {
		tm.t.Fatalf("send-keys -l %q: %v: %s", text, err, out)
	}
}

// waitFor polls the screen until ok holds, at most attempts times, and
// returns that screen; on failure it shows the last screen and more.
func (tm *term) waitFor(what string, attempts int, ok func(screen string) bool, more ...func() string) string {
	tm.t.Helper()
	var s string
	for range attempts {
		if s = tm.screen(); ok(s) {
			return s
		}
		time.Sleep(poll)
	}
	var extra []string
	for _, f := range more {
		extra = append(extra, f())
	}
	tm.t.Fatalf("%s: not on screen after %v; the screen:\n%s\n%s", what, time.Duration(attempts)*poll, s, strings.Join(extra, "\n"))
	return ""
}

func contains(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	}
}

// bottomLine is the last non-empty line: the interface's key hints.
func bottomLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return lines[len(lines)-1]
}

// inBox is the text inside a box's side borders, line by line, so a path
// the box wraps reads whole in flat (what the board shows beside the box
// would fall between its halves otherwise).
func inBox(screen string) string {
	var b strings.Builder
	for _, l := range strings.Split(screen, "\n") {
		if i, j := strings.Index(l, "│"), strings.LastIndex(l, "│"); i >= 0 && j > i {
			b.WriteString(l[i:j])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// flat is the screen's text without box drawing, line breaks or spaces,
// so that a long path wrapped in a box can be found whole.
func flat(screen string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '\n' || r == '│' || r == '─' || r == '┌' || r == '┐' || r == '└' || r == '┘':
			return -1
		}
		return r
	}, screen)
}

// quitAndCheck presses q and checks the program left with status 0 and
// gave the terminal back in its normal mode (line editing and echo on).
// quitAndCheck quits with q (confirming with y when a running game asks
// whether to leave it for good) and checks the terminal is restored.
func (tm *term) quitAndCheck() {
	tm.t.Helper()
	tm.keys(keyQuit)
	exited := contains("exit=", "modes-end")
	s := tm.waitFor("the exit status or the leave question after q", 100, func(s string) bool {
		return exited(s) || strings.Contains(s, "y leave for good")
	})
	if !exited(s) {
		tm.keys("y")
		s = tm.waitFor("the exit status after q, y", 100, exited)
	}
	if !strings.Contains(s, "exit=0") {
		tm.t.Fatalf("the program did not exit cleanly:\n%s", s)
	}
	modes := strings.Fields(s[strings.Index(s, "exit="):])
	for _, want := range []string{"icanon", "echo", "isig", "icrnl", "opost"} {
		found := false
		for _, f := range modes {
			if f == want {
				found = true
			}
		}
		if !found {
			tm.t.Errorf("terminal mode %q not restored after q (stty -a):\n%s", want, s)
		}
	}
}
