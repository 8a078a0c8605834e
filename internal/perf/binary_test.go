package perf

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
)

// lobbyKeys is the key hint of the lobby screen: once it is drawn, the
// lobby takes input.
const lobbyKeys = "c create game"

// The tmux harness sees what a command prints, and times it.
func TestScreen(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI has no tmux, which BenchmarkStartup/tmux needs:", err)
		}
		t.Skip("no tmux:", err)
	}
	s, err := NewScreen("perf-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.TimeTo("hello there", 2*time.Millisecond, 20*time.Second, "sh", "-c", "echo hello there; exec sleep 60")
	if err != nil {
		t.Fatal(err)
	}
	if d <= 0 {
		t.Fatalf("took %v", d)
	}
	if _, err := s.TimeTo("never printed", time.Millisecond, 50*time.Millisecond, "sleep", "60"); err == nil {
		t.Fatal("found text that was never printed")
	}
}

// BenchmarkStartup: the real binary (go build, default flags), in a
// private namespace, with fresh state and config dirs, from the fork until
// the lobby's key hint is on the terminal. "lan" is the default command,
// the LAN lobby (identity, libp2p host, mDNS), started inside a one-peer
// netlab LAN (a namespace with an eth0 on a bridge, as a machine on a LAN
// has) through `ip netns exec`; "offline" is `aeroplane --offline`, the
// lobby against bots, which builds no host. Two harnesses: "pty" reads the
// bytes the program writes to a pseudo-terminal (tight: the clock starts at
// the fork); "tmux" runs it in a tmux pane and polls capture-pane every
// millisecond, as a person would see it. floor-p50-ms is the same harness
// and the same prefix (ip netns exec) showing a line from sh: the
// program's own share is p50 minus the floor.
func BenchmarkStartup(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	bin := aeroplaneBinary(b)
	lan := netlab.NewLAN(b, 1)
	home := b.TempDir()
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "TERM=xterm-256color", "LANG=C.UTF-8", "PATH=" + os.Getenv("PATH")}
	floorCmd := []string{"sh", "-c", "echo floor ready; exec sleep 60"}
	inLAN := func(argv ...string) []string {
		return append([]string{"ip", "netns", "exec", lan.Namespace(0)}, argv...)
	}
	modes := []struct {
		name        string
		floor, argv []string
	}{
		{"lan", inLAN(floorCmd...), inLAN(bin)},
		{"offline", floorCmd, []string{bin, "--offline"}},
	}
	for _, m := range modes {
		b.Run("pty/"+m.name, func(b *testing.B) {
			var cpu, wait []time.Duration
			run := func(want string, prog bool, argv ...string) time.Duration {
				out, err := TimeToOutput(want, 20*time.Second, env, argv...)
				if err != nil {
					b.Fatal(err)
				}
				if prog {
					cpu, wait = append(cpu, out.OnCPU), append(wait, out.Waiting)
				}
				return out.Wall
			}
			reportStartup(b, func() time.Duration { return run("floor ready", false, m.floor...) }, func() time.Duration { return run(lobbyText, true, m.argv...) })
			c, w := Summarize(cpu), Summarize(wait)
			b.Logf("on a CPU:      %v\nin a run queue: %v", c, w)
			b.ReportMetric(ms(c.P50), "oncpu-p50-ms")
			b.ReportMetric(ms(w.P50), "runq-p50-ms")
		})
	}
	for _, m := range modes {
		b.Run("tmux/"+m.name, func(b *testing.B) {
			if _, err := exec.LookPath("tmux"); err != nil {
				b.Skip("no tmux:", err)
			}
			s, err := NewScreen("perf-startup-"+m.name, env)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			run := func(want string, argv ...string) time.Duration {
				d, err := s.TimeTo(want, time.Millisecond, 20*time.Second, argv...)
				if err != nil {
					b.Fatal(err)
				}
				return d
			}
			reportStartup(b, func() time.Duration { return run("floor ready", m.floor...) }, func() time.Duration { return run(lobbyKeys, m.argv...) })
		})
	}
}

// lobbyText is a run of the lobby's key hint that tcell writes in one
// style, so it shows up whole in the terminal's byte stream.
const lobbyText = "create game"

