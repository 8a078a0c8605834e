package p2p

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// agent is a peer process in its own namespace (see agent_test.go).
type agent struct {
	i     int
	id    string
	addrs []string
	in    io.WriteCloser
	lines chan string
	held  []string // lines read while waiting for something else
}

func startAgents(t *testing.T, lan *netlab.LAN, n int) []*agent {
	t.Helper()
	var as []*agent
	for i := range n {
		cmd := lan.Command(i, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "P2P_AGENT=1", "P2P_AGENT_IP="+lan.Addr(i).String(), fmt.Sprintf("P2P_AGENT_NAME=peer%d", i))
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		a := &agent{i: i, in: stdin, lines: make(chan string, 4096)}
		t.Cleanup(func() {
			io.WriteString(stdin, "quit\n")
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				a.lines <- sc.Text()
			}
			close(a.lines)
		}()
		ready := a.expect(t, "ready", 20*time.Second, func(f []string) bool { return f[0] == "ready" })
		f := strings.Fields(ready)
		a.id, a.addrs = f[1], f[2:]
		as = append(as, a)
	}
	return as
}

func (a *agent) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(a.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// expect returns the first line of a's (held or new) that satisfies match;
// other lines are held for later expects (an "error" line fails the test).
func (a *agent) expect(t *testing.T, what string, within time.Duration, match func([]string) bool) string {
	t.Helper()
	for i, l := range a.held {
		if match(strings.Fields(l)) {
			a.held = append(a.held[:i:i], a.held[i+1:]...)
			return l
		}
	}
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-a.lines:
			if !ok {
				t.Fatalf("agent %d exited while waiting for %s", a.i, what)
			}
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			if f[0] == "error" {
				t.Fatalf("agent %d: %s", a.i, l)
			}
			if match(f) {
				return l
			}
			a.held = append(a.held, l)
		case <-deadline:
			t.Fatalf("agent %d: no %s within %v; other lines:\n%s", a.i, what, within, strings.Join(a.held, "\n"))
		}
	}
}

// seen returns the first line of a's so far (held or arrived) whose verb
// is verb, or "", without waiting.
func (a *agent) seen(verb string) string {
drain:
	for {
		select {
		case l, ok := <-a.lines:
			if !ok {
				break drain
			}
			a.held = append(a.held, l)
		default:
			break drain
		}
	}
	for _, l := range a.held {
		if f := strings.Fields(l); len(f) > 0 && f[0] == verb {
			return l
		}
	}
	return ""
}

// expectAll waits until a has printed verb for every id in ids.
func (a *agent) expectAll(t *testing.T, verb string, ids []string, within time.Duration) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for len(want) > 0 {
		l := a.expect(t, fmt.Sprintf("%s of %d peers", verb, len(want)), within, func(f []string) bool {
			return f[0] == verb && len(f) > 1 && want[f[1]]
		})
		delete(want, strings.Fields(l)[1])
	}
}

func others(as []*agent, self int) []string {
	var ids []string
	for _, a := range as {
		if a.i != self {
			ids = append(ids, a.id)
		}
	}
	return ids
}

// Four peers, each in its own namespace on a bridge, find each other by
// mDNS alone, connect, exchange frames, and chat reaches everyone in
// order per sender.
func TestLANFourPeers(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	as := startAgents(t, lan, 4)
	for _, a := range as {
		a.expectAll(t, "found", others(as, a.i), 20*time.Second)
	}
	for _, a := range as {
		a.expectAll(t, "up", others(as, a.i), 20*time.Second)
	}
	// Frames: every peer sends one to every other.
	for _, a := range as {
		for _, id := range others(as, a.i) {
			a.send(t, fmt.Sprintf("send %s from%d", id, a.i))
		}
	}
	for _, a := range as {
		got := map[string]bool{}
		for len(got) < 3 {
			l := a.expect(t, "frames", 10*time.Second, func(f []string) bool { return f[0] == "frame" })
			f := strings.Fields(l)
			if f[2] == fmt.Sprintf("from%d", a.i) {
				t.Fatalf("agent %d got its own frame", a.i)
			}
			got[f[1]+" "+f[2]] = true
		}
		for _, b := range as {
			if b.i != a.i && !got[b.id+" "+fmt.Sprintf("from%d", b.i)] {
				t.Errorf("agent %d: no frame from %d: %v", a.i, b.i, got)
			}
		}
	}
	// Chat: each peer says 4 lines (within the burst); every other peer
	// gets each sender's lines in order.
	const lines = 4
	for _, a := range as {
		for k := 1; k <= lines; k++ {
			a.send(t, fmt.Sprintf("chat line %d from %d", k, a.i))
		}
	}
	for _, a := range as {
		next := map[string]int{}
		for _, id := range others(as, a.i) {
			next[id] = 1
		}
		for n := 0; n < lines*3; n++ {
			l := a.expect(t, "chat", 10*time.Second, func(f []string) bool { return f[0] == "chat" })
			f := strings.Fields(l)
			from, k := f[1], next[f[1]]
			if want := fmt.Sprintf("line %d from", k); !strings.Contains(l, want) || f[2] != fmt.Sprint(k) {
				t.Fatalf("agent %d: got %q, want %q from %s", a.i, l, want, from)
			}
			next[from]++
		}
	}
}

// A peer whose cable is pulled is seen absent within the heartbeat bound
// (4 s by default), and is found and connected again once plugged back.
func TestLANLinkDownSeenAbsent(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	as := startAgents(t, lan, 2)
	as[0].expectAll(t, "up", []string{as[1].id}, 20*time.Second)
	lan.LinkDown(1)
	start := time.Now()
	l := as[0].expect(t, "down", 10*time.Second, func(f []string) bool { return f[0] == "down" && f[1] == as[1].id })
	took := time.Since(start)
	if !strings.Contains(l, "heartbeat timeout") {
		t.Errorf("down for another reason: %q", l)
	}
	t.Logf("absent after %v (bound: 4 missed 1 s heartbeats)", took)
	if took > 6*time.Second {
		t.Errorf("absent only after %v", took)
	}
	lan.LinkUp(1)
	as[0].expectAll(t, "up", []string{as[1].id}, 15*time.Second)
}

// With multicast off, mDNS finds nobody, but connecting by host:port works.
func TestLANManualConnectWithoutMulticast(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	lan.MulticastOff(0)
	lan.MulticastOff(1)
	as := startAgents(t, lan, 2)
	var hostPort string
	for _, a := range as[0].addrs {
		if strings.Contains(a, "/tcp/") {
			f := strings.Split(a, "/")
			hostPort = f[2] + ":" + f[4]
		}
	}
	as[1].send(t, "connect "+hostPort)
	as[1].expect(t, "connected", 10*time.Second, func(f []string) bool { return f[0] == "connected" && f[1] == as[0].id })
	as[1].send(t, "send "+as[0].id+" hello")
	as[0].expect(t, "frame", 10*time.Second, func(f []string) bool { return f[0] == "frame" && f[2] == "hello" })
	as[0].send(t, "send "+as[1].id+" back")
	as[1].expect(t, "frame", 10*time.Second, func(f []string) bool { return f[0] == "frame" && f[2] == "back" })
}
