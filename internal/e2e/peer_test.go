package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
)

// peer is one headless aeroplane in peer i's namespace. Its identity and
// data directory outlive its process, so a restart is the same player.
type peer struct {
	t    testing.TB
	lan  *netlab.LAN
	i    int
	dir  string
	args []string

	cmd            *exec.Cmd
	stdout, stderr *testout.Buffer
	done           chan struct{}
	err            error
	runs           []string // stderr of earlier processes, for failure reports
}

var (
	resultLine = regexp.MustCompile(`(?m)^result ([RBYG]{2,4}) log=(\S+) hash=([0-9a-f]{64})$`)
	peerLine   = regexp.MustCompile(`(?m)^ *[0-9.]+s peer (\S+) name=`)
)

func newPeer(t testing.TB, lan *netlab.LAN, i int, args ...string) *peer {
	return &peer{t: t, lan: lan, i: i, dir: t.TempDir(), args: args}
}

func (p *peer) dataDir() string { return filepath.Join(p.dir, "data") }

// start runs the binary with the peer's fixed identity and data directory.
func (p *peer) start(extra ...string) {
	p.t.Helper()
	if p.cmd != nil {
		p.runs = append(p.runs, p.stderr.String())
	}
	args := append([]string{"--headless", "--name", fmt.Sprintf("p%d", p.i),
		"--identity", filepath.Join(p.dir, "id.key"), "--data", p.dataDir()}, p.args...)
	p.startCmd(os.Getenv(binEnv), append(args, extra...)...)
}

func (p *peer) startCmd(bin string, args ...string) {
	p.t.Helper()
	p.cmd = p.lan.Command(p.i, bin, args...)
	p.stdout, p.stderr = &testout.Buffer{}, &testout.Buffer{}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	p.done = make(chan struct{})
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	cmd, done := p.cmd, p.done
	go func() {
		err := cmd.Wait()
		p.err = err
		close(done)
	}()
	stdout, stderr, run := p.stdout, p.stderr, len(p.runs)
	p.t.Cleanup(func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
		keepLog(p.t, fmt.Sprintf("p%d-run%d", p.i, run), stdout.String()+"\n--- stderr\n"+stderr.String())
	})
}

// keepLog saves a process's output under $AEROPLANE_E2E_LOGDIR, if set, to
// read a failure in full.
func keepLog(t testing.TB, name, text string) {
	dir := os.Getenv("AEROPLANE_E2E_LOGDIR")
	if dir == "" {
		return
	}
	safe := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, safe+"-"+name+".log"), []byte(text), 0o644)
}

// kill9 is a crash: no goodbye, no flush, no deferred code.
func (p *peer) kill9() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatalf("kill -9 peer %d: %v", p.i, err)
	}
	<-p.done
}

func (p *peer) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wait waits for the process to end and returns its error.
func (p *peer) wait(within time.Duration) error {
	select {
	case <-p.done:
		return p.err
	case <-time.After(within):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("peer %d still running after %v", p.i, within)
	}
}

// waitLog waits until the stderr of the current process matches re and
// returns the match.
func (p *peer) waitLog(re *regexp.Regexp, within time.Duration) ([]string, error) {
	deadline := time.Now().Add(within)
	for {
		if m := re.FindStringSubmatch(p.stderr.String()); m != nil {
			return m, nil
		}
		if p.exited() {
			if m := re.FindStringSubmatch(p.stderr.String()); m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("peer %d exited (%v) before logging %q", p.i, p.err, re)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("peer %d logged no %q within %v", p.i, re, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *peer) mustLog(re *regexp.Regexp, within time.Duration) []string {
	p.t.Helper()
	m, err := p.waitLog(re, within)
	if err != nil {
		p.t.Fatalf("%v\n%s", err, p.report())
	}
	return m
}

// id is the peer ID the current process printed; short is how lockstep's
// events name it.
func (p *peer) id() string {
	p.t.Helper()
	m := p.mustLog(peerLine, 30*time.Second)
	return m[1]
}

// shortID is lockstep.ShortID of a peer ID as printed: its last 8
// characters, the form of every log line.
func shortID(id string) string {
	if len(id) > 12 {
		return id[len(id)-8:]
	}
	return id
}

// result is the peer's result line: ORDER, log path, hash.
type result struct{ order, log, hash string }

func (p *peer) result() (result, error) {
	m := resultLine.FindAllStringSubmatch(p.stdout.String(), -1)
	if m == nil {
		return result{}, fmt.Errorf("peer %d printed no result line; stdout %q", p.i, p.stdout.String())
	}
	last := m[len(m)-1]
	if !strings.HasPrefix(last[2], p.dataDir()) {
		return result{}, fmt.Errorf("peer %d: log %s is not under --data %s", p.i, last[2], p.dataDir())
	}
	return result{order: last[1], log: last[2], hash: last[3]}, nil
}

func (p *peer) report() string {
	return fmt.Sprintf("--- peer %d stderr (last 40 lines):\n%s", p.i, tail(p.stderr.String(), 40))
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// finishEqual waits for every peer in ps to exit 0 with a result line, and
// checks they all print the same order and hash over seats seats.
func finishEqual(t testing.TB, ps []*peer, seats int, within time.Duration) result {
	t.Helper()
	var first result
	for k, p := range ps {
		if err := p.wait(within); err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, err, p.report())
		}
		r, err := p.result()
		if err != nil {
			t.Fatalf("%v\n%s", err, p.report())
		}
		if len(r.order) != seats {
			t.Errorf("peer %d: ranking %q for %d seats", p.i, r.order, seats)
		}
		if k == 0 {
			first = r
		} else if r.order != first.order || r.hash != first.hash {
			t.Errorf("peer %d: result %s %s; peer %d: %s %s", p.i, r.order, r.hash, ps[0].i, first.order, first.hash)
			for _, q := range ps {
				t.Logf("peer %d fault events:\n%s", q.i, faultLines(q.stderr.String()))
			}
		}
	}
	return first
}

// startGame starts n headless peers in one lobby, the creator first so that
// the others join its lobby instead of racing to create their own.
func startGame(t testing.TB, lan *netlab.LAN, n int, lobby string, args ...string) []*peer {
	return startGameWith(t, lan, n, lobby, nil, args...)
}

// startGameWith is startGame with extra arguments for some peers.
func startGameWith(t testing.TB, lan *netlab.LAN, n int, lobby string, extra map[int][]string, args ...string) []*peer {
	t.Helper()
	var ps []*peer
	for i := range n {
		a := append([]string{"--bot", "random", "--lobby", lobby, "--players", fmt.Sprint(n)}, args...)
		p := newPeer(t, lan, i, append(a, extra[i]...)...)
		ps = append(ps, p)
		if i == 0 {
			p.start("--find-for", "200ms")
			p.mustLog(regexp.MustCompile(`lobby "`), 30*time.Second)
		} else {
			p.start()
		}
	}
	return ps
}

// movedRoll matches an applied move at roll 10 or later: the game is well
// under way.
var midGame = regexp.MustCompile(`event moved roll=([1-9][0-9]+) `)

func absentLine(short string) *regexp.Regexp {
	return regexp.MustCompile(`event absent peer=` + regexp.QuoteMeta(short) + ` `)
}

var faultEvent = regexp.MustCompile(`(?m)^.*(event (absent|returned|rolled-back|halted|state-mismatch|cheating|game-over)|peer (up|down)).*$`)

// faultLines picks the lines of a peer's log that tell a fault's story.
func faultLines(stderr string) string {
	return strings.Join(faultEvent.FindAllString(stderr, 60), "\n")
}