func reportStartup(b *testing.B, floorRun, lobbyRun func() time.Duration) {
	var floor, start []time.Duration
	for range 10 {
		floor = append(floor, floorRun())
	}
	for b.Loop() {
		start = append(start, lobbyRun())
	}
	f, st := Summarize(floor), Summarize(start)
	b.Logf("harness floor: %v\nto the lobby:  %v", f, st)
	b.ReportMetric(ms(st.P50), "p50-ms")
	b.ReportMetric(ms(st.P95), "p95-ms")
	b.ReportMetric(ms(f.P50), "floor-p50-ms")
	reportLoad(b)
}

// BenchmarkPeerMemory: four real headless peers (the built binary, random
// bots), each in its own namespace on a private bridge, find each other by
// mDNS and play a whole game; their VmRSS is sampled every 20 ms and their
// VmHWM read at the last sample. One op is one game.
func BenchmarkPeerMemory(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	bin := aeroplaneBinary(b)
	var rss, hwm []int64
	for b.Loop() {
		r, h := headlessGameMemory(b, bin, 4)
		rss, hwm = append(rss, r...), append(hwm, h...)
	}
	maxOf := func(xs []int64) int64 {
		m := int64(0)
		for _, x := range xs {
			m = max(m, x)
		}
		return m
	}
	b.Logf("per-peer peak VmRSS %v, VmHWM %v (MiB)", mib(rss), mib(hwm))
	b.ReportMetric(float64(maxOf(rss))/(1<<20), "max-rss-MiB")
	b.ReportMetric(float64(maxOf(hwm))/(1<<20), "max-hwm-MiB")
	b.ReportMetric(0, "ns/op")
	reportLoad(b)
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func mib(xs []int64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.1f", float64(x)/(1<<20)))
	}
	return strings.Join(parts, " ")
}

// headlessGameMemory plays one game of n headless peers and returns each
// peer's peak VmRSS and last VmHWM.
func headlessGameMemory(b *testing.B, bin string, n int) (rss, hwm []int64) {
	lan := netlab.NewLAN(b, n)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmds := make([]*exec.Cmd, n)
	outs, errs := make([]bytes.Buffer, n), make([]bytes.Buffer, n)
	for i := range n {
		dir := b.TempDir()
		// ip netns exec execs the binary in place: the PID is the peer's.
		cmd := exec.CommandContext(ctx, "ip", "netns", "exec", lan.Namespace(i), bin, "--headless", "--bot", "random",
			"--name", fmt.Sprintf("p%d", i), "--lobby", "perf", "--players", fmt.Sprint(n),
			"--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"))
		cmd.Env = append(os.Environ(), "HOME="+dir)
		cmd.Stdout, cmd.Stderr = &outs[i], &errs[i]
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds[i] = cmd
	}
	rss, hwm = make([]int64, n), make([]int64, n)
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			mu.Lock()
			for i, c := range cmds {
				if m, err := ReadMemory(c.Process.Pid); err == nil && m.HWM > 0 {
					rss[i], hwm[i] = max(rss[i], m.RSS), max(hwm[i], m.HWM)
				}
			}
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	var failed []string
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			failed = append(failed, fmt.Sprintf("peer %d: %v (peak VmRSS so far %.1f MiB)\n%s", i, err, float64(rss[i])/(1<<20), tailLines(errs[i].String(), 15)))
		}
	}
	close(stop)
	wg.Wait()
	if failed != nil {
		b.Fatalf("the headless game did not finish:\n%s", strings.Join(failed, "\n"))
	}
	for i := range n {
		if rss[i] == 0 {
			b.Fatalf("peer %d: no memory sample", i)
		}
	}
	return rss, hwm
}

// BenchmarkBinarySize: go build of the command, default flags and
// -trimpath -ldflags='-s -w'; one op is one (mostly cached) build.
func BenchmarkBinarySize(b *testing.B) {
	for _, v := range []struct {
		name string
		args []string
	}{
		{"default", nil},
		{"stripped", []string{"-trimpath", "-ldflags=-s -w"}},
	} {
		b.Run(v.name, func(b *testing.B) {
			dir := b.TempDir()
			var size int64
			for b.Loop() {
				var err error
				if _, size, err = testkit.BuildBinary(dir, "aeroplane", "aeroplane", v.args...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size)/(1<<20), "MiB")
			b.ReportMetric(float64(size), "bytes")
			reportLoad(b)
		})
	}
}
