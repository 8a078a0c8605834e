package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// startCheater runs the modified client (internal/cheat/cmd/cheatpeer) in
// peer i's namespace and returns it with its peer ID.
func startCheater(t *testing.T, lan *netlab.LAN, i int, lobby string, attacks ...string) (*peer, string) {
	t.Helper()
	c := newPeer(t, lan, i)
	c.startCmd(os.Getenv(cheatEnv), "--lobby", lobby, "--name", "cheater", "--identity", filepath.Join(c.dir, "id.key"),
		"--think", "50ms", "--attacks", strings.Join(attacks, ","))
	deadline := time.Now().Add(30 * time.Second)
	re := regexp.MustCompile(`(?m)^peer (\S+)$`)
	for {
		if m := re.FindStringSubmatch(c.stdout.String()); m != nil {
			return c, m[1]
		}
		if time.Now().After(deadline) || c.exited() {
			t.Fatalf("the cheater printed no peer line: %s\n%s", c.stdout.String(), c.report())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// honestGame starts n honest headless peers in lobby; the first creates it
// for n+1 players (the cheater joins last, so it holds the last seat).
func honestGame(t *testing.T, lan *netlab.LAN, n int, lobby string) []*peer {
	t.Helper()
	var ps []*peer
	for i := range n {
		p := newPeer(t, lan, i, "--bot", "random", "--lobby", lobby, "--players", fmt.Sprint(n+1), "--think", "50ms")
		ps = append(ps, p)
		if i == 0 {
			p.start("--find-for", "200ms")
		} else {
			p.start()
		}
		want := fmt.Sprintf(`lobby "[^"]*" players=(\S+,){%d}`, i)
		p.mustLog(regexp.MustCompile(want), 30*time.Second)
	}
	return ps
}

// p2pShort is how the transport's log lines name a peer.
func p2pShort(id string) string { return id[len(id)-8:] }

// What each attack must leave in every honest peer's log.
func namedBy(attack, lockShort, netShort string) []string {
	cheat := func(kind string) []string {
		return []string{`event cheating peer=` + lockShort + ` kind=` + kind + `:`}
	}
	switch attack {
	case "bad-reveal":
		return cheat("bad-reveal")
	case "out-of-turn":
		return cheat("out-of-turn")
	case "wrong-seat":
		return cheat("wrong-seat")
	case "illegal-move":
		return cheat("illegal-move")
	case "stale":
		return cheat("stale-message")
	case "replay":
		return []string{`msg="game frame rejected" peer=` + netShort + ` err="frame for another game`}
	case "garbage":
		return []string{`msg="bad frame dropped" peer=` + netShort + ` why="frame of unknown kind`,
			`msg="game frame rejected" peer=` + netShort + ` err="bad frame`}
	case "oversized":
		return []string{`msg="bad frame dropped" peer=` + netShort + ` why="frame too large`}
	case "chat-flood":
		return []string{`msg="chat line over the rate limit dropped" peer=` + netShort}
	case "conn-flood":
		return []string{`why="application frame from a peer not in the game"`}
	case "never-ending":
		return []string{`msg="peer down" peer=` + netShort + ` reason="heartbeat timeout"`}
	case "copied-chain":
		return append(cheat("copied-chain"), cheat("bad-reveal")...)
	case "equivocation":
		return append(cheat("equivocation"), "event halted")
	}
	return nil
}

// checkNamed asserts that every honest peer's log names the cheater for
// every attack, and that the cheater says it made each one.
func checkNamed(t *testing.T, honest []*peer, cheater *peer, id string, attacks []string) {
	t.Helper()
	for _, a := range attacks {
		if !strings.Contains(cheater.stdout.String(), "attack "+a+" ") {
			t.Errorf("the cheater never made attack %s:\n%s", a, cheater.stdout.String())
			continue
		}
		for _, p := range honest {
			for _, want := range namedBy(a, shortID(id), p2pShort(id)) {
				if !strings.Contains(p.stderr.String(), want) {
					t.Errorf("peer %d: attack %s not named (no %q in its log)", p.i, a, want)
				}
			}
		}
	}
}

// Three honest peers and a modified client over real libp2p. The cheater
// plays honestly between attacks: forged inputs of lockstep's threat table
// and abuse of the transport. Every attack is named in every honest log,
// and the honest peers finish with one history.
func TestCheaterOverLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	attacks := []string{"bad-reveal", "out-of-turn", "wrong-seat", "illegal-move", "stale", "replay",
		"garbage", "oversized", "chat-flood", "spoof-mdns", "conn-flood", "never-ending"}
	lan := netlab.NewLAN(t, 4)
	honest := honestGame(t, lan, 3, "cheat")
	cheater, id := startCheater(t, lan, 3, "cheat", attacks...)
	r := finishEqual(t, honest, 4, 4*time.Minute)
	if err := cheater.wait(30 * time.Second); err != nil {
		t.Errorf("cheater: %v\n%s", err, cheater.report())
	}
	t.Logf("cheater's account:\n%s", cheater.stdout.String())
	checkNamed(t, honest, cheater, id, attacks)
	for _, p := range honest {
		if strings.Contains(p.stderr.String(), "event halted") {
			t.Errorf("peer %d halted", p.i)
		}
		t.Logf("peer %d: %s", p.i, summary(p.stderr.String()))
	}
	t.Logf("honest result %s %s", r.order, r.hash[:16])
}

// A cheater commits another player's chain anchor: named at setup; it can
// never reveal a valid link, so it is voted absent, a bot flies its seat,
// and the honest peers finish with one history.
func TestCheaterCopiedChain(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	honest := honestGame(t, lan, 2, "copy")
	cheater, id := startCheater(t, lan, 2, "copy", "copied-chain")
	finishEqual(t, honest, 3, 4*time.Minute)
	checkNamed(t, honest, cheater, id, []string{"copied-chain"})
	for _, p := range honest {
		if !strings.Contains(p.stderr.String(), "event absent peer="+shortID(id)) {
			t.Errorf("peer %d never handed the copier's seat to a bot", p.i)
		}
	}
}

// A cheater signs two different moves with one sequence number and shows
// each honest peer a different one. The copies meet through relaying: both
// honest peers name it and halt rather than diverge, on the same rolls.
func TestCheaterEquivocation(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	honest := honestGame(t, lan, 2, "equivocate")
	cheater, id := startCheater(t, lan, 2, "equivocate", "equivocation")
	for _, p := range honest {
		err := p.wait(3 * time.Minute)
		if err == nil {
			t.Errorf("peer %d finished a game with an equivocating player", p.i)
		}
		if _, rerr := p.result(); rerr == nil {
			t.Errorf("peer %d printed a result after equivocation", p.i)
		}
	}
	checkNamed(t, honest, cheater, id, []string{"equivocation"})
	rolled := regexp.MustCompile(`event rolled roll=\d+ colour=\S+ value=\d`)
	a, b := rolled.FindAllString(honest[0].stderr.String(), -1), rolled.FindAllString(honest[1].stderr.String(), -1)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("the honest peers finalised different rolls before halting: %d vs %d", len(a), len(b))
	}
}
