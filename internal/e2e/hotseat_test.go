package e2e

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
)

// residual22 matches the evidence the 2-2 residual leaves in the logs.
// Each is a message signed on an undone branch read as if it were
// fresh: its state, its roll, or a move that no longer fits the
// position. The simulation's 2-2 splits log all five kinds (PROTOCOL.md's
// threat table); CI once saw the out-of-turn move in the kill -9 case.
var residual22 = regexp.MustCompile(`^(state-mismatch peer=\S+ roll=\d+: its (move leads to )?state hash|cheating peer=\S+ kind=(stale-message|bad-message|out-of-turn): (reveal for roll \d+ when roll \d+ is being collected|move for roll \d+ when roll \d+ is being collected|a reveal for roll \d+ without the move it owes|move \S+ for roll \d+ when it was not to move)|cheating peer=\S+ kind=illegal-move: )`)

// personLine is the line a headless program prints for each person it
// seats beside its own (--person): name, seat ID, the seat's own log.
var personLine = regexp.MustCompile(`person (\S+) seat=(\S+) log=(\S+)`)

// A program with two people at one table (aeroplane --headless --person
// Bea: its own seat and Bea's, each with its own key and dice) plays
// against two other programs, over real processes in three namespaces.
// Every program's game has four players, Bea under a seat ID of her own;
// all three print one hash; every log, Bea's own seat log included,
// passes aeroplane verify with that history. Killed with kill -9 in the
// middle of the game and started again, the program takes both its
// seats up from its logs: the others see Bea back, and the game ends on
// one hash all the same. In a run of two games (--games 2) Bea sits at
// the rematch's table too, and the second game ends on one hash as well.
func TestHotSeatOverLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	// "plays to the end" is the long form's (testkit.Long): the other two
	// rows play a whole game with Bea too, and verify every log to its hash.
	rows := []struct {
		name  string
		kill  bool
		games int
	}{{"plays to the end", false, 1}, {"kill -9 and back", true, 1}, {"two games in a row", false, 2}}
	for _, tc := range testkit.Rows(rows, func(i int) bool { return i == 0 }) {
		t.Run(tc.name, func(t *testing.T) { hotSeatOverLAN(t, tc.kill, tc.games) })
	}
}

func hotSeatOverLAN(t *testing.T, kill bool, games int) {
	lan := netlab.NewLAN(t, 3)
	think := "20ms"
	if kill {
		think = "150ms" // the game lasts ≈35 s after the kill (slowed while it is away), the return ≈2-5 s
	}
	ps := startGameWith(t, lan, 3, "hotlan", map[int][]string{1: {"--person", "Bea"}}, "--players", "4", "--think", think, "--games", strconv.Itoa(games))
	hot := ps[1]
	m := hot.mustLog(personLine, time.Minute)
	if m[1] != "Bea" || m[2] == hot.id() {
		t.Fatalf("the hot-seat program seats %q at %s (its own ID %s)", m[1], m[2], hot.id())
	}
	bea, beaLog := m[2], m[3]
	if kill {
		hot.mustLog(midGame, 2*time.Minute)
		hot.kill9()
		for _, p := range []*peer{ps[0], ps[2]} {
			for _, id := range []string{hot.id(), bea} {
				p.mustLog(absentLine(shortID(id)), 90*time.Second)
			}
		}
		// The others fly its seats with bots meanwhile; on a loaded
		// machine a slow restart once let them finish the game first
		// (exiting: nobody was left for it to come back to). Until both
		// have readmitted it they run at a fifth of their speed, as on
		// slow machines, never stopped as long as a heartbeat: the game
		// then outlasts any restart that is not a stall by minutes.
		slow := throttle(t, ps[0], ps[2])
		from := []int{len(ps[0].stderr.String()), len(ps[2].stderr.String())}
		hot.start()
		// Back in each other's game: readmitted (returned), or its
		// alone branch undone by the return (the 2-2 residual: rolled
		// back to before the absence, so no returned line), the game
		// then waiting for Bea's own input again. Before, the test
		// waited for p0's returned line, which a roll-back never logs.
		for k, p := range []*peer{ps[0], ps[2]} {
			if err := waitBack(p, from[k], shortID(bea), 2*time.Minute); err != nil {
				t.Fatalf("%v\n%s", err, p.report())
			}
		}
		slow()
	}
	r := finishEqual(t, ps, 4, 6*time.Minute)
	if games > 1 {
		// The last game's: Bea was seated at the rematch's table again.
		seats := personLine.FindAllStringSubmatch(hot.stderr.String(), -1)
		if len(seats) != games || seats[games-1][2] != bea {
			t.Fatalf("Bea's seats over %d games: %v", games, seats)
		}
		beaLog = seats[games-1][3]
	}
	logs, residuals := []string{beaLog}, 0
	for _, p := range ps {
		got, err := p.result()
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, got.log)
	}
	for i, path := range logs {
		out, err := exec.Command(os.Getenv(binEnv), "verify", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "ok: every signature") {
			t.Fatalf("log %d (%s) does not verify: %v\n%s", i, path, err, out)
		}
		v, err := verifyFile(t, path)
		if err != nil {
			t.Fatal(err)
		}
		// Bea's own log has no names file beside it: her seat shows by ID.
		named := strings.Contains(string(out), shortID(bea)) && strings.Contains(string(out), shortID(hot.id())) && (i == 0 || strings.Contains(string(out), "=Bea (…"))
		if len(v.Setup.Players()) != 4 || !named {
			t.Errorf("log %d: %d players, Bea's seat and her program's both named: %v\n%s", i, len(v.Setup.Players()), named, out)
		}
		if h := hex.EncodeToString(v.History[:]); h != r.hash {
			t.Errorf("log %d ends on %s, the programs printed %s", i, h, r.hash)
		}
		for _, c := range v.Cheats {
			// A kill -9 of a program of two seats takes half of the four
			// away: the others go on alone, and its return undoes their
			// branch, the 2-2 residual of PROTOCOL.md (undone reveals read
			// as state-mismatch, stale or owing a move; never applied).
			if !kill || !residual22.MatchString(c.String()) {
				t.Errorf("log %d: evidence %s", i, c)
			}
			residuals++
		}
		// The program whose log it is (logs[i] is ps[i-1]'s; logs[0] is
		// Bea's seat log, whose screen is her program's, checked by its
		// own log) told its person so once, as set aside, not as
		// cheating (session's splitResidue).
		if i > 0 && len(v.Cheats) > 0 {
			if p := ps[i-1]; !strings.Contains(p.stderr.String(), "were set aside (never applied).") {
				t.Errorf("log %d holds %d pieces of the 2-2 residual, and its program never said it set them aside:\n%s", i, len(v.Cheats), p.report())
			}
		}
	}
	t.Logf("one hash %s over %d logs (Bea's own included); killed and back: %v (the 2-2 residual's evidence: %d)", r.hash[:16], len(logs), kill, residuals)
}

