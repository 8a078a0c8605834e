package netlab

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// innerEnv marks a test process that already runs inside the namespace.
const innerEnv = "AEROPLANE_NETLAB_INNER"

// Inside reports whether this process runs in a namespace made by Enter.
func Inside() bool { return os.Getenv(innerEnv) == "1" }

// loopbackSetup gives the fresh namespace a loopback that carries multicast,
// as ../shared/netns-run does, then runs the test binary.
const loopbackSetup = `set -e
ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo
mkdir -p /run/netns && mount -t tmpfs netlab /run/netns
exec "$@"`

// Enter runs the calling test or benchmark again inside a fresh network and
// mount namespace and reports whether the caller is now inside it. The
// outer call waits for the inner run, fails tb if it failed, and returns
// false; the caller then returns at once:
//
//	if !netlab.Enter(t) { return }
//
// Only a top-level test or benchmark may call Enter.
func Enter(tb testing.TB) bool {
	tb.Helper()
	if Inside() {
		return true
	}
	if err := probe(); err != nil {
		Unavailable(tb, err)
		return false
	}
	name := tb.Name()
	args := []string{"--net", "--mount", "--fork", "--", "sh", "-c", loopbackSetup, "netlab", os.Args[0], "-test.v=true", "-test.count=1"}
	if _, ok := tb.(*testing.B); ok {
		args = append(args, "-test.run=^$", "-test.bench=^"+name+"$", "-test.benchmem")
		for _, f := range []string{"test.benchtime", "test.cpu"} {
			if fl := flag.Lookup(f); fl != nil && fl.Value.String() != "" {
				args = append(args, "-"+f+"="+fl.Value.String())
			}
		}
	} else {
		args = append(args, "-test.run=^"+name+"$")
	}
	for _, f := range []string{"test.timeout", "test.short", "update"} { // update: testkit's shared -update, for goldens written inside
		if fl := flag.Lookup(f); fl != nil {
			args = append(args, "-"+f+"="+fl.Value.String())
		}
	}
	cmd := exec.Command("unshare", args...)
	cmd.Env = append(os.Environ(), innerEnv+"=1")
	out, err := cmd.CombinedOutput()
	_, bench := tb.(*testing.B)
	if bench && err == nil {
		// The inner run's result lines are the benchmark's; the outer one
		// only waited, so it must not report a timing of its own.
		os.Stdout.Write(out)
		tb.Skip("measured in a private namespace: see the lines above")
	}
	// The inner run's own report, indented so it reads as part of ours.
	tb.Logf("inner run in a private namespace:\n%s", indent(string(out)))
	if err != nil {
		tb.Fatalf("inner run failed: %v", err)
	}
	if !strings.Contains(string(out), "\nPASS") && !strings.HasPrefix(string(out), "PASS") {
		tb.Fatalf("inner run did not pass")
	}
	if strings.Contains(string(out), "--- SKIP: "+name) {
		tb.Skipf("inner run skipped")
	}
	return false
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// probe checks that this machine lets us make the namespaces at all.
func probe() error {
	out, err := exec.Command("unshare", "--net", "--mount", "--fork", "--", "ip", "link", "show", "lo").CombinedOutput()
	if err != nil {
		return fmt.Errorf("cannot create a network namespace (%v: %s); run as root, or in CI fix the runner", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Unavailable fails tb in CI and skips it elsewhere: a test that needs a
// namespace must not silently pass where it is supposed to run. Outside CI
// it also says so once per test binary, in one line on the terminal:
// `go test ./...` shows nothing else of a package that passes, so a skip
// alone would go unseen.
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("netlab: %v", err)
	}
	sayOnce.Do(func() { sayOnTerminal(skipLine(err)) })
	tb.Skipf("netlab: %v (set CI to make this a failure)", err)
}

var sayOnce sync.Once

// skipLine is the one line a test binary prints when it skips the tests
// that need a network namespace.
func skipLine(err error) string {
	pkg := filepath.Base(os.Args[0])
	pkg = strings.TrimSuffix(pkg, ".test")
	return fmt.Sprintf("netlab: %s: tests that need a network namespace are SKIPPED: %v (TESTING.md)\n", pkg, err)
}

// sayOnTerminal writes line to the controlling terminal, if there is one
// (go test pipes the test binary's own output away when it passes).
func sayOnTerminal(line string) {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	_, _ = tty.WriteString(line)
}
