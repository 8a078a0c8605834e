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
	t.Parallel()
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

// A spectator (--spectate) of a 3-player game the players pause
// together (--pause-at 30) is told: it prints the players' paused line
// at their roll ("paused ROLL log=PATH"), exits 0 by itself, and its
// saved log verifies as paused at that roll.
func TestSpectatorOfPausedGame(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	pause := []string{"--pause-at", "30"}
	ps := startGameWith(t, lan, 3, "saturday", map[int][]string{0: pause, 1: pause, 2: pause}, "--think", "20ms")
	ps[0].mustLog(regexp.MustCompile(`event moved roll=10 `), 3*time.Minute)
	w := newPeer(t, lan, 3, "--spectate", "saturday")
	w.start()
	roll := ""
	for _, p := range ps {
		if err := p.wait(3 * time.Minute); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
		m := pausedLine.FindStringSubmatch(p.stdout.String())
		if m == nil {
			t.Fatalf("peer %d printed no paused line; stdout %q\n%s", p.i, p.stdout.String(), p.report())
		}
		roll = m[1]
	}
	if err := w.wait(time.Minute); err != nil {
		t.Fatalf("the spectator did not end with the pause: %v\n%s", err, w.report())
	}
	m := pausedLine.FindStringSubmatch(w.stdout.String())
	if m == nil || m[1] != roll {
		t.Fatalf("the spectator printed %q, the players paused at roll %s\n%s", w.stdout.String(), roll, w.report())
	}
	if !strings.Contains(m[2], "game-watch-") {
		t.Errorf("the spectator saved its log as %s, not a watched game's", m[2])
	}
	v, err := verifyFile(t, m[2])
	if err != nil || !v.Paused || fmt.Sprint(v.PausedAt) != roll || len(v.Cheats) > 0 {
		t.Fatalf("the spectator's log: %v (paused %v at %d, cheats %d), the players paused at roll %s", err, v != nil && v.Paused, v.PausedAt, len(v.Cheats), roll)
	}
	t.Logf("the spectator saw the players pause at roll %s; its log verifies paused there", roll)
}
