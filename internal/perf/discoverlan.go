package perf

import (
	"bufio"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// AgentEnv, set to an IP address, makes the perf test binary a discovery
// agent instead (RunDiscoveryAgent): a LAN benchmark starts one per
// namespace, as many processes as peers, so that every socket of a peer,
// including any a library opens later, lives in that peer's namespace.
const AgentEnv = "AEROPLANE_PERF_DISCOVERY_AGENT"

// RunDiscoveryAgent runs an idle peer: a host on ip and mDNS discovery,
// each in a lobby of its own. It prints "ready ID UNIXNANO" (the moment
// just before discovery started), then "found ID UNIXNANO" whenever a
// peer is first listed, and stops (discovery says goodbye) at the end of
// its input.
func RunDiscoveryAgent(ip string) error {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return err
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.ParseIP(ip)}})
	if err != nil {
		return err
	}
	defer h.Close()
	name := "idle" + strings.ReplaceAll(ip, ".", "-")
	start := time.Now()
	d, err := p2p.StartDiscovery(h, p2p.Advert{Name: name, Lobby: name, Host: true, Free: 3, Taken: 1}, p2p.DiscoveryConfig{})
	if err != nil {
		return err
	}
	defer d.Close()
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, "ready %s %d\n", h.ID(), start.UnixNano())
	out.Flush()
	done := make(chan struct{})
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString(0)
		close(done)
	}()
	known := map[string]bool{}
	for {
		select {
		case <-done:
			return nil
		case <-d.Changes():
		}
		now := time.Now().UnixNano()
		for _, ad := range d.Peers() {
			if id := ad.ID.String(); !known[id] {
				known[id] = true
				fmt.Fprintf(out, "found %s %d\n", id, now)
			}
		}
		out.Flush()
	}
}

// LANDiscoveryReport is one run of MeasureLANDiscovery.
type LANDiscoveryReport struct {
	Peers            int
	Window           time.Duration // how long the traffic was counted
	Packets, Bytes   int64         // sent on the bridge in Window, by every peer
	PerPeer, AllList []time.Duration
	// Unlisted counts the (peer, peer) pairs not listed a minute after the
	// start, and Missed the times an old peer did not list a new one
	// within missAfter of its start (counted as missAfter).
	Unlisted, Missed int
}

const missAfter = 10 * time.Second

// PacketsPerSecond and BytesPerSecond are the segment's mDNS load at rest.
func (r LANDiscoveryReport) PacketsPerSecond() float64 {
	return float64(r.Packets) / r.Window.Seconds()
}

func (r LANDiscoveryReport) BytesPerSecond() float64 { return float64(r.Bytes) / r.Window.Seconds() }

type lanAgent struct {
	cmd   *exec.Cmd
	stdin interface{ Close() error }
	id    string
	start time.Time
	found chan [2]string
}

func startLANAgent(lan *netlab.LAN, i int) (*lanAgent, error) {
	cmd := lan.Command(i, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), AgentEnv+"="+lan.Addr(i).String())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	a := &lanAgent{cmd: cmd, stdin: stdin, found: make(chan [2]string, 1024)}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		a.stop()
		return nil, fmt.Errorf("perf: agent %d said nothing", i)
	}
	f := strings.Fields(sc.Text())
	if len(f) != 3 || f[0] != "ready" {
		a.stop()
		return nil, fmt.Errorf("perf: agent %d: %q", i, sc.Text())
	}
	ns, _ := strconv.ParseInt(f[2], 10, 64)
	a.id, a.start = f[1], time.Unix(0, ns)
	go func() {
		defer close(a.found)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "found" {
				a.found <- [2]string{f[1], f[2]}
			}
		}
	}()
	return a, nil
}

func (a *lanAgent) stop() {
	_ = a.stdin.Close()
	done := make(chan struct{})
	go func() { _ = a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = a.cmd.Process.Kill()
		<-done
	}
}

// waitFound reads a's lines until it has listed every id of want, and
// returns when it listed each.
func (a *lanAgent) waitFound(want map[string]bool, within time.Duration) (map[string]time.Time, error) {
	got := map[string]time.Time{}
	deadline := time.After(within)
	// A peer that lists nobody in time still returns what it did list.
	for len(got) < len(want) {
		select {
		case f, ok := <-a.found:
			if !ok {
				return got, fmt.Errorf("perf: agent %s exited", a.id)
			}
			if want[f[0]] {
				ns, _ := strconv.ParseInt(f[1], 10, 64)
				got[f[0]] = time.Unix(0, ns)
			}
		case <-deadline:
			return got, fmt.Errorf("perf: agent %s listed %d of %d peers within %v", a.id, len(got), len(want), within)
		}
	}
	return got, nil
}

// MeasureLANDiscovery starts n idle peers, one process and one namespace
// each on one bridge, waits until each lists all the others and then
// settle more, and counts what all of them send on the bridge for window
// (interface counters: at rest that is mDNS, plus the odd ARP). Then,
// trials times, a new peer starts in one more namespace and the time until
// each old peer lists it is recorded, from the moment the new one started
// discovery (the clocks are one machine's). lan must have n+1 peers.
func MeasureLANDiscovery(lan *netlab.LAN, n, trials int, settle, window time.Duration) (rep LANDiscoveryReport, err error) {
	rep.Peers, rep.Window = n, window
	var olds []*lanAgent
	defer func() {
		for _, a := range olds {
			a.stop()
		}
	}()
	ids := map[string]bool{}
	for i := range n {
		a, err := startLANAgent(lan, i)
		if err != nil {
			return rep, err
		}
		olds = append(olds, a)
		ids[a.id] = true
	}
	listedBy := time.Now().Add(time.Minute)
	for _, a := range olds {
		want := map[string]bool{}
		for id := range ids {
			if id != a.id {
				want[id] = true
			}
		}
		got, _ := a.waitFound(want, max(time.Until(listedBy), 0))
		rep.Unlisted += len(want) - len(got)
	}
	time.Sleep(settle)
	sent := func() (p, b int64, err error) {
		for i := range n + 1 {
			pi, bi, err := lan.Sent(i)
			if err != nil {
				return 0, 0, err
			}
			p, b = p+pi, b+bi
		}
		return p, b, nil
	}
	p0, b0, err := sent()
	if err != nil {
		return rep, err
	}
	time.Sleep(window)
	p1, b1, err := sent()
	if err != nil {
		return rep, err
	}
	rep.Packets, rep.Bytes = p1-p0, b1-b0
	for range trials {
		time.Sleep(time.Duration(mrand.Int64N(int64(2 * time.Second))))
		nw, err := startLANAgent(lan, n)
		if err != nil {
			return rep, err
		}
		var all time.Duration
		deadline := nw.start.Add(missAfter)
		for _, a := range olds {
			d := missAfter
			if got, err := a.waitFound(map[string]bool{nw.id: true}, max(time.Until(deadline), 0)); err == nil {
				d = got[nw.id].Sub(nw.start)
			} else {
				rep.Missed++
			}
			rep.PerPeer = append(rep.PerPeer, d)
			all = max(all, d)
		}
		rep.AllList = append(rep.AllList, all)
		nw.stop()
	}
	return rep, nil
}
