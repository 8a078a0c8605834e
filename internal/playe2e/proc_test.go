package playe2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
)

var resultLine = regexp.MustCompile(`(?m)^result ([RBYG]{2,4}) log=(\S+) hash=([0-9a-f]{64})$`)

// headless is `aeroplane --headless` in peer i's namespace of the LAN.
type headless struct {
	name           string
	stdout, stderr testout.Buffer
	done           chan error
}

func startHeadless(t *testing.T, lan *netlab.LAN, i int, args ...string) *headless {
	t.Helper()
	return startHeadlessIn(t, lan, i, t.TempDir(), args...)
}

// startHeadlessIn is startHeadless with the identity and data kept in
// dir, so that a restart in the same dir is the same player.
func startHeadlessIn(t *testing.T, lan *netlab.LAN, i int, dir string, args ...string) *headless {
	t.Helper()
	h := &headless{name: fmt.Sprintf("p%d", i), done: make(chan error, 1)}
	all := append([]string{"--headless", "--name", h.name, "--identity", filepath.Join(dir, "id.key"),
		"--data", filepath.Join(dir, "data")}, args...)
	cmd := lan.Command(i, binary(), all...)
	cmd.Stdout, cmd.Stderr = &h.stdout, &h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- cmd.Wait() }()
	t.Cleanup(func() {
		select {
		case <-h.done:
		default:
			cmd.Process.Kill()
			<-h.done
		}
	})
	return h
}

// waitLog polls the peer's stderr for a line containing want.
func (h *headless) waitLog(t *testing.T, want string, attempts int) {
	t.Helper()
	for range attempts {
		if strings.Contains(h.stderr.String(), want) {
			return
		}
		time.Sleep(poll)
	}
	t.Fatalf("%s never logged %q:\n%s", h.name, want, tail(h.stderr.String(), 20))
}

// result waits for the peer to finish and returns its finishing order and
// history hash.
func (h *headless) result(t *testing.T, within time.Duration) (order, hash string) {
	t.Helper()
	select {
	case err := <-h.done:
		h.done <- err // keep it for the cleanup
		if err != nil {
			t.Fatalf("%s: %v\n%s", h.name, err, tail(h.stderr.String(), 20))
		}
	case <-time.After(within):
		t.Fatalf("%s still playing after %v:\n%s", h.name, within, tail(h.stderr.String(), 20))
	}
	m := resultLine.FindStringSubmatch(h.stdout.String())
	if m == nil {
		t.Fatalf("%s printed no result line: %q", h.name, h.stdout.String())
	}
	return m[1], m[3]
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
