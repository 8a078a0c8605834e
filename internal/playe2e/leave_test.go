package playe2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// diagLog is the end of a person's diagnostics log (the rotating file in
// its state directory), for a failure's account.
func diagLog(home string) string {
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "*.log"))
	var out []string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		out = append(out, l+":\n"+tail(string(b), 30))
	}
	return strings.Join(out, "\n")
}

// leftInList is the player list's line for bob once he left.
var leftInList = regexp.MustCompile(`B bob \S+ left \(a bot flies\)`)

// twoAtATable starts two people's programs on a LAN of two namespaces:
// alice creates a game, gives Yellow and Green to bots, bob joins it
// from his lobby (at Blue) and says ready, alice starts it, and both
// screens show the game.
func twoAtATable(t *testing.T) (alice, bob program, ta, tb *term) {
	t.Helper()
	lan := netlab.NewLAN(t, 2)
	person := func(i int, name string) program {
		return program{home: t.TempDir(), argv: []string{binary(), "--name", name, "--lang", "en", "--bot-delay", "0"},
			wrap: func(n string, args ...string) *exec.Cmd { return lan.Command(i, n, args...) }}
	}
	alice, bob = person(0, "alice"), person(1, "bob")
	ta, tb = alice.start(t), bob.start(t)
	other := func(tm *term) func() string { return func() string { return "the other screen:\n" + tm.screen() } }
	ta.waitFor("alice's lobby", 200, contains("c create game"), other(tb))
	ta.keys(keyCreate)
	ta.waitFor("the new game's table", 100, contains("R alice", "open seat", "b bot / open seat"))
	ta.keys(keySeat, keySeat, keyBot, keySeat, keyBot) // Yellow, Green
	ta.waitFor("two bot seats", 100, func(s string) bool { return strings.Count(s, "bot (") == 2 })
	tb.waitFor("alice's game in bob's lobby", 400, contains("1) alice's game"), other(ta))
	tb.keys(keyJoin1)
	tb.waitFor("bob seated, not ready", 400, contains("B bob", "you — not ready"), other(ta))
	tb.keys(keyReady)
	ta.waitFor("bob at alice's table", 400, contains("B bob"), other(tb))
	for i := 0; ; i++ {
		if i >= 400 {
			t.Fatalf("the game never began:\n%s\n%s", ta.screen(), tb.screen())
		}
		sa, sb := ta.screen(), tb.screen()
		if strings.Contains(sa, "The game begins.") && strings.Contains(sb, "The game begins.") {
			return alice, bob, ta, tb
		}
		// Every change of the table clears the ready: each says it
		// again whenever the table says it is not.
		if strings.Contains(sa, "you — not ready") && strings.Contains(sa, "B bob") {
			ta.keys(keyStart)
		}
		if strings.Contains(sb, "you — not ready") {
			tb.keys(keyReady)
		}
		time.Sleep(4 * poll)
	}
}

// playBoth plays both games by key until bob has rolled rolls times.
func playBoth(t *testing.T, pa, pb *turns, rolls int) {
	t.Helper()
	for i := 0; pb.rolls < rolls; i++ {
		if i >= 4000 {
			t.Fatalf("bob rolled %d times of %d:\n%s\n%s", pb.rolls, rolls, pa.tm.screen(), pb.tm.screen())
		}
		if _, over := pa.step(); over {
			t.Fatal("the game ended before bob had played")
		}
		pb.step()
	}
}

// Two people at a table with two bots, both at a terminal: bob presses q
// mid-game and confirms: his program says it is leaving and exits, his
// game is marked left; alice's screen says by name that a bot flies
// Blue, the game goes on to its end without asking her anything, and
// both logs verify (hers finished, in the order her end screen shows;
// his whole up to where he left).
func TestPlayLANLeaveTwoPeople(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	alice, bob, ta, tb := twoAtATable(t)
	pa, pb := &turns{tm: ta}, &turns{tm: tb}
	playBoth(t, pa, pb, 4)
	tb.keys(keyQuit)
	tb.waitFor("the leave question", 100, contains("Leave the game?", "y leave for good"))
	tb.keys("y")
	tb.waitFor("bob's program gone", 200, contains("exit=0"))
	if why := tb.closedMarker(bob.home); why != "left on purpose" {
		t.Errorf("bob's game is marked %q, want left on purpose", why)
	}
	// The leave counts from bob's next roll, so alice plays on until her
	// player list says it; then she presses nothing, the game soon waits
	// for her key, and the events keep the line that names it in sight.
	more := func() string { return "bob's log:\n" + diagLog(bob.home) + "\nalice's log:\n" + diagLog(alice.home) }
	named := false
	for i := 0; ; i++ {
		if i >= 2000 {
			t.Fatalf("alice's player list never said bob left:\n%s\n%s", ta.screen(), more())
		}
		s, over := pa.step()
		named = named || strings.Contains(s, "bob left — a bot flies Blue")
		if over {
			t.Fatalf("the game ended before alice's screen said bob left:\n%s", s)
		}
		if leftInList.MatchString(s) {
			break
		}
	}
	if !named {
		ta.waitFor("the event that names bob's leave", 100, contains("bob left — a bot flies Blue"), more)
	}
	asked, end := false, ""
	for i := 0; end == ""; i++ {
		if i >= 4000 {
			t.Fatalf("alice's game did not end:\n%s", ta.screen())
		}
		s, over := pa.step()
		asked = asked || strings.Contains(s, "Alone at the table")
		if over {
			end = s
		}
	}
	if asked {
		t.Error("alice was asked the lone player's question after a leave")
	}
	games := ta.verifiedLogs(alice.home)
	if len(games) != 1 {
		t.Fatalf("alice's games: %v, want one", games)
	}
	for _, g := range games {
		if !g.over || g.order != finishOrder(end) || len(g.order) != 4 {
			t.Errorf("alice's log: over %v, order %q; her end screen %q", g.over, g.order, finishOrder(end))
		}
	}
	if games := tb.verifiedLogs(bob.home); len(games) != 1 {
		t.Errorf("bob's games: %v, want one that verifies", games)
	}
	ta.quitAndCheck()
	t.Logf("bob left after %d rolls; alice finished %s", pb.rolls, finishOrder(end))
}

