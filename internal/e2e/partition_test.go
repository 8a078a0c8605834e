package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// A partial partition for 15 s: peers 1 and 2 cannot reach each other,
// while both still reach 0 and 3 (who see everyone). The game goes on
// meanwhile (lockstep relays around the cut), and after it heals all four
// finish with one history.
func TestPartialPartition(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "partial", "--think", "20ms")
	ps[0].mustLog(midGame, 2*time.Minute)
	blackhole(t, lan, 1, 2)
	blackhole(t, lan, 2, 1)
	if err := lan.Command(1, "ip", "route", "get", lan.Addr(2).String()).Run(); err == nil {
		t.Fatalf("peer 1 still routes to peer 2")
	}
	before := strings.Count(ps[0].stderr.String(), "event moved")
	time.Sleep(15 * time.Second)
	during := strings.Count(ps[0].stderr.String(), "event moved") - before
	for _, c := range [][2]int{{1, 2}, {2, 1}} {
		if out, err := lan.Command(c[0], "ip", "route", "del", "blackhole", lan.Addr(c[1]).String()+"/32").CombinedOutput(); err != nil {
			t.Fatalf("healing: %v %s", err, out)
		}
	}
	t.Logf("%d moves applied during the partial partition", during)
	if during == 0 && !ps[0].exited() {
		t.Errorf("the game stood still during the partial partition")
	}
	finishEqual(t, ps, 4, 3*time.Minute)
	for _, p := range ps {
		t.Logf("peer %d: %s", p.i, summary(p.stderr.String()))
	}
}

// blackhole drops every unicast packet peer from sends to peer to (there
// is no nftables or iptables on the test machines; a route does the job).
func blackhole(t *testing.T, lan *netlab.LAN, from, to int) {
	t.Helper()
	out, err := lan.Command(from, "ip", "route", "add", "blackhole", lan.Addr(to).String()+"/32").CombinedOutput()
	if err != nil {
		t.Fatalf("blackhole %d -> %d: %v %s", from, to, err, out)
	}
}

// summary counts the protocol's fault events in a peer's log.
func summary(stderr string) string {
	var b strings.Builder
	for _, k := range []string{"event absent", "event returned", "event rolled-back", "event cheating", "event state-mismatch", "event halted", "peer down", "peer up"} {
		fmt.Fprintf(&b, "%s=%d ", strings.TrimPrefix(k, "event "), strings.Count(stderr, k))
	}
	return b.String()
}
