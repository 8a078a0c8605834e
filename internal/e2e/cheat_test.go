package e2e

import (
	"fmt"
	"net"
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
	return startCheaterArgs(t, lan, i, lobby, "--attacks", strings.Join(attacks, ","))
}

// startNeverConfirmer is the cheater that sits down and never confirms.
func startNeverConfirmer(t *testing.T, lan *netlab.LAN, i int, lobby string) (*peer, string) {
	t.Helper()
	return startCheaterArgs(t, lan, i, lobby, "--never-confirm")
}

func startCheaterArgs(t *testing.T, lan *netlab.LAN, i int, lobby string, args ...string) (*peer, string) {
	t.Helper()
	c := newPeer(t, lan, i)
	c.startCmd(os.Getenv(cheatEnv), append([]string{"--lobby", lobby, "--name", "cheater", "--identity", filepath.Join(c.dir, "id.key"),
		"--think", "20ms"}, args...)...)
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
		p := newPeer(t, lan, i, "--bot", "random", "--lobby", lobby, "--players", fmt.Sprint(n+1), "--think", "20ms")
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

// What each attack must leave in every honest peer's log (regular
// expressions; %[1]s is lockstep's short name of the cheater, %[2]s the
// transport's). The floods are per target: see checkFloods.
var namedBy = map[string][]string{
	"bad-reveal":   {`event cheating peer=%[1]s kind=bad-reveal:`},
	"out-of-turn":  {`event cheating peer=%[1]s kind=out-of-turn:`},
	"wrong-seat":   {`event cheating peer=%[1]s kind=wrong-seat:`},
	"illegal-move": {`event cheating peer=%[1]s kind=illegal-move:`},
	"stale":        {`event cheating peer=%[1]s kind=stale-message:`},
	"replay":       {`msg="game frame rejected" peer=%[2]s err="frame for another game`},
	"garbage": {`msg="bad frame dropped" self=\S+ peer=%[2]s why="frame of unknown kind`,
		`msg="game frame rejected" peer=%[2]s err="bad frame`},
	"oversized":    {`msg="bad frame dropped" self=\S+ peer=%[2]s why="frame too large`},
	"chat-flood":   {`msg="bad frame dropped" self=\S+ peer=%[2]s why="chat line over the rate limit"`, `msg="peer disconnected for sending bad frames" self=\S+ peer=%[2]s`},
	"copied-chain": {`event cheating peer=%[1]s kind=copied-chain:`, `event cheating peer=%[1]s kind=bad-reveal:`},
	"equivocation": {`event cheating peer=%[1]s kind=equivocation:`, `event halted: %[1]s signed two different messages`},
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
			for _, want := range namedBy[a] {
				re := regexp.MustCompile(fmt.Sprintf(want, regexp.QuoteMeta(shortID(id)), regexp.QuoteMeta(p2pShort(id))))
				if !re.MatchString(p.stderr.String()) {
					t.Errorf("peer %d: attack %s not named (no %q in its log)", p.i, a, re)
				}
			}
		}
	}
}

// checkFloods: the cheater's 100 bare TCP connections and 8 fresh
// identities come from one IP within a second or two, past the host's flood
// limit (20 in 10 s): every honest peer names that IP in its log and
// refuses it for a while. A fresh identity that got a stream in before the
// ban has its game frames struck as "not in the game"; a never-ending frame
// ends in a heartbeat timeout.
func checkFloods(t *testing.T, honest []*peer, cheater *peer, cheaterIP net.IP) {
	t.Helper()
	out := cheater.stdout.String()
	flood := regexp.MustCompile(`level=WARN msg="connection flood from ` + regexp.QuoteMeta(cheaterIP.String()) + `: refusing for \d+ s"`)
	for _, p := range honest {
		id, log := p.id(), p.stderr.String()
		m := regexp.MustCompile(`conn-flood to ` + id + `: tcp=(\d+) streams=(\d+)`).FindStringSubmatch(out)
		switch {
		case m == nil:
			t.Errorf("the cheater did not report its connection flood on peer %d", p.i)
		case !flood.MatchString(log):
			t.Errorf("peer %d: the connection flood from %s (%s bare TCP connections, %s streams) was not named (no %q in its log)", p.i, cheaterIP, m[1], m[2], flood)
		case m[2] != "0" && !strings.Contains(log, `why="application frame from a peer not in the game"`):
			t.Errorf("peer %d took %s streams from strangers and logged no strike", p.i, m[2])
		default:
			t.Logf("peer %d named the flood from %s (%s bare TCP connections made, %s streams got through)", p.i, cheaterIP, m[1], m[2])
		}
		n := regexp.MustCompile(`never-ending to ` + id + `: from (\S+)`).FindStringSubmatch(out)
		switch {
		case n == nil:
			t.Logf("peer %d refused the never-ending stream", p.i)
		case regexp.MustCompile(`msg="stream of a non-member reset: a game is running"[^\n]* id=` + p2pShort(n[1]) + `\b`).MatchString(log):
			t.Logf("peer %d reset the never-ending stream of the stranger %s at once (a watcher's room, no game stream)", p.i, n[1])
		case !regexp.MustCompile(`msg="peer down" self=\S+ peer=` + p2pShort(n[1]) + ` reason="heartbeat timeout"`).MatchString(log):
			t.Errorf("peer %d: the never-ending frame from %s was neither reset at once nor ended in a heartbeat timeout", p.i, n[1])
		}
	}
}

