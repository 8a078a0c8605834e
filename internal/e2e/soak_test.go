package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// soakSample is one peer's progress line after one game.
type soakSample struct {
	goroutines int
	heap, rss  float64 // MiB: live heap after a collection, resident set
}

var progressLine = regexp.MustCompile(`progress game=(\d+)/\d+ goroutines=(\d+) heap=([0-9.]+)MiB rss=([0-9.]+)MiB`)

// soakProc is one real aeroplane process playing --games N in its own
// namespace. Its output is read line by line (a 300-game stderr is tens
// of megabytes: the test keeps only the results, the progress series and
// a tail for failure reports).
type soakProc struct {
	i       int
	dir     string
	cmd     *exec.Cmd
	results chan result
	done    chan struct{}
	err     error

	mu     sync.Mutex
	series []soakSample
	tail   []string
}

func startSoakProc(t *testing.T, lan *netlab.LAN, i int, args ...string) *soakProc {
	t.Helper()
	p := &soakProc{i: i, dir: t.TempDir(), results: make(chan result, 1024), done: make(chan struct{})}
	all := append([]string{"--headless", "--name", fmt.Sprintf("p%d", i),
		"--identity", filepath.Join(p.dir, "id.key"), "--data", filepath.Join(p.dir, "data")}, args...)
	p.cmd = lan.Command(i, os.Getenv(binEnv), all...)
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		p.readStdout(stdout)
	}()
	go func() {
		defer readers.Done()
		p.readStderr(stderr)
	}()
	go func() {
		readers.Wait() // Wait closes the pipes: read them to the end first
		p.err = p.cmd.Wait()
		close(p.results)
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		keepLog(t, fmt.Sprintf("p%d-tail", i), p.report())
	})
	return p
}

func (p *soakProc) readStdout(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := resultLine.FindStringSubmatch(sc.Text()); m != nil {
			p.results <- result{order: m[1], log: m[2], hash: m[3]}
		}
	}
}

func (p *soakProc) readStderr(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		if m := progressLine.FindStringSubmatch(line); m != nil {
			g, _ := strconv.Atoi(m[2])
			heap, _ := strconv.ParseFloat(m[3], 64)
			rss, _ := strconv.ParseFloat(m[4], 64)
			p.series = append(p.series, soakSample{goroutines: g, heap: heap, rss: rss})
		}
		p.tail = append(p.tail, line)
		if len(p.tail) > 400 {
			p.tail = append([]string(nil), p.tail[200:]...)
		}
		p.mu.Unlock()
	}
}

func (p *soakProc) report() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	lines := p.tail
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	s := fmt.Sprintf("--- peer %d stderr (last %d lines):\n", p.i, len(lines))
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

// next waits for the peer's next result line.
func (p *soakProc) next(within time.Duration) (result, error) {
	select {
	case r, ok := <-p.results:
		if !ok {
			return result{}, fmt.Errorf("peer %d exited (%v) before its next result", p.i, p.err)
		}
		return r, nil
	case <-time.After(within):
		return result{}, fmt.Errorf("peer %d printed no result within %v", p.i, within)
	}
}

// Four real aeroplane processes, each in its own network namespace on a
// bridge, play N bot games in a row over libp2p without a restart
// (headless --games N: one lobby, then rematches). Every game ends with one
// ranking and history on all four, and each process's goroutines, live
// heap and resident memory stay flat (see soakFlat). CI plays 3 games;
// -e2e.soak plays 300 and prints the series.
func TestSoakGamesInARow(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	games := 3
	if soak() {
		games = 300
	}
	lan := netlab.NewLAN(t, 4)
	var ps []*soakProc
	for i := range 4 {
		args := []string{"--bot", "random", "--lobby", "soak", "--players", "4", "--games", fmt.Sprint(games)}
		if i == 0 {
			args = append(args, "--find-for", "200ms")
		}
		ps = append(ps, startSoakProc(t, lan, i, args...))
		if i == 0 {
			// The creator first, so that the others join its lobby.
			waitTail(t, ps[0], regexp.MustCompile(`lobby "`), 30*time.Second)
		}
	}
	start := time.Now()
	seriesFile := os.Getenv("AEROPLANE_E2E_SERIES")
	for g := 1; g <= games; g++ {
		var first result
		for k, p := range ps {
			r, err := p.next(3 * time.Minute)
			if err != nil {
				t.Fatalf("game %d: %v\n%s", g, err, p.report())
			}
			if len(r.order) != 4 {
				t.Errorf("game %d: peer %d ranking %q for 4 seats", g, p.i, r.order)
			}
			if k == 0 {
				first = r
			} else if r.order != first.order || r.hash != first.hash {
				t.Fatalf("game %d: peer %d result %s %s; peer 0 %s %s\n%s", g, p.i, r.order, r.hash, first.order, first.hash, p.report())
			}
		}
		for _, p := range ps {
			// The progress line follows the result line on another stream.
			waitSeries(p, g, 10*time.Second)
		}
		line := fmt.Sprintf("game %3d %s:%s %.1fs", g, first.hash[:12], soakRow(ps, g-1), time.Since(start).Seconds())
		if seriesFile != "" {
			// The inner run's output shows only at its end: keep the series
			// readable while a long soak runs.
			if f, err := os.OpenFile(seriesFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(f, line)
				f.Close()
			}
		}
		if g == 1 || g%25 == 0 || g == games {
			t.Log(line)
		}
	}
	for _, p := range ps {
		select {
		case <-p.done:
		case <-time.After(time.Minute):
			t.Fatalf("peer %d still running after its %d games\n%s", p.i, games, p.report())
		}
		if p.err != nil {
			t.Fatalf("peer %d: %v\n%s", p.i, p.err, p.report())
		}
		p.mu.Lock()
		series := p.series
		p.mu.Unlock()
		if len(series) != games {
			t.Fatalf("peer %d printed %d progress lines for %d games", p.i, len(series), games)
		}
		if err := soakFlat(series); err != nil {
			t.Errorf("peer %d: %v", p.i, err)
		}
		t.Logf("peer %d: %s", p.i, soakSummary(series))
	}
	t.Logf("%d games in %.0fs (%.1fs per game)", games, time.Since(start).Seconds(), time.Since(start).Seconds()/float64(games))
}

