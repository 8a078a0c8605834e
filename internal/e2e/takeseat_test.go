package e2e

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// A late arrival takes a seat (aeroplane --headless --take-seat LOBBY):
// three headless players and a bot seat play; at roll 20 or later a
// fourth program comes, reads a player's log and checks it, is admitted
// to the game protocol, asks for the bot's seat, is seated by the
// players' votes, and flies it with its own bot to the end. All four end
// with one history; the newcomer's saved log passes aeroplane verify,
// which names it as the seat's owner from the roll every player's
// seat-taken event says; and the players were told who took which seat.
func TestTakeSeat(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 3, "late", "--bots", "1", "--think", "20ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=2[0-9] `), 3*time.Minute)
	nc := newPeer(t, lan, 3, "--bot", "random", "--take-seat", "late")
	nc.start()
	id := shortID(nc.id())
	taken := regexp.MustCompile(`event seat-taken peer=` + regexp.QuoteMeta(id) + ` colour=(\S+) from-roll=(\d+)`)
	m := nc.mustLog(taken, 3*time.Minute)
	colour := m[1]
	from, _ := strconv.Atoi(m[2])
	if from < 20 {
		t.Errorf("the newcomer flies %s from roll %d, want ≥ 20", colour, from)
	}
	r := finishEqual(t, append(ps, nc), 4, 6*time.Minute)
	for _, p := range ps {
		if got := p.mustLog(taken, time.Second); got[1] != colour || got[2] != m[2] {
			t.Errorf("peer %d: seat-taken %s from roll %s; the newcomer's: %s from %s", p.i, got[1], got[2], colour, m[2])
		}
		p.mustLog(regexp.MustCompile(`notice p3 takes `+colour+` from roll `+m[2]+`\.`), time.Second)
	}
	got, err := nc.result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.log, "game-take-") {
		t.Errorf("the newcomer saved its log as %s, not a taken seat's", got.log)
	}
	v, err := verifyFile(t, got.log)
	if err != nil {
		t.Fatalf("the newcomer's log does not verify: %v", err)
	}
	if v.Phase != lockstep.PhaseOver || hex.EncodeToString(v.History[:]) != r.hash || len(v.Cheats) > 0 {
		t.Errorf("the newcomer's log verifies as %s with hash %x and %d cheats; want over, %s, none", v.Phase, v.History, len(v.Cheats), r.hash)
	}
	out, err := exec.Command(os.Getenv(binEnv), "verify", got.log).CombinedOutput()
	if err != nil {
		t.Fatalf("aeroplane verify %s: %v\n%s", got.log, err, out)
	}
	want := fmt.Sprintf("seat %s: flown by p3 (…", colour)
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), fmt.Sprintf(" from roll %d\n", from)) {
		t.Errorf("aeroplane verify does not name the seat's new owner (%q … from roll %d):\n%s", want, from, out)
	}
	t.Logf("p3 took %s from roll %d; all four agree: %s %s", colour, from, r.order, r.hash[:16])
}

// Two newcomers come for the one bot seat at once (the threat "two
// newcomers asking for one seat"): exactly one is seated, on every peer
// alike. The other, reading the log, finds no seat free, or is told
// that the other took the seat it asked for (its request refused, or
// never made): it ends at once, saying so. The players and the one
// seated end with one history, and the seated one's log verifies with no
// cheat.
func TestTwoNewcomersOneSeat(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 5)
	ps := startGame(t, lan, 3, "one", "--bots", "1", "--think", "20ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=2[0-9] `), 3*time.Minute)
	var ncs []*peer
	for i := 3; i < 5; i++ {
		nc := newPeer(t, lan, i, "--bot", "random", "--take-seat", "one")
		nc.start()
		ncs = append(ncs, nc)
	}
	// The newcomer without the seat ends at once, saying why.
	lost := regexp.MustCompile(`No seat of "one" is free|The Green seat of "one" was taken by \S+ from roll \d+: no seat for you\.`)
	var played []*peer
	for _, nc := range ncs {
		if err := nc.wait(2 * time.Minute); err != nil {
			if m := lost.FindString(nc.stderr.String()); m != "" {
				t.Logf("peer %d: %s", nc.i, m)
				continue
			}
		}
		played = append(played, nc)
	}
	if len(played) != 1 {
		t.Fatalf("%d newcomers played, want one:\n%s\n%s", len(played), ncs[0].report(), ncs[1].report())
	}
	r := finishEqual(t, append(ps, played...), 4, 2*time.Minute)
	taken := regexp.MustCompile(`event seat-taken peer=(\S+) colour=(\S+) from-roll=(\d+)`)
	var want []string
	for _, p := range append(ps, played...) {
		m := taken.FindAllStringSubmatch(p.stderr.String(), -1)
		if len(m) != 1 {
			t.Fatalf("peer %d: %d seat-taken events, want exactly one:\n%s", p.i, len(m), p.report())
		}
		if want == nil {
			want = m[0]
		} else if m[0][0] != want[0] {
			t.Errorf("peer %d: %s; peer %d: %s", p.i, m[0][0], ps[0].i, want[0])
		}
	}
	for _, nc := range played {
		got, err := nc.result()
		if err != nil {
			t.Fatal(err)
		}
		v, err := verifyFile(t, got.log)
		if err != nil || hex.EncodeToString(v.History[:]) != r.hash || len(v.Cheats) > 0 {
			t.Errorf("peer %d's log: %v, hash %x, cheats %v", nc.i, err, v.History, v.Cheats)
		}
	}
	t.Logf("%s flies %s from roll %s; all agree: %s %s", want[1], want[2], want[3], r.order, r.hash[:16])
}

