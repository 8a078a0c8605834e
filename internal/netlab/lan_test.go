package netlab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as a tiny network tool run inside a peer's namespace
// (the machine has no ping): NETLAB_ROLE=listen serves TCP port 7000,
// NETLAB_ROLE=dial:ADDR connects to ADDR:7000 and exits 0 on success.
func TestMain(m *testing.M) {
	switch role := os.Getenv("NETLAB_ROLE"); {
	case role == "listen":
		ln, err := net.Listen("tcp4", ":7000")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("listening")
		for {
			c, err := ln.Accept()
			if err != nil {
				os.Exit(1)
			}
			c.Close()
		}
	case strings.HasPrefix(role, "dial:"):
		c, err := net.DialTimeout("tcp4", strings.TrimPrefix(role, "dial:")+":7000", time.Second)
		if err != nil {
			os.Exit(1)
		}
		c.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Peers on the LAN reach each other, a pulled cable cuts one off, and
// plugging it back heals it.
func TestLANPingAndLinkDown(t *testing.T) {
	if !Enter(t) {
		return
	}
	lan := NewLAN(t, 3)
	for i := range 3 {
		cmd := lan.Command(i, os.Args[0])
		cmd.Env = append(os.Environ(), "NETLAB_ROLE=listen")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		buf := make([]byte, 9)
		if _, err := out.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	ping := func(from, to int) error {
		cmd := lan.Command(from, os.Args[0])
		cmd.Env = append(os.Environ(), "NETLAB_ROLE=dial:"+lan.Addr(to).String())
		return cmd.Run()
	}
	for _, c := range []struct{ from, to int }{{0, 1}, {1, 2}, {2, 0}} {
		if err := ping(c.from, c.to); err != nil {
			t.Fatalf("ping %d -> %d: %v", c.from, c.to, err)
		}
	}
	lan.LinkDown(1)
	if err := ping(0, 1); err == nil {
		t.Fatal("ping through a pulled cable succeeded")
	}
	lan.LinkUp(1)
	if err := ping(0, 1); err != nil {
		t.Fatalf("ping after plugging back: %v", err)
	}
	// Before JoinHere the test's process is no machine of the LAN; after
	// it, it reaches the peers as one.
	if c, err := net.DialTimeout("tcp4", lan.Addr(2).String()+":7000", time.Second); err == nil {
		c.Close()
		t.Fatal("the test's process reached a peer before it joined the LAN")
	}
	if ip := lan.JoinHere(); ip.String() != "10.213.0.254" {
		t.Fatalf("JoinHere: %s", ip)
	}
	c, err := net.DialTimeout("tcp4", lan.Addr(2).String()+":7000", time.Second)
	if err != nil {
		t.Fatalf("the test's process on the LAN: %v", err)
	}
	c.Close()
	out, err := lan.Command(0, "ip", "-4", "addr", "show", "eth0").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "10.213.0.1/24") {
		t.Fatalf("peer 0 address: %v %s", err, out)
	}
}

// The test's own namespace is not the machine's: it has no interface but
// loopback and the LAN's bridge.
func TestEnterIsolates(t *testing.T) {
	if !Enter(t) {
		return
	}
	out, err := execOut("ip", "-o", "link", "show")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(out), "\n") + 1; n != 1 {
		t.Fatalf("fresh namespace has %d interfaces:\n%s", n, out)
	}
}

// The line a test binary prints on the terminal when it skips its
// namespace tests names the package, the reason and what to do.
func TestSkipLine(t *testing.T) {
	line := skipLine(errors.New("cannot create a network namespace: run as root"))
	for _, want := range []string{"netlab: netlab:", "SKIPPED", "cannot create a network namespace: run as root", "TESTING.md"} {
		if !strings.Contains(line, want) {
			t.Errorf("skip line %q lacks %q", line, want)
		}
	}
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Errorf("skip line %q: want exactly one line", line)
	}
}
