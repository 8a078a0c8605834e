package playe2e

import (
	"aeroplane/internal/netlab"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The steps a person takes in the LAN tests, written once: join the
// first game listed and start it, kill the program and start it again,
// read the end screen, verify the saved logs.

// joinFirstAndStart joins the first game the lobby lists (waiting for it
// to show want), says ready, and waits for the game to begin.
func (tm *term) joinFirstAndStart(want string, more func() string) {
	tm.t.Helper()
	tm.waitFor("the game in the lobby", 400, contains(want), more)
	tm.keys(keyJoin1)
	tm.waitFor("seated, not ready", 400, contains("you — not ready"), more)
	tm.keys(keyReady)
	tm.waitFor("the game", 400, contains("The game begins."), more)
}

// program is how a person's program is started: in which namespace,
// with which home and arguments.
type program struct {
	wrap func(name string, args ...string) *exec.Cmd
	home string
	argv []string
}

func (p program) start(t *testing.T) *term {
	t.Helper()
	return startTerm(t, p.wrap, playerEnv(p.home), p.argv...)
}

// killAndResume kills the program in tm with SIGKILL (a crash), starts
// it again as p and waits until it says it resumes the game whose name
// begins with lobby.
func (tm *term) killAndResume(p program, lobby string, more func() string) *term {
	tm.t.Helper()
	tm.kill9()
	tm.waitFor("the program gone", 100, contains("exit=137"), more)
	tm2 := p.start(tm.t)
	tm2.waitFor("the game resumed", 400, contains(`Resuming your game "`+lobby), more)
	return tm2
}

// finishOrder is the finishing order an end screen shows, as colour
// letters (RBYG), first first.
func finishOrder(end string) string {
	var order string
	for _, m := range rankLine.FindAllStringSubmatch(end, -1) {
		order += letters[m[2]]
	}
	return order
}

var historyLine = regexp.MustCompile(`history ([0-9a-f]{64})`)

// savedGame is one of a person's game logs as `aeroplane verify` read it.
type savedGame struct {
	path, hash string
	over       bool   // a finished game (else whole but unfinished)
	order      string // its finishing order (RBYG), when over
}

// verifiedLogs runs `aeroplane verify` on every game log in the person's
// default data directory (home) and returns them by history hash; a log
// that does not verify, finished or whole up to where it stops, fails
// the test.
func (tm *term) verifiedLogs(home string) map[string]savedGame {
	tm.t.Helper()
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	byHash := map[string]savedGame{}
	for _, l := range logs {
		b, err := exec.Command(binary(), "verify", l).CombinedOutput()
		out := string(b)
		m := historyLine.FindStringSubmatch(out)
		over := strings.Contains(out, "ok: every signature")
		if err != nil || m == nil || !over && !strings.Contains(out, "unfinished: the log is whole and checks out") {
			tm.t.Fatalf("verify %s: %v\n%s", l, err, out)
		}
		g := savedGame{path: l, hash: m[1], over: over}
		if over {
			g.order = finishOrder(out)
		}
		byHash[m[1]] = g
	}
	return byHash
}

// closedMarker waits for the one .closed marker of the person's games
// and returns what it says (over, left on purpose, …).
func (tm *term) closedMarker(home string) string {
	tm.t.Helper()
	var closed []string
	for i := 0; i < 200 && len(closed) == 0; i++ {
		closed, _ = filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.closed"))
		time.Sleep(poll)
	}
	if len(closed) != 1 {
		tm.t.Fatalf("closed markers: %q, want one", closed)
	}
	b, _ := os.ReadFile(closed[0])
	return strings.TrimSpace(string(b))
}

// turns plays a person's game by key, one look at the screen a step:
// roll when the key line offers it, choose the first move when asked,
// pressing only on a screen that changed since the last press.
type turns struct {
	tm    *term
	last  string
	rolls int
}

// step looks once and presses what the screen asks for; it returns the
// screen and whether it is the end screen.
func (p *turns) step() (string, bool) {
	s := p.tm.screen()
	switch {
	case strings.Contains(s, "Game over") && strings.Contains(s, "Game log saved to"):
		return s, true
	case s != p.last && strings.Contains(bottomLine(s), "space roll"):
		p.tm.keys(keyRoll)
		p.rolls++
		p.last = s
	case s != p.last && chooseHint.MatchString(bottomLine(s)):
		p.tm.keys("1")
		p.last = s
	default:
		time.Sleep(poll)
	}
	return s, false
}

// untilPauseAsked plays the person's turns by key until the screen says
// another player asks to pause; a game that ends first, or no request
// within steps looks, fails the test.
func (p *turns) untilPauseAsked(t *testing.T, steps int, more func() string) {
	t.Helper()
	for i := 0; ; i++ {
		if i >= steps {
			t.Fatalf("no pause request after %d rolls:\n%s\n%s", p.rolls, p.tm.screen(), more())
		}
		s, over := p.step()
		if over {
			t.Fatalf("the game ended without a pause request:\n%s\n%s", s, more())
		}
		if strings.Contains(s, "asks to pause — press p to pause too") {
			return
		}
	}
}

// takeSeatByKey answers the lobby's take-a-seat prompt (already open)
// with the running game's number and Enter, waits for alice in the list
// of players, and returns the colour and roll from which host said she
// flies the seat.
func (tm *term) takeSeatByKey(t *testing.T, number string, host *headless, more func() string) (colour, roll string) {
	t.Helper()
	tm.waitFor("the take-a-seat prompt", 100, contains("Take a seat in game number"), more)
	tm.typeText(number)
	tm.keys("Enter")
	tm.waitFor("alice in the list of players", 1200, func(s string) bool { return regexp.MustCompile(`[RBYG] alice\b`).MatchString(s) }, more)
	takes := regexp.MustCompile(`notice alice takes (Red|Blue|Yellow|Green) from roll (\d+)\.`)
	for i := 0; i < 100; i++ {
		if m := takes.FindStringSubmatch(host.stderr.String()); m != nil {
			return m[1], m[2]
		}
		time.Sleep(poll)
	}
	t.Fatalf("p0 was not told alice takes a seat:\n%s", more())
	return "", ""
}

// stoppedAfterPause waits (a minute at most) for the headless peer to
// exit once its game is paused, as --pause-at makes it; an exit with an
// error fails the test. Its exit stays readable for later waits.
func (h *headless) stoppedAfterPause(t *testing.T) {
	t.Helper()
	select {
	case err := <-h.done:
		h.done <- err
		if err != nil {
			t.Fatalf("%s: %v\n%s", h.name, err, tail(h.stderr.String(), 20))
		}
	case <-time.After(time.Minute):
		t.Fatalf("%s still running after the pause:\n%s", h.name, tail(h.stderr.String(), 20))
	}
}

// hostAndGuest starts two headless peers of lobby on the LAN's machines 0
// and 1 (greedy bots thinking think): 0 opens the table for players
// people and bots bots, 1 joins it, and the host's log then shows then.
// extra goes to both. peers is their logs' tails, for a failure's message.
func hostAndGuest(t *testing.T, lan *netlab.LAN, lobby string, players, bots int, think, then string, extra ...string) (host, guest *headless, peers func() string) {
	t.Helper()
	return hostAndGuestIn(t, lan, [2]string{t.TempDir(), t.TempDir()}, lobby, players, bots, think, then, extra...)
}

// hostAndGuestIn is hostAndGuest with the peers' identities and data in
// dirs, so that a restart there (--continue) is the same two players.
func hostAndGuestIn(t *testing.T, lan *netlab.LAN, dirs [2]string, lobby string, players, bots int, think, then string, extra ...string) (host, guest *headless, peers func() string) {
	t.Helper()
	both := func(args ...string) []string {
		return append(append([]string{"--bot", "greedy", "--lobby", lobby, "--think", think}, args...), extra...)
	}
	host = startHeadlessIn(t, lan, 0, dirs[0], both("--players", fmt.Sprint(players), "--bots", fmt.Sprint(bots), "--find-for", "200ms")...)
	host.waitLog(t, fmt.Sprintf("lobby %q players=p0 free=%d", lobby, players-1), 300)
	// The guest only joins: it looks for the host far longer than it takes.
	guest = startHeadlessIn(t, lan, 1, dirs[1], both("--find-for", "1m")...)
	host.waitLog(t, then, 300)
	peers = func() string {
		return "p0:\n" + tail(host.stderr.String(), 15) + "\np1:\n" + tail(guest.stderr.String(), 15)
	}
	return host, guest, peers
}

// aliceAt starts the interactive program for alice, in English with no
// bot delay, on the LAN's machine i with a fresh home; home is where her
// data and logs go.
func aliceAt(t *testing.T, lan *netlab.LAN, i int) (tm *term, home string) {
	t.Helper()
	home = t.TempDir()
	on := func(name string, args ...string) *exec.Cmd { return lan.Command(i, name, args...) }
	return startTerm(t, on, playerEnv(home), binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"), home
}

// pauseHereAndQuit pauses the game on tm's screen for everyone at it (p,
// y), waits for the paused game back in the lobby and quits; it returns
// the roll the screen says the game paused at.
func pauseHereAndQuit(tm *term) string {
	tm.keys("p")
	tm.waitFor("the pause question", 400, contains("Pause the game?"))
	tm.keys("y")
	screen := tm.waitFor("the paused game, back in the lobby", 600, contains("the game is paused at roll", "continue it from the lobby"))
	roll := regexp.MustCompile(`paused at roll (\d+)`).FindStringSubmatch(screen)[1]
	tm.quitAndCheck()
	return roll
}

// verifyTheOneLog checks that home holds one game log and that verify
// passes it with the finishing order of the end screen end; it returns
// verify's output.
func verifyTheOneLog(t *testing.T, home, end string) string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games: %q, want one", logs)
	}
	colour := map[rune]string{'R': "Red", 'B': "Blue", 'Y': "Yellow", 'G': "Green"}
	var order []string
	for i, c := range finishOrder(end) {
		order = append(order, fmt.Sprintf("%d. %s", i+1, colour[c]))
	}
	want := "finishing order: " + strings.Join(order, ", ")
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), want) {
		t.Fatalf("verify of the continued log: %v, want ok and %q:\n%s", err, want, out)
	}
	return string(out)
}
