package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// takePauseAt is the roll at which every program of
// TestTakenSeatContinuesAnotherDay asks to pause: after the newcomer,
// started once the game moves, is seated (at roll 57 to 120 in the six runs
// measured: early on the bots play ≈100 rolls a second), and before a
// game of four random bots ends (187 rolls at the fewest, 203 for the
// shortest 0.1%, in 3,000 games of the engine alone).
const takePauseAt = 175

// A seat taken as a newcomer is continued another day: three headless
// players and a bot seat play; once the game moves a fourth program
// takes the bot's seat (--take-seat); at roll 175 all four pause together
// and exit, every log paused at one roll and naming both owners of the
// seat (the bot from roll 0, the newcomer from its roll); every file is
// dated two days back, past the automatic resume's hour; started again
// with --continue, the newcomer takes its seat up from its own
// game-take-….log (its key and secret), the players expect it as a
// member of the game, and the four end on one hash, every log verifying
// as over with the two owners of the seat, `aeroplane verify` naming the
// newcomer its owner from its roll.
func TestTakenSeatContinuesAnotherDay(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	pause := []string{"--pause-at", strconv.Itoa(takePauseAt)}
	ps := startGameWith(t, lan, 3, "thursday", map[int][]string{0: pause, 1: pause, 2: pause}, "--bots", "1", "--think", "20ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=[1-9][0-9]* `), 3*time.Minute)
	nc := newPeer(t, lan, 3, append([]string{"--bot", "random", "--take-seat", "thursday"}, pause...)...)
	nc.start()
	id := shortID(nc.id())
	m := nc.mustLog(regexp.MustCompile(`event seat-taken peer=`+regexp.QuoteMeta(id)+` colour=(\S+) from-roll=(\d+)`), 2*time.Minute)
	colour, from := m[1], m[2]
	if f, _ := strconv.Atoi(from); f < 1 || f >= takePauseAt {
		t.Fatalf("the newcomer flies %s from roll %s, want a roll of the game before %d (the pause)", colour, from, takePauseAt)
	}
	all := append(slices.Clone(ps), nc)
	// owners says whether a log names the bot, then the newcomer from its
	// roll, as the seat's owners, and nobody else after.
	owners := func(v *lockstep.Verification) bool {
		var got []string
		for _, o := range v.Seats {
			if o.Colour.String() == colour {
				got = append(got, fmt.Sprintf("%v %s %d", o.Bot, shortID(o.Player.String()), o.From))
			}
		}
		return slices.Equal(got, []string{"true  0", "false " + id + " " + from})
	}
	roll := ""
	for _, p := range all {
		if err := p.wait(2 * time.Minute); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
		pm := pausedLine.FindStringSubmatch(p.stdout.String())
		if pm == nil {
			t.Fatalf("peer %d printed no paused line; stdout %q\n%s", p.i, p.stdout.String(), p.report())
		}
		if roll == "" {
			roll = pm[1]
		} else if pm[1] != roll {
			t.Fatalf("peer %d paused at roll %s, peer %d at %s", p.i, pm[1], all[0].i, roll)
		}
		v, err := verifyFile(t, pm[2])
		if err != nil || !v.Paused || fmt.Sprint(v.PausedAt) != roll || !owners(v) {
			t.Fatalf("peer %d's paused log %s: %v (paused %v at %d, seats %v)", p.i, pm[2], err, v != nil && v.Paused, v.PausedAt, v.Seats)
		}
		if p == nc && !strings.Contains(pm[2], "game-take-") {
			t.Fatalf("the newcomer paused with the log %s, not its taken seat's", pm[2])
		}
		p.args = slices.DeleteFunc(slices.Clone(p.args), func(a string) bool { return a == pause[0] || a == pause[1] })
	}
	continueAnotherDay(t, all)
	nc.mustLog(regexp.MustCompile(`game \S+ continuing in the seat `+colour+` taken, from \S+game-take-`), time.Second)
	r := finishEqual(t, all, 4, 3*time.Minute)
	if strings.Contains(nc.stderr.String(), "Asking for the") {
		t.Errorf("the continued newcomer asked for a seat again instead of taking up its own")
	}
	for _, p := range all {
		got, err := p.result()
		if err != nil {
			t.Fatal(err)
		}
		v, err := verifyFile(t, got.log)
		if err != nil || v.Phase != lockstep.PhaseOver || !owners(v) || len(v.Cheats) > 0 {
			t.Fatalf("peer %d's continued log %s: %v (over %v, seats %v, cheats %v)", p.i, got.log, err, v != nil && v.Phase == lockstep.PhaseOver, v.Seats, v.Cheats)
		}
		if p == nc {
			out, err := exec.Command(os.Getenv(binEnv), "verify", got.log).CombinedOutput()
			if err != nil || !strings.Contains(string(out), fmt.Sprintf("seat %s: flown by p3 (…", colour)) || !strings.Contains(string(out), " from roll "+from+"\n") {
				t.Errorf("aeroplane verify of the newcomer's log: %v, want p3 flying %s from roll %s:\n%s", err, colour, from, out)
			}
		}
	}
	t.Logf("p3 took %s from roll %s, all four paused at roll %s and continued two days later to one history: %s %s", colour, from, roll, r.order, r.hash[:16])
}
