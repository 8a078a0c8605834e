package e2e

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
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
	data, err := os.ReadFile(got.log)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
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
