package playe2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// takeContinuePauseAt is the roll at which the headless peers of
// TestPlayLANTakeSeatContinue ask to pause: after alice, whose lobby is
// open before their game starts, took her seat and rolled for it (she
// was seated from roll 35 to 47 in eight runs, the peers thinking 200 ms
// a move; at 60 ms, from roll 97 to 128), and before the game can end
// (138 rolls at the fewest in 5,000 games of the engine alone with two
// greedy seats, a random one and one playing its first move).
const takeContinuePauseAt = 120

// ownerLine is verify's line for a seat a newcomer took.
var ownerLine = regexp.MustCompile(`(?m)^seat \S+: flown by .+ from roll \d+$`)

// runningThenContinue: the lobby lists the peers' running game (held
// paused for alice) and then her saved game, numbered after it, and the
// names that entry gives.
var runningThenContinue = regexp.MustCompile(`(?s)Running games.*\d\) [^\n]*— roll.*Saved games to continue.*(\d)\) continue: ([^\n]*?) — roll (\d+)`)

// A seat taken as a newcomer is continued another day, as a person
// lives it: two headless peers play with two bots; alice's lobby lists
// their game under running games, j, its number and Enter take a bot's
// seat, and she rolls for it by key. At roll 120 the peers ask to pause
// (--pause-at);
// her screen asks her to pause too, p and y pause the game for all three
// at one roll, and every program stops. Two days later (every file dated
// back) the peers start again with --continue, keeping the game paused
// until alice is back too, and alice's program again: its lobby lists
// "continue: …" naming her with the peers (not the bot whose seat she
// took), its number takes the game up, and she flies her seat by key to
// the end, nobody voted absent. The three end on one history; her one
// saved log (game-take-…) and the peers' pass aeroplane verify with it,
// each naming her the seat's owner from the roll she took it, the only
// change of owner.
func TestPlayLANTakeSeatContinue(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	// Alice's lobby is open before the game starts, so that she takes
	// her seat early in it.
	alice := program{home: t.TempDir(), argv: []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"},
		wrap: func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }}
	tm := alice.start(t)
	tm.waitFor("the LAN lobby", 200, contains("c create game"))
	dirs := [2]string{t.TempDir(), t.TempDir()}
	pauseAt, think := strconv.Itoa(takeContinuePauseAt), "200ms"
	host, guest, peers := hostAndGuestIn(t, lan, dirs, "thursday", 2, 2, think, "game ", "--pause-at", pauseAt)

	running := regexp.MustCompile(`(\d)\) p[01], p[01] — roll \d+`)
	s := tm.waitFor("the running game in the lobby, a seat to take", 600, func(s string) bool {
		return running.MatchString(s) && strings.Contains(bottomLine(s), "j take a seat")
	}, peers)
	tm.keys("j")
	colour, from := tm.takeSeatByKey(t, running.FindStringSubmatch(s)[1], host, peers)
	if f, _ := strconv.Atoi(from); f >= takeContinuePauseAt {
		t.Fatalf("alice took %s from roll %s, not before the pause at %d", colour, from, takeContinuePauseAt)
	}

	// She rolls for her seat until the peers ask to pause, then pauses
	// too; everyone stops at one roll.
	p := &turns{tm: tm}
	p.untilPauseAsked(t, 8000, peers)
	if p.rolls == 0 {
		t.Fatalf("alice never rolled for the seat she took before the pause:\n%s", peers())
	}
	before := p.rolls
	roll := pauseHereAndQuit(tm)
	for _, h := range []*headless{host, guest} {
		h.stoppedAfterPause(t)
		if pm := pausedOut.FindStringSubmatch(h.stdout.String()); pm == nil || pm[1] != roll {
			t.Fatalf("%s printed %q; alice's screen: paused at roll %s", h.name, h.stdout.String(), roll)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(alice.home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 || !strings.Contains(filepath.Base(logs[0]), "game-take-") {
		t.Fatalf("alice's saved games: %q, want her taken seat's one", logs)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unfinished, paused at roll "+roll) {
		t.Fatalf("verify of alice's log: %v, want paused at roll %s:\n%s", err, roll, out)
	}
	// The lobby's entry names the roll the game was paused at, as her
	// screen and verify said.

	// Another day: every file is two days old; the peers continue, and
	// alice's lobby offers her seat to continue.
	datedBack(t, 48*time.Hour, alice.home, dirs[0], dirs[1])
	both := []string{"--bot", "greedy", "--lobby", "thursday", "--think", think, "--continue"}
	host = startHeadlessIn(t, lan, 0, dirs[0], both...)
	guest = startHeadlessIn(t, lan, 1, dirs[1], both...)
	peers = func() string {
		return "p0:\n" + tail(host.stderr.String(), 15) + "\np1:\n" + tail(guest.stderr.String(), 15)
	}
	tm = alice.start(t)
	lobby := tm.waitFor("the taken seat to continue in the lobby", 600,
		func(s string) bool { return runningThenContinue.MatchString(s) }, peers, func() string { return gamesDir(alice.home) })
	entry := runningThenContinue.FindStringSubmatch(lobby)
	names := slices.Sorted(slices.Values(strings.Split(entry[2], ", ")))
	if !slices.Equal(names, []string{"alice", "p0", "p1"}) || entry[3] != roll {
		t.Fatalf("the lobby offers %q, want alice with p0 and p1 at the roll paused at, %s:\n%s", entry[0], roll, lobby)
	}
	tm.keys(entry[1])
	end, after := playUntil(tm, 0, peers)
	if after == 0 {
		t.Errorf("alice never rolled in the continued game: her seat was not hers")
	}
	hostOrder, hash := host.result(t, 3*time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash || finishOrder(end) != hostOrder {
		t.Fatalf("continued: p0 %s %s, p1 %s %s, alice's screen %s", hostOrder, hash, guestOrder, guestHash, finishOrder(end))
	}
	for _, h := range []*headless{host, guest} {
		if !continueWaitLine.MatchString(h.stderr.String()) {
			t.Errorf("%s never said it waited for alice:\n%s", h.name, tail(h.stderr.String(), 20))
		}
		if a := absentEvent.FindString(h.stderr.String()); a != "" {
			t.Errorf("%s voted a player absent in the continued game: %q\n%s", h.name, a, tail(h.stderr.String(), 20))
		}
	}
	// One history in the three programs' logs, each naming alice the
	// seat's owner from her roll, its one change of owner.
	wantOwner := regexp.MustCompile(`seat ` + colour + `: flown by alice \(…\S+\) from roll ` + from + `\n`)
	oneOwner := func(who string, out string) {
		t.Helper()
		if !strings.Contains(out, "ok: every signature") || !strings.Contains(out, "history "+hash) ||
			len(ownerLine.FindAllString(out, -1)) != 1 || !wantOwner.MatchString(out) {
			t.Errorf("verify of %s's continued log: want over, history %s and one change of owner, alice flying %s from roll %s:\n%s", who, hash, colour, from, out)
		}
	}
	oneOwner("alice", verifyTheOneLog(t, alice.home, end))
	for _, h := range []*headless{host, guest} {
		log := resultLine.FindStringSubmatch(h.stdout.String())[2]
		out, err := exec.Command(binary(), "verify", log).CombinedOutput()
		if err != nil {
			t.Errorf("verify %s: %v", log, err)
		}
		oneOwner(h.name, string(out))
	}
	tm.quitAndCheck()
	t.Logf("alice took %s from roll %s, rolled %d times, paused at roll %s; two days later rolled %d times to %s %s",
		colour, from, before, roll, after, hostOrder, hash[:16])
}

// datedBack dates every file and directory under dirs by ago into the
// past, as if they were written that long ago.
func datedBack(t *testing.T, ago time.Duration, dirs ...string) {
	t.Helper()
	then := time.Now().Add(-ago)
	for _, d := range dirs {
		err := filepath.Walk(d, func(path string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(path, then, then)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// gamesDir lists the person's saved games and what each closed marker
// says, for a failure's account.
func gamesDir(home string) string {
	dir := filepath.Join(home, "state", "aeroplane", "games")
	files, _ := os.ReadDir(dir)
	var b strings.Builder
	b.WriteString(dir + ":\n")
	for _, f := range files {
		b.WriteString("  " + f.Name())
		if strings.HasSuffix(f.Name(), ".closed") {
			why, _ := os.ReadFile(filepath.Join(dir, f.Name()))
			b.WriteString(": " + strings.TrimSpace(string(why)))
		}
		b.WriteByte('\n')
	}
	return b.String() + diagLog(home)
}
