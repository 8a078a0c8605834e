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

var pausedOut = regexp.MustCompile(`(?m)^paused ([0-9]+) log=\S+$`)

// continueWaitLine is a headless peer's notice that the continued game
// waits for alice; absentEvent a player voted absent.
var (
	continueWaitLine = regexp.MustCompile(`notice Waiting for [^\n]*alice[^\n]* to continue the game too`)
	absentEvent      = regexp.MustCompile(`event absent [^\n]*`)
	// runningAndSaved: the lobby lists the peers' running game and then
	// the saved one to continue, numbered after it.
	runningAndSaved = regexp.MustCompile(`(?s)Running games.*\d\) p0, p1, alice — roll.*Saved games to continue.*\d\) continue: `)
)

// A person plays with two headless peers that ask to pause at roll 12
// (--pause-at): the person's screen says "p0 asks to pause — press p to
// pause too"; p asks "Pause the game?", y pauses; the game stops for
// everyone at one roll: the screen says it is paused and is back in the
// lobby, both peers print their paused line at that roll and exit, and
// aeroplane verify says the person's log is unfinished, paused there.
// Then the peers start again with --continue: they keep the game paused,
// saying they wait for alice; the person's lobby lists "continue: …"
// under the saved games, its number takes the game up, and all three
// finish it with one history, nobody voted absent, the person's log
// verifying to the peers' hash.
func TestPlayLANPauseTogether(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	dirs := []string{t.TempDir(), t.TempDir()}
	both := []string{"--bot", "greedy", "--lobby", "party", "--think", "0"}
	host := startHeadlessIn(t, lan, 0, dirs[0], append(both, "--players", "3", "--bots", "1", "--find-for", "200ms", "--pause-at", "12")...)
	host.waitLog(t, `lobby "party" players=p0 free=2`, 300)
	guest := startHeadlessIn(t, lan, 1, dirs[1], append(both, "--find-for", "1m", "--pause-at", "12")...)
	host.waitLog(t, "players=p0,p1 free=1", 300)
	peers := func() string {
		return "p0:\n" + tail(host.stderr.String(), 15) + "\np1:\n" + tail(guest.stderr.String(), 15)
	}
	alice := program{home: t.TempDir(), argv: []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"},
		wrap: func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }}
	tm := alice.start(t)
	tm.joinFirstAndStart("1) p0's game", peers)
	p := &turns{tm: tm}
	p.untilPauseAsked(t, 4000, peers)
	tm.keys("p")
	tm.waitFor("the pause question", 400, contains("Pause the game?", "The others are asked too"), peers)
	tm.keys("y")
	screen := tm.waitFor("the paused game, back in the lobby", 1200, contains("the game is paused at roll", "continue it from the lobby"), peers)
	roll := regexp.MustCompile(`paused at roll (\d+)`).FindStringSubmatch(screen)
	for _, h := range []*headless{host, guest} {
		h.stoppedAfterPause(t)
		m := pausedOut.FindStringSubmatch(h.stdout.String())
		if m == nil || roll == nil || m[1] != roll[1] {
			t.Fatalf("%s printed %q; the screen: paused at %v", h.name, h.stdout.String(), roll)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(alice.home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games: %q, want one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unfinished, paused at roll "+roll[1]) {
		t.Fatalf("verify of the player's log: %v, want paused at roll %s:\n%s", err, roll[1], out)
	}

	// Another day: the peers continue; the person takes it up from the
	// lobby's list of saved games.
	host = startHeadlessIn(t, lan, 0, dirs[0], append(both, "--continue")...)
	guest = startHeadlessIn(t, lan, 1, dirs[1], append(both, "--continue")...)
	// Its number follows the running games listed: the peers', which
	// they hold paused for alice, is listed too once her lobby asked
	// them (its line can come a second after the saved game's, and a
	// number read before it would watch their game instead); read the
	// number off a screen with both.
	lobbyScreen := tm.waitFor("the game to continue in the lobby", 600,
		func(s string) bool { return runningAndSaved.MatchString(s) }, peers)
	tm.keys(regexp.MustCompile(`(\d)\) continue: `).FindStringSubmatch(lobbyScreen)[1])
	end, _ := playUntil(tm, 0, peers)
	hostOrder, hash := host.result(t, 2*time.Minute)
	guestOrder, guestHash := guest.result(t, 2*time.Minute)
	// The peers kept their pauses until alice took the game up too:
	// they said whom they waited for, and nobody was voted absent (a
	// continue that went on without her replaced her with a bot).
	for _, h := range []*headless{host, guest} {
		if !continueWaitLine.MatchString(h.stderr.String()) {
			t.Errorf("%s never said it waited for alice:\n%s", h.name, tail(h.stderr.String(), 20))
		}
		if m := absentEvent.FindString(h.stderr.String()); m != "" {
			t.Errorf("%s voted a player absent in the continued game: %q\n%s", h.name, m, tail(h.stderr.String(), 20))
		}
	}
	if hostOrder != guestOrder || hash != guestHash || finishOrder(end) != hostOrder {
		t.Fatalf("continued: p0 %s %s, p1 %s %s, the screen %s", hostOrder, hash, guestOrder, guestHash, finishOrder(end))
	}
	out, err = exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "history "+hash) {
		t.Fatalf("verify of the continued log: %v, want ok and history %s:\n%s", err, hash, out)
	}
	tm.quitAndCheck()
	t.Logf("paused together at roll %s, continued to %s %s", roll[1], hostOrder, hash[:16])
}

// A person alone on the LAN with three bots pauses the game (p, y): it
// stops at once, since nobody else is asked, and the screen is back in
// the lobby. The program is quit and started again (another day): the
// lobby offers the game under "Saved games to continue" with nobody else
// on the LAN, its number takes it up, and it is played to the end, the
// log verifying as one whole game.
func TestPlayLANAlonePauseAndContinue(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 1)
	home := t.TempDir()
	inPeer0 := func(name string, args ...string) *exec.Cmd { return lan.Command(0, name, args...) }
	argv := []string{binary(), "--name", "solo", "--lang", "en", "--bot-delay", "0"}
	nothing := func() string { return "" }
	tm := startTerm(t, inPeer0, playerEnv(home), argv...)
	tm.waitFor("the LAN lobby", 200, contains("c create game"))
	tm.keys(keyCreate)
	tm.waitFor("the new game's table", 100, contains("R solo", "b bot / open seat"))
	for range 3 {
		tm.keys(keySeat, keyBot)
	}
	tm.waitFor("three bot seats", 100, func(s string) bool { return strings.Count(s, "bot (") == 3 && openSeat.FindString(s) == "" })
	tm.keys(keyStart)
	tm.waitFor("the game", 200, contains("The game begins."))
	playUntil(tm, 6, nothing)
	roll := pauseHereAndQuit(tm)

	tm = startTerm(t, inPeer0, playerEnv(home), argv...)
	lobbyScreen := tm.waitFor("the game to continue in the lobby", 300, contains("Saved games to continue", ") continue: solo"))
	tm.keys(regexp.MustCompile(`(\d)\) continue: `).FindStringSubmatch(lobbyScreen)[1])
	end, _ := playUntil(tm, 0, nothing)
	verifyTheOneLog(t, home, end)
	tm.quitAndCheck()
	t.Logf("paused alone at roll %s, continued another run to %s", roll, finishOrder(end))
}
