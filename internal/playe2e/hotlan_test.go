package playe2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
)

// A person runs `aeroplane` on a LAN where two headless peers have opened
// a table of four; she joins it, presses + and seats bob beside her at
// this laptop, and says ready: the game starts with four players, bob a
// player of his own (the peers seat him under his own key). The screen
// names whose turn it is among the two of them ("bob's turn (on this
// laptop)") and waits for that person's key; they play every move to the
// end. Her log and bob's own seat log verify, ending on the peers' hash.
// Killed with kill -9 mid-game and started again (no --names: the game's
// files say who sat here), the program takes up both seats, and the
// screen goes on naming alice and bob.
func TestPlayLANHotSeat(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	// "to the end" is the long form's (testkit.Long): killed and resumed,
	// the two people also play every move to the end and the logs verify.
	rows := []struct {
		name string
		kill bool
	}{{"to the end", false}, {"killed and resumed", true}}
	for _, tc := range testkit.Rows(rows, func(i int) bool { return !rows[i].kill }) {
		t.Run(tc.name, func(t *testing.T) { playLANHotSeat(t, tc.kill) })
	}
}

func playLANHotSeat(t *testing.T, kill bool) {
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "hotlan", 4, 0, "0", "players=p0,p1 free=2")
	home := t.TempDir()
	alice := program{home: home, argv: []string{binary(), "--name", "alice", "--lang", "en", "--bot-delay", "0"},
		wrap: func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }}
	tm := alice.start(t)
	tm.waitFor("the peers' game in the lobby", 400, contains("1) p0's game: 2 of 4 seats taken"), peers)
	tm.keys(keyJoin1)
	tm.waitFor("alice seated, and + to add a person", 400, contains("alice", "you — not ready", "+ add a person here"), peers)
	tm.keys("+")
	tm.typeText("bob")
	tm.keys("Enter")
	bobSeat := regexp.MustCompile(`(?m)^\s+[BYG] bob \S{6}  you — `)
	table := tm.waitFor("bob at the table, a person here", 400, func(s string) bool {
		return bobSeat.MatchString(s) && strings.Contains(s, "R p0") && !strings.Contains(s, "joining at this laptop")
	}, peers)
	t.Logf("the table:\n%s", table)
	// The other programs list the person, not the laptop.
	host.waitLog(t, "players=p0,p1,alice,bob free=0", 100)
	guest.waitLog(t, "players=p0,p1,alice,bob free=0", 100)
	tm.keys(keyReady)
	tm.waitFor("the game with the peers", 400, contains("The game begins."), peers)

	asked := map[string]int{}
	turn := regexp.MustCompile(`(alice|bob)'s turn \(on this laptop\)`)
	last, presses := "", 0
	var end string
	var afterKill map[string]int // asked by name once resumed
	var accused string           // a cheat line on the screen once resumed
	setAside := false
	for end == "" {
		if kill && afterKill == nil && presses == 40 {
			tm = tm.killAndResume(alice, `hotlan"`, peers)
			afterKill, last = map[string]int{}, ""
		}
		if presses > 4000 {
			t.Fatalf("after %d key presses the game is not over; asked %v:\n%s\n%s", presses, asked, tm.screen(), peers())
		}
		s := tm.screen()
		if afterKill != nil {
			// The others' undone branch reads as messages set aside, once
			// per program, never as cheating (session's splitResidue).
			if i := strings.Index(s, "Cheating detected"); i >= 0 && accused == "" {
				accused = s[i:min(len(s), i+160)]
			}
			setAside = setAside || strings.Contains(s, "were set aside (never applied)")
		}
		if strings.Contains(s, "Game over") && strings.Contains(s, "Game log saved to") {
			end = s
			break
		}
		if s == last {
			time.Sleep(poll)
			continue
		}
		who := turn.FindStringSubmatch(s)
		switch hints := bottomLine(s); {
		case who != nil && strings.Contains(hints, "play move"):
			asked[who[1]]++
			if afterKill != nil {
				afterKill[who[1]]++
			}
			tm.keys(keyNext, keyPlay)
		case who != nil && strings.Contains(hints, "space roll"):
			asked[who[1]]++
			if afterKill != nil {
				afterKill[who[1]]++
			}
			tm.keys(keyRoll)
		default:
			time.Sleep(poll)
			continue
		}
		presses++
		last = s
	}
	for _, name := range []string{"alice", "bob"} {
		if asked[name] == 0 || (kill && afterKill[name] == 0) {
			t.Errorf("the screen never asked %s by name (asked: %v; after the restart: %v)", name, asked, afterKill)
		}
	}
	if accused != "" {
		t.Errorf("after the restart the screen accuses a player: %q", accused)
	}
	if kill {
		t.Logf("after the restart the screen said messages were set aside: %v", setAside)
	}
	order := finishOrder(end)
	tm.quitAndCheck()

	hostOrder, hash := host.result(t, time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash || order != hostOrder || len(order) != 4 {
		t.Errorf("results: screen %q, p0 %s %s, p1 %s %s", order, hostOrder, hash, guestOrder, guestHash)
	}
	games := filepath.Join(home, "state", "aeroplane", "games")
	all, _ := filepath.Glob(filepath.Join(games, "game-*.log"))
	var own, seat []string
	for _, p := range all {
		if strings.Contains(filepath.Base(p), "-seat-") {
			seat = append(seat, p)
		} else {
			own = append(own, p)
		}
	}
	if len(own) != 1 || len(seat) != 1 {
		t.Fatalf("saved logs: %q and seat logs %q, want one each", own, seat)
	}
	ids := map[string]bool{}
	for _, path := range append(own, seat...) {
		out, err := exec.Command(binary(), "verify", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "history "+hash) {
			t.Errorf("verify of %s: %v, want ok and history %s:\n%s", filepath.Base(path), err, hash, out)
		}
		for _, m := range regexp.MustCompile(`(Red|Blue|Yellow|Green)=\S+ \(…(\S+)\)`).FindAllStringSubmatch(string(out), -1) {
			ids[m[2]] = true
		}
	}
	if len(ids) != 4 {
		t.Errorf("the logs name %d distinct players (%v), want four: bob under a key of his own", len(ids), ids)
	}
	t.Logf("%d key presses; asked by name %v (after a kill -9: %v); one hash %s", presses, asked, afterKill, hash[:16])
}