// Two people at a table with two bots; bob's program is killed for good
// (kill -9) mid-game: alice's screen asks the lone player's question, she
// presses g (go on with bots), and the game goes on to its end; her log
// verifies, finished, in the order her screen shows.
func TestPlayLANAloneGoOn(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	alice, _, ta, tb := twoAtATable(t)
	pa, pb := &turns{tm: ta}, &turns{tm: tb}
	playBoth(t, pa, pb, 4)
	tb.kill9()
	tb.waitFor("bob's program gone", 100, contains("exit=137"))
	t0 := time.Now()
	var asked time.Duration
	end := ""
	for i := 0; end == ""; i++ {
		if i >= 4000 {
			t.Fatalf("alice's game did not end:\n%s", ta.screen())
		}
		s, over := pa.step()
		if asked == 0 && strings.Contains(s, "Alone at the table") && strings.Contains(s, "g go on with bots") {
			asked = time.Since(t0)
			ta.keys("g")
		}
		if over {
			end = s
		}
	}
	if asked == 0 {
		t.Fatal("alice was never asked the lone player's question")
	}
	for _, g := range ta.verifiedLogs(alice.home) {
		if !g.over || g.order != finishOrder(end) || len(g.order) != 4 {
			t.Errorf("alice's log: over %v, order %q; her end screen %q", g.over, g.order, finishOrder(end))
		}
	}
	ta.quitAndCheck()
	t.Logf("bob killed after %d rolls; alice asked %v later; finished %s", pb.rolls, asked.Round(time.Millisecond), finishOrder(end))
}

// Two people at a table with two bots, both at a terminal; bob's program
// is killed (kill -9) mid-game and started again: it takes his seat back
// by itself (alice keeps waiting if she is asked meanwhile); both play to
// the end, and both logs verify to one history, in the order both end
// screens show. Alice's screen says he is back and catching up, even when
// his restart is faster than the transport's heartbeat and no connection
// went down: his program's status frames say it was restored
// (lockstep.EventPeerRestored, ui.CatchingUp).
func TestPlayLANResumeTwoPeople(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	alice, bob, ta, tb := twoAtATable(t)
	pa, pb := &turns{tm: ta}, &turns{tm: tb}
	playBoth(t, pa, pb, 4)
	more := func() string { return "bob's log:\n" + diagLog(bob.home) + "\nalice's log:\n" + diagLog(alice.home) }
	tb = tb.killAndResume(bob, `alice `, more)
	pb = &turns{tm: tb}
	sawCatchUp := false
	var ends [2]string
	for i := 0; ends[0] == "" || ends[1] == ""; i++ {
		if i >= 4000 {
			t.Fatalf("the game did not end:\n%s\n%s\n%s", ta.screen(), tb.screen(), more())
		}
		if ends[0] == "" {
			s, over := pa.step()
			sawCatchUp = sawCatchUp || strings.Contains(s, "bob is back on the network and catching up") ||
				catchingUpInList.MatchString(s)
			if strings.Contains(s, "Alone at the table") && strings.Contains(s, "w/esc") {
				ta.keys("w") // keep waiting: bob is on his way back
			}
			if over {
				ends[0] = s
			}
		}
		if ends[1] == "" {
			if s, over := pb.step(); over {
				ends[1] = s
			}
		}
	}
	ga, gb := ta.verifiedLogs(alice.home), tb.verifiedLogs(bob.home)
	if len(ga) != 1 || len(gb) != 1 {
		t.Fatalf("alice's games %v, bob's %v: want one each", ga, gb)
	}
	for h, a := range ga {
		b, ok := gb[h]
		if !ok || !a.over || !b.over || a.order != finishOrder(ends[0]) || b.order != finishOrder(ends[1]) {
			t.Errorf("alice's log %+v, bob's %v; end screens %q %q: want one finished history", a, gb, finishOrder(ends[0]), finishOrder(ends[1]))
		}
	}
	if !sawCatchUp {
		t.Errorf("alice's screen never said bob was back and catching up:\n%s", more())
	}
	ta.quitAndCheck()
	tb.quitAndCheck()
	t.Logf("bob killed after 4 rolls and resumed; both finished %s", finishOrder(ends[0]))
}

// catchingUpInList is the player list's line for bob while he catches up.
var catchingUpInList = regexp.MustCompile(`B bob \S+ resuming: catching up`)
