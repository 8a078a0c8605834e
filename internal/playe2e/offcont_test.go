package playe2e

import (
	"os/exec"
	"regexp"
	"testing"

	"aeroplane/internal/netlab"
)

// `aeroplane --offline --names ann,bob` in a terminal, + at the table
// seating cat: three people at one laptop play some rolls against a bot,
// then p and y pause the game for all three at once (nobody else is
// asked) and the screen is back in the lobby. The program is quit and
// started again: its lobby offers "continue: ann, bob, cat — roll N",
// the entry's number takes the game up with the same seats, and it is
// played to the end, the one log verifying as one whole game of three
// people's keys.
func TestPlayOfflineHotSeatPauseAndContinue(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	home := t.TempDir()
	argv := []string{binary(), "--offline", "--names", "ann,bob", "--lang", "en", "--bot-delay", "0"}
	nothing := func() string { return "" }
	tm := startTerm(t, exec.Command, playerEnv(home), argv...)
	tm.waitFor("the offline lobby", 100, contains("Aeroplane Chess — lobby", "Your name: ann"))
	tm.keys(keyCreate)
	tm.waitFor("the table with ann and bob", 100, contains("R ann", "B bob", "+ add a person here"))
	tm.keys("+")
	tm.typeText("cat")
	tm.keys("Enter")
	tm.waitFor("cat at the table", 100, contains("R ann", "B bob", "Y cat", "G bot ("))
	tm.keys(keyStart)
	tm.waitFor("the board", 100, contains("The game begins."))
	playUntil(tm, 6, nothing)
	roll := pauseHereAndQuit(tm)

	tm = startTerm(t, exec.Command, playerEnv(home), argv...)
	lobbyScreen := tm.waitFor("the game to continue in the lobby", 300, contains("Saved games to continue", ") continue: ann, bob, cat — roll"))
	tm.keys(regexp.MustCompile(`(\d)\) continue: `).FindStringSubmatch(lobbyScreen)[1])
	end, _ := playUntil(tm, 0, nothing)
	out := verifyTheOneLog(t, home, end)
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`(Red|Blue|Yellow)=(?:ann|bob|cat) \((\S+)\)`).FindAllStringSubmatch(out, -1) {
		ids[m[2]] = true
	}
	if len(ids) != 3 {
		t.Fatalf("the continued log's players, want three distinct keys:\n%s", out)
	}
	tm.quitAndCheck()
	t.Logf("paused at roll %s with three people here, continued another run to %s", roll, finishOrder(end))
}