// waitTail waits until a line of p's stderr matches re.
func waitTail(t *testing.T, p *soakProc, re *regexp.Regexp, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, l := range p.tail {
			if re.MatchString(l) {
				p.mu.Unlock()
				return
			}
		}
		p.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("peer %d logged no %q within %v\n%s", p.i, re, within, p.report())
}

// waitSeries waits until p printed at least n progress lines.
func waitSeries(p *soakProc, n int, within time.Duration) {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		got := len(p.series)
		p.mu.Unlock()
		if got >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// soakRow is every peer's sample after game index g, for the series file.
func soakRow(ps []*soakProc, g int) string {
	s := ""
	for _, p := range ps {
		p.mu.Lock()
		if g < len(p.series) {
			x := p.series[g]
			s += fmt.Sprintf(" p%d g=%d heap=%.1f rss=%.1f", p.i, x.goroutines, x.heap, x.rss)
		}
		p.mu.Unlock()
	}
	return s
}

// Flat, for one process: over the last window of games (50 of 300, a
// third of a short run), the maximum of each measure is at most the
// maximum over the first window plus a margin of about three times the
// noise a 300-game run showed (per process: goroutines within 4, live heap
// within 0.4 MiB, RSS within 3 MiB):
//   - goroutines +10: libp2p's housekeeping (dials, stream handlers,
//     timers) moves the count by a few; a leak of one goroutine per game
//     would add ~250 between the windows, one per 25 games ~10.
//   - live heap (after a GC) +4 MiB: a finished game's state is
//     ~100 KiB (its log and node); keeping every game would add ~25 MiB.
//   - resident memory x1.1 +8 MiB: the Go runtime returns freed pages to
//     the kernel lazily, so RSS lags and is noisier than the heap; it is
//     the backstop for memory outside the Go heap.
//
// Comparing maxima of windows, not single games, keeps one busy sample
// (a game in its linger, a collection in flight) from deciding.
func soakFlat(series []soakSample) error {
	w := min(50, max(1, len(series)/3))
	early, late := series[:w], series[len(series)-w:]
	peak := func(ss []soakSample) (s soakSample) {
		for _, x := range ss {
			s.goroutines = max(s.goroutines, x.goroutines)
			s.heap = max(s.heap, x.heap)
			s.rss = max(s.rss, x.rss)
		}
		return s
	}
	e, l := peak(early), peak(late)
	switch {
	case l.goroutines > e.goroutines+10:
		return fmt.Errorf("goroutines grow: up to %d in the first %d games, %d in the last %d", e.goroutines, w, l.goroutines, w)
	case l.heap > e.heap+4:
		return fmt.Errorf("live heap grows: up to %.1f MiB in the first %d games, %.1f MiB in the last %d", e.heap, w, l.heap, w)
	case l.rss > e.rss*1.1+8:
		return fmt.Errorf("resident memory grows: up to %.1f MiB in the first %d games, %.1f MiB in the last %d", e.rss, w, l.rss, w)
	}
	return nil
}

// soakSummary is the first, middle and last samples of a series.
func soakSummary(series []soakSample) string {
	s := ""
	for _, k := range []int{0, len(series) / 2, len(series) - 1} {
		x := series[k]
		s += fmt.Sprintf(" game %d: goroutines=%d heap=%.1fMiB rss=%.1fMiB;", k+1, x.goroutines, x.heap, x.rss)
	}
	return s
}

// soakFlat accepts noise and rejects leaks of the sizes its comment names.
func TestSoakFlat(t *testing.T) {
	t.Parallel()
	flat := func(n int, f func(k int) soakSample) []soakSample {
		var ss []soakSample
		for k := range n {
			ss = append(ss, f(k))
		}
		return ss
	}
	base := soakSample{goroutines: 60, heap: 4, rss: 40}
	for _, c := range []struct {
		name   string
		series []soakSample
		ok     bool
	}{
		{"constant", flat(300, func(int) soakSample { return base }), true},
		{"noise", flat(300, func(k int) soakSample {
			return soakSample{goroutines: 60 + k%7, heap: 4 + float64(k%5)/2, rss: 40 + float64(k%11)}
		}), true},
		{"warm-up then flat", flat(300, func(k int) soakSample {
			return soakSample{goroutines: 60, heap: 4, rss: 30 + float64(min(k, 20))}
		}), true},
		{"a goroutine per game", flat(300, func(k int) soakSample { return soakSample{60 + k, 4, 40} }), false},
		{"a goroutine per ten games", flat(300, func(k int) soakSample { return soakSample{60 + k/10, 4, 40} }), false},
		{"100 KiB of heap per game", flat(300, func(k int) soakSample { return soakSample{60, 4 + float64(k)/10, 40} }), false},
		{"RSS per game", flat(300, func(k int) soakSample { return soakSample{60, 4, 40 + float64(k)/5} }), false},
		{"short run, flat", flat(3, func(int) soakSample { return base }), true},
		{"short run, leak", flat(3, func(k int) soakSample { return soakSample{60 + 30*k, 4, 40} }), false},
	} {
		if err := soakFlat(c.series); (err == nil) != c.ok {
			t.Errorf("%s: soakFlat says %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