// A newcomer that took a seat is killed with kill -9 mid-game and
// started again with the same identity, data and arguments: its dice
// secret was saved beside its log (game-take-….secret), so it resumes
// the seat from its own log (it logs the seat resumed, not a new take),
// the players log it back, and all four end with one history; its one
// taken-seat log verifies with that history, naming it the seat's owner.
func TestNewcomerResumesAfterKill(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 3, "again", "--bots", "1", "--think", "50ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=2[0-9] `), 3*time.Minute)
	nc := newPeer(t, lan, 3, "--bot", "random", "--take-seat", "again")
	nc.start()
	id := shortID(nc.id())
	taken := regexp.MustCompile(`event seat-taken peer=` + regexp.QuoteMeta(id) + ` colour=(\S+) from-roll=(\d+)`)
	m := nc.mustLog(taken, 3*time.Minute)
	colour, from := m[1], m[2]
	// A few moves of its own in its new seat, then the crash.
	own := regexp.MustCompile(`event moved roll=\d+ colour=` + colour + ` `)
	for i := 0; len(own.FindAllString(nc.stderr.String(), -1)) < 3; i++ {
		if i >= 1200 || nc.exited() {
			t.Fatalf("the newcomer made no moves at %s:\n%s", colour, nc.report())
		}
		time.Sleep(100 * time.Millisecond)
	}
	nc.kill9()
	for _, p := range ps {
		p.mustLog(absentLine(id), 90*time.Second)
	}
	secrets, _ := filepath.Glob(filepath.Join(nc.dataDir(), "game-take-*.secret"))
	if len(secrets) != 1 {
		t.Fatalf("the newcomer's secrets: %q, want one beside its log", secrets)
	}
	nc.start()
	nc.mustLog(regexp.MustCompile(`game \S+ resumed: the seat `+colour+` taken`), 30*time.Second)
	for _, p := range ps {
		p.mustLog(regexp.MustCompile(`event returned peer=`+regexp.QuoteMeta(id)), time.Minute)
	}
	r := finishEqual(t, append(ps, nc), 4, 4*time.Minute)
	if strings.Contains(nc.stderr.String(), "Asking for the") {
		t.Errorf("the restarted newcomer asked for a seat again instead of resuming its own")
	}
	logs, _ := filepath.Glob(filepath.Join(nc.dataDir(), "game-take-*.log"))
	if len(logs) != 1 {
		t.Fatalf("the newcomer's taken-seat logs: %q, want one", logs)
	}
	v, err := verifyFile(t, logs[0])
	if err != nil || v.Phase != lockstep.PhaseOver || hex.EncodeToString(v.History[:]) != r.hash || len(v.Cheats) > 0 {
		t.Fatalf("the newcomer's log: %v, phase %v, history %x, %d cheats; want over, %s, none", err, v != nil && v.Phase == lockstep.PhaseOver, v.History, len(v.Cheats), r.hash)
	}
	out, err := exec.Command(os.Getenv(binEnv), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("seat %s: flown by p3 (…", colour)) || !strings.Contains(string(out), " from roll "+from+"\n") {
		t.Errorf("aeroplane verify of the newcomer's log: %v, want p3 flying %s from roll %s:\n%s", err, colour, from, out)
	}
	for _, p := range ps {
		got, err := p.result()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := verifyFile(t, got.log); err != nil {
			t.Errorf("peer %d's log: %v", p.i, err)
		}
	}
	t.Logf("p3 took %s from roll %s, was killed and resumed it; all four agree: %s %s", colour, from, r.order, r.hash[:16])
}