// A program with two people pauses the game together with the two
// others (--pause-at 20 on all three: the program pauses for both its
// seats, as a pause needs every player's); all stopped, their files
// dated two days back, and started again with --continue, the hot-seat
// program takes up both its seats from its logs and the game ends on one
// hash, Bea's own log verifying to it.
func TestHotSeatPausesAndContinues(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	pause := []string{"--pause-at", "20"}
	ps := startGameWith(t, lan, 3, "hotpause", map[int][]string{0: pause, 1: append([]string{"--person", "Bea"}, pause...), 2: pause}, "--players", "4", "--think", "20ms")
	for _, p := range ps {
		if err := p.wait(3 * time.Minute); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
		m := pausedLine.FindStringSubmatch(p.stdout.String())
		if m == nil {
			t.Fatalf("peer %d printed no paused line; stdout %q\n%s", p.i, p.stdout.String(), p.report())
		}
		if v, err := verifyFile(t, m[2]); err != nil || !v.Paused {
			t.Fatalf("peer %d's paused log: %v", p.i, err)
		}
		p.args = slices.DeleteFunc(slices.Clone(p.args), func(a string) bool { return a == "--pause-at" || a == "20" })
	}
	continueAnotherDay(t, ps)
	m := ps[1].mustLog(personLine, 30*time.Second)
	r := finishEqual(t, ps, 4, 4*time.Minute)
	v, err := verifyFile(t, m[3])
	if err != nil || v.Phase != lockstep.PhaseOver || hex.EncodeToString(v.History[:]) != r.hash {
		t.Fatalf("Bea's own log after the continue: %v (phase %v), want over on %s", err, v != nil && v.Phase == lockstep.PhaseOver, r.hash)
	}
	t.Logf("paused together, continued two days later with both seats of the hot-seat program: %s %s", r.order, r.hash[:16])
}

// throttle slows the processes of ps to a fifth of their speed until the
// returned func is called (or the test ends): each is stopped (SIGSTOP)
// for 800 ms, then runs for 200 ms. A stop stays well under the
// transport's 4 s heartbeat deadline, so nobody is taken for gone.
func throttle(t *testing.T, ps ...*peer) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	signal := func(sig syscall.Signal) {
		for _, p := range ps {
			if !p.exited() {
				_ = p.cmd.Process.Signal(sig)
			}
		}
	}
	wg.Go(func() {
		defer signal(syscall.SIGCONT)
		for {
			signal(syscall.SIGSTOP)
			select {
			case <-done:
				return
			case <-time.After(800 * time.Millisecond):
			}
			signal(syscall.SIGCONT)
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	})
	var once sync.Once
	stop = func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
	t.Cleanup(stop)
	return stop
}

// waitBack waits until p's stderr past from shows the seat short back in
// play: a returned line for it, or a roll-back followed by the game
// waiting for its input (a seat a bot flies is never waited for).
func waitBack(p *peer, from int, short string, within time.Duration) error {
	returned := regexp.MustCompile(`event returned peer=` + regexp.QuoteMeta(short) + ` `)
	undone := regexp.MustCompile(`(?s)event rolled-back.*event waiting roll=\d+ for=\S*` + regexp.QuoteMeta(short))
	deadline := time.Now().Add(within)
	for {
		s := p.stderr.String()[from:]
		if returned.MatchString(s) || undone.MatchString(s) {
			return nil
		}
		if p.exited() || time.Now().After(deadline) {
			return fmt.Errorf("peer %d never had %s back (no returned line, nor a roll-back and a wait for its input) within %v (exited: %v)", p.i, short, within, p.exited())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
