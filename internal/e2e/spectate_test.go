package e2e

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
)

// spectators is how many watch the game of TestSpectators: the 8
// in the long form (-e2e.long), 3 in the default run, which a two-core
// CI shares with everything else.
func spectators() int {
	if long() {
		return 8
	}
	return 3
}

// Spectator programs (aeroplane --headless --spectate LOBBY) join a
// 4-player headless game at different rolls (the first before any move,
// the others later, each catching up from the start), verify every
// record as they go, and end with the players' result and hash; each
// saved spectator log verifies on its own as a finished game with that
// hash, and the players were told who watches.
func TestSpectators(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	n := spectators()
	lan := netlab.NewLAN(t, 4+n)
	ps := startGame(t, lan, 4, "watched", "--think", "20ms")
	var ws []*peer
	var joinedAt []string
	for k := range n {
		at := "start"
		if k > 0 {
			// Later spectators come in at rolls 10, 20, 30, ...
			re := regexp.MustCompile(fmt.Sprintf(`event moved roll=%d `, 10*k))
			ps[0].mustLog(re, 3*time.Minute)
			at = fmt.Sprintf("roll %d", 10*k)
		}
		w := newPeer(t, lan, 4+k, "--spectate", "watched")
		w.start()
		ws = append(ws, w)
		joinedAt = append(joinedAt, at)
	}
	r := finishEqual(t, ps, 4, 4*time.Minute)
	for k, w := range ws {
		if err := w.wait(time.Minute); err != nil {
			t.Fatalf("spectator %d (joined at %s): %v\n%s", k, joinedAt[k], err, w.report())
		}
		got, err := w.result()
		if err != nil {
			t.Fatalf("spectator %d: %v\n%s", k, err, w.report())
		}
		if got.order != r.order || got.hash != r.hash {
			t.Errorf("spectator %d (joined at %s): result %s %s, the players' %s %s", k, joinedAt[k], got.order, got.hash, r.order, r.hash)
		}
		if !strings.Contains(got.log, "game-watch-") {
			t.Errorf("spectator %d saved its log as %s, not a watched game's", k, got.log)
		}
		v, err := verifyFile(t, got.log)
		if err != nil {
			t.Fatalf("spectator %d's saved log does not verify: %v", k, err)
		}
		if v.Phase != lockstep.PhaseOver || hex.EncodeToString(v.History[:]) != r.hash || len(v.Cheats) > 0 {
			t.Errorf("spectator %d's log verifies as %s with hash %x and %d cheats; want over, %s, none", k, v.Phase, v.History, len(v.Cheats), r.hash)
		}
		w.mustLog(regexp.MustCompile(`watching "watched" from \S+: verified \d+ records to the end`), time.Second)
	}
	watched := 0
	for _, p := range ps {
		if regexp.MustCompile(`notice \S+ is watching the game`).MatchString(p.stderr.String()) {
			watched++
		}
	}
	if watched == 0 {
		t.Errorf("no player was told of a watcher")
	}
	t.Logf("%d spectators (joined at %s) agree with the players: %s %s", n, strings.Join(joinedAt, ", "), r.order, r.hash[:16])
}
