package netlab

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// LAN is a bridge with one network namespace per peer, all inside the
// namespace Enter made. Peer i (from 0) has address 10.213.0.(i+1)/24 on
// interface "eth0" in namespace Namespace(i).
type LAN struct {
	tb     testing.TB
	tag    string
	bridge string
	seq    int
	peers  int
}

// lans numbers the LANs of one process, so several can coexist.
var lans atomic.Int32

// NewLAN builds a LAN of n peers. It must run inside Enter's namespace;
// the namespaces are deleted when tb ends.
func NewLAN(tb testing.TB, n int) *LAN {
	tb.Helper()
	if !Inside() {
		tb.Fatal("netlab.NewLAN outside netlab.Enter: refusing to touch this machine's network")
	}
	if n < 1 || n > 250 {
		tb.Fatalf("netlab: %d peers", n)
	}
	seq := int(lans.Add(1))
	l := &LAN{tb: tb, tag: fmt.Sprintf("nl%d-%d", os.Getpid(), seq), bridge: fmt.Sprintf("br%d", seq), seq: seq, peers: n}
	if err := l.run("ip", "link", "add", l.bridge, "type", "bridge"); err != nil {
		Unavailable(tb, err)
		return l
	}
	l.must("ip", "link", "set", l.bridge, "up")
	tb.Cleanup(l.delete)
	for i := range n {
		ns, veth := l.Namespace(i), l.hostSide(i)
		l.must("ip", "netns", "add", ns)
		l.must("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
		l.must("ip", "link", "set", veth, "master", l.bridge)
		l.must("ip", "link", "set", veth, "up")
		l.must("ip", "-n", ns, "addr", "add", l.Addr(i).String()+"/24", "dev", "eth0")
		l.must("ip", "-n", ns, "link", "set", "eth0", "up")
		l.must("ip", "-n", ns, "link", "set", "lo", "up")
		// Without a route, joining the mDNS group fails with "no such device".
		l.must("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
	}
	return l
}

// Namespace names peer i's network namespace.
func (l *LAN) Namespace(i int) string { return fmt.Sprintf("%s-%d", l.tag, i) }

// Addr is peer i's IPv4 address.
func (l *LAN) Addr(i int) net.IP { return net.IPv4(10, 213, 0, byte(i+1)).To4() }

func (l *LAN) hostSide(i int) string { return fmt.Sprintf("v%d-%d", l.seq, i) }

// JoinHere puts the test's own process on the LAN: the bridge, in
// Enter's namespace, gets address 10.213.0.254/24, so what runs here
// (a browser a test drives, say) reaches every peer as one more machine
// of the LAN. It returns that address.
func (l *LAN) JoinHere() net.IP {
	l.tb.Helper()
	ip := net.IPv4(10, 213, 0, 254).To4()
	l.must("ip", "addr", "add", ip.String()+"/24", "dev", l.bridge)
	return ip
}

// Command prepares name args to run in peer i's namespace.
func (l *LAN) Command(i int, name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", l.Namespace(i), name}, args...)...)
}

// LinkDown pulls peer i's cable: its packets stop, its processes live on.
func (l *LAN) LinkDown(i int) { l.must("ip", "link", "set", l.hostSide(i), "down") }

// LinkUp plugs peer i's cable back in.
func (l *LAN) LinkUp(i int) { l.must("ip", "link", "set", l.hostSide(i), "up") }

// MulticastOff makes peer i unable to send or receive multicast, as on a
// network that blocks mDNS; unicast still works.
func (l *LAN) MulticastOff(i int) {
	ns := l.Namespace(i)
	l.must("ip", "-n", ns, "route", "del", "224.0.0.0/4", "dev", "eth0")
	l.must("ip", "-n", ns, "link", "set", "eth0", "multicast", "off")
}

func (l *LAN) delete() {
	for i := range l.peers {
		_ = l.run("ip", "netns", "del", l.Namespace(i))
	}
	_ = l.run("ip", "link", "del", l.bridge)
}

func (l *LAN) run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (l *LAN) must(name string, args ...string) {
	l.tb.Helper()
	if err := l.run(name, args...); err != nil {
		l.tb.Fatalf("netlab: %v", err)
	}
}

func execOut(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}