// checkSpoof: the cheater answers mDNS in the honest peers' names with its
// own address; every honest peer is connected to the others, so it sees
// the adverts contradict the authenticated connections and names the
// forger's address.
func checkSpoof(t *testing.T, honest []*peer, cheaterIP net.IP) {
	t.Helper()
	re := regexp.MustCompile(`msg="spoofed mDNS advert ignored[^"]*" self=\S+ peer=\S+ advertised="?\[/ip4/` + regexp.QuoteMeta(cheaterIP.String()) + `/`)
	for _, p := range honest {
		if !re.MatchString(p.stderr.String()) {
			t.Errorf("peer %d: the spoofed mDNS adverts pointing at %s were not named (no %q in its log)", p.i, cheaterIP, re)
		}
	}
}

// Three honest peers and a modified client over real libp2p. The cheater
// plays honestly between attacks: forged inputs of lockstep's threat table
// and abuse of the transport. Every attack is named in every honest log,
// and the honest peers finish with one history.
func TestCheaterOverLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	// The chat flood goes last: its lines over the rate limit are strikes
	// too, so it gets the cheater banned for 30 s (8 strikes in 10 s) and
	// voted absent, and an attack after it would never be made or reach
	// a peer that has banned it. Banned, the cheater never hears the end
	// of the game, so it is not expected to finish.
	attacks := []string{"bad-reveal", "out-of-turn", "wrong-seat", "illegal-move", "stale", "replay",
		"garbage", "oversized", "spoof-mdns", "never-ending", "conn-flood", "chat-flood"}
	lan := netlab.NewLAN(t, 4)
	honest := honestGame(t, lan, 3, "cheat")
	cheater, id := startCheater(t, lan, 3, "cheat", attacks...)
	r := finishEqual(t, honest, 4, 4*time.Minute)
	_ = cheater.wait(10 * time.Second)
	t.Logf("cheater's account:\n%s", cheater.stdout.String())
	checkNamed(t, honest, cheater, id, attacks)
	checkFloods(t, honest, cheater, lan.Addr(3))
	checkSpoof(t, honest, lan.Addr(3))
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
	t.Parallel()
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
	t.Parallel()
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
	// Agreement: one honest peer's rolls are a prefix of the other's. One
	// may derive one roll more before the conflicting copy reaches it: it
	// got the cheater's first version both directly and relayed, so both
	// applied the same move and the other's reveal matched its history
	// (CI saw 8 against 7 once); a halted peer signs no further reveal, so
	// no one gets two ahead.
	rolled := regexp.MustCompile(`event rolled roll=\d+ colour=\S+ value=\d`)
	a, b := rolled.FindAllString(honest[0].stderr.String(), -1), rolled.FindAllString(honest[1].stderr.String(), -1)
	if len(a) > len(b) {
		a, b = b, a
	}
	if strings.Join(a, "\n") != strings.Join(b[:len(a)], "\n") || len(b)-len(a) > 1 {
		t.Errorf("the honest peers finalised different rolls before halting: %d and %d, not one a prefix of the other by at most one\n%s\n--\n%s",
			len(a), len(b), strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// A stranger joins an open table, says ready and never confirms the game
// (cheatpeer --never-confirm). The creator chose --setup-bot: when the
// setup times out (20 s), it reopens the table at once with a bot in the
// stranger's seat, the other player comes back ready by itself, and the
// two finish one game with one hash and three colours ranked. (Before,
// the game waited in its setup for ever; without --setup-bot the table
// waits for a new player.)
func TestNeverConfirmingSeatGetsABot(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	creator := newPeer(t, lan, 0, "--bot", "random", "--lobby", "hold", "--players", "3", "--think", "20ms", "--setup-bot")
	creator.start("--find-for", "200ms")
	creator.mustLog(regexp.MustCompile(`lobby "[^"]*" players=\S+`), 30*time.Second)
	guest := newPeer(t, lan, 1, "--bot", "random", "--lobby", "hold", "--think", "20ms")
	guest.start()
	creator.mustLog(regexp.MustCompile(`lobby "[^"]*" players=(\S+,){1}`), 30*time.Second)
	_, id := startNeverConfirmer(t, lan, 2, "hold")
	r := finishEqual(t, []*peer{creator, guest}, 3, 3*time.Minute)
	if !strings.Contains(creator.stderr.String(), "It starts again with a bot in each missing seat") {
		t.Errorf("the creator did not restart with a bot:\n%s", creator.report())
	}
	t.Logf("the stranger %s held the setup until it timed out; the game went on without it: %s", shortID(id), r.order)
}
