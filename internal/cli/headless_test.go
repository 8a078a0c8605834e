package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
	"aeroplane/lockstep"
	"aeroplane/savegame"
)

// With AEROPLANE_AS_MAIN set, the test binary is aeroplane itself, so the
// LAN tests can start real headless peers without building the binary.
func init() {
	if os.Getenv("AEROPLANE_AS_MAIN") == "" {
		return
	}
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

var resultLine = regexp.MustCompile(`^result ([RBYG]{2,4}) log=(\S+) hash=([0-9a-f]{64})$`)

type headlessRun struct {
	cmd            *exec.Cmd
	stdout, stderr testout.Buffer
	dir            string
	log            string // stderr when it was stopped for running too long
}

// startHeadless runs a headless peer in peer i's namespace.
func startHeadless(t testing.TB, lan *netlab.LAN, i int, args ...string) *headlessRun {
	return startHeadlessIn(t, lan, i, t.TempDir(), args...)
}

func startHeadlessIn(t testing.TB, lan *netlab.LAN, i int, dir string, args ...string) *headlessRun {
	r := &headlessRun{dir: dir}
	all := append([]string{"--headless", "--name", fmt.Sprintf("p%d", i),
		"--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data")}, args...)
	r.cmd = lan.Command(i, os.Args[0], all...)
	r.cmd.Env = append(os.Environ(), "AEROPLANE_AS_MAIN=1")
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *headlessRun) wait(t testing.TB, within time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		// SIGQUIT rather than a kill: the Go runtime prints every
		// goroutine's stack, which says where a stuck peer waits. The
		// failure shows the log before it (r.log); the stacks go to a
		// file when AEROPLANE_TEST_DUMP names a directory.
		r.log = r.stderr.String()
		r.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			r.cmd.Process.Kill()
			<-done
		}
		if d := os.Getenv("AEROPLANE_TEST_DUMP"); d != "" {
			f := filepath.Join(d, fmt.Sprintf("%s-%d.txt", strings.ReplaceAll(t.Name(), "/", "_"), time.Now().UnixNano()))
			if err := os.WriteFile(f, []byte(r.stderr.String()), 0o644); err != nil {
				t.Log(err)
			}
		}
		return fmt.Errorf("still running after %v", within)
	}
}

// result checks the last stdout line and returns order and hash.
func (r *headlessRun) result(t testing.TB) (string, string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stdout.String()), "\n")
	m := resultLine.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("last stdout line %q is not a result line", lines[len(lines)-1])
	}
	if !strings.HasPrefix(m[2], r.dir) {
		t.Errorf("log %s is not under --data", m[2])
	}
	if _, err := os.Stat(m[2]); err != nil {
		t.Errorf("log: %v", err)
	}
	return m[1], m[3]
}

// playLANGame runs players headless peers (one per namespace, found by
// mDNS alone) and returns their runs after checking they agree.
func playLANGame(t testing.TB, players, bots int) []*headlessRun {
	lan := netlab.NewLAN(t, players)
	var runs []*headlessRun
	for i := range players {
		runs = append(runs, startHeadless(t, lan, i, "--bot", "random", "--lobby", "lan game",
			"--players", fmt.Sprint(players), "--bots", fmt.Sprint(bots)))
	}
	if order, _ := sameResults(t, runs); len(order) != players+bots {
		t.Errorf("ranking %q for %d seats", order, players+bots)
	}
	return runs
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Four headless peers, each in its own namespace on a private LAN, find
// each other by mDNS alone, form a lobby, play a whole game and print the
// same result and hash; the log each wrote verifies.
func TestHeadlessFourPeersLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	runs := playLANGame(t, 4, 0)
	_, hash := runs[0].result(t)
	for i, r := range runs {
		if !strings.Contains(r.stderr.String(), "event game-over") {
			t.Errorf("peer %d logged no game-over event", i)
		}
	}
	// The log verifies offline and ends on the same history.
	m := resultLine.FindStringSubmatch(strings.TrimSpace(runs[2].stdout.String()))
	var out, errb bytes.Buffer
	if code := Main([]string{"verify", m[2]}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("verify: %d %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "history "+hash) {
		t.Errorf("verify output does not end on hash %s:\n%s", hash, out.String())
	}
}

// Two peers and two bot seats: the creator's --bots fill seats.
func TestHeadlessTwoPeersTwoBotsLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	playLANGame(t, 2, 2)
}

func TestHeadlessUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--headless"}, "--lobby"},
		{[]string{"--headless", "--lobby", "x", "--players", "3", "--bots", "2"}, "2 to 4 seats"},
		{[]string{"--headless", "--lobby", "x", "--bot", "nosuch"}, "--bot"},
		{[]string{"--headless", "--lobby", "x", "--rules", "nonsense=1"}, "--rules"},
		{[]string{"--headless", "--lobby", "x", "extra"}, "unexpected argument"},
		{[]string{"--headless", "--lobby", "x", "--web", "127.0.0.1:0", "--no-web"}, "give one"},
		{[]string{"--headless", "--take-seat", "x", "--lobby", "x"}, "without --lobby"},
		{[]string{"--headless", "--take-seat", "x", "--spectate", "x"}, "without --lobby and --spectate"},
		{[]string{"--headless", "--take-seat", ":Blue"}, "--take-seat names the lobby"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// --take-seat LOBBY[:COLOUR]: a colour after the last colon, by name or
// letter in any case; anything else after it is part of the lobby.
func TestSplitTakeSeat(t *testing.T) {
	for _, c := range []struct {
		in, lobby string
		colour    engine.Colour
	}{
		{"late", "late", engine.NoColour},
		{"late:Blue", "late", engine.Blue},
		{"late:g", "late", engine.Green},
		{"late:RED", "late", engine.Red},
		{"a:b:yellow", "a:b", engine.Yellow},
		{"late:purple", "late:purple", engine.NoColour},
		{"late:", "late:", engine.NoColour},
	} {
		lobby, colour := splitTakeSeat(c.in)
		if lobby != c.lobby || colour != c.colour {
			t.Errorf("%q: %q %s, want %q %s", c.in, lobby, colour, c.lobby, c.colour)
		}
	}
}

// A peer killed with SIGKILL in the middle of a game restarts with the same
// identity and data directory, resumes the game from its log, and finishes
// it with the same result and hash as the others.
func TestHeadlessCrashAndResumeLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	args := []string{"--bot", "random", "--lobby", "crash", "--players", "3", "--think", "30ms"}
	var runs []*headlessRun
	for i := range 3 {
		runs = append(runs, startHeadless(t, lan, i, args...))
	}
	victim := runs[1]
	deadline := time.Now().Add(time.Minute)
	for strings.Count(victim.stderr.String(), "event moved") < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("the game never got going:\n%s", tail(victim.stderr.String(), 20))
		}
		time.Sleep(50 * time.Millisecond)
	}
	victim.cmd.Process.Kill()
	victim.cmd.Wait()
	time.Sleep(500 * time.Millisecond)
	runs[1] = startHeadlessIn(t, lan, 1, victim.dir, args...)
	sameResults(t, runs)
	if !strings.Contains(runs[1].stderr.String(), "resuming from") {
		t.Errorf("the restarted peer did not resume:\n%s", tail(runs[1].stderr.String(), 20))
	}
}

// BenchmarkHeadlessFourPeersLAN: a whole game of four headless bot peers,
// each in its own namespace, from start (discovery, lobby) to the last
// result line, with no think time. Run with -benchtime=Nx.
func BenchmarkHeadlessFourPeersLAN(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	var play, moves float64
	for range b.N {
		runs := playLANGame(b, 4, 0)
		p, m := gamePhase(runs[0].stderr.String())
		play += p
		moves += m
	}
	b.ReportMetric(play/float64(b.N), "s-play/game")
	b.ReportMetric(moves/float64(b.N), "moves/game")
}

// gamePhase reads a headless log (each line stamped with seconds since
// start) for the time from "game ... starting" to "game-over" and the
// number of moves.
func gamePhase(log string) (seconds, moves float64) {
	var start, end float64
	for _, l := range strings.Split(log, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.HasSuffix(f[0], "s") {
			continue
		}
		at, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "s"), 64)
		if err != nil {
			continue
		}
		switch {
		case f[1] == "game" && strings.Contains(l, "starting"):
			start = at
		case strings.Contains(l, "event game-over"):
			end = at
		case strings.Contains(l, "event moved"):
			moves++
		}
	}
	return end - start, moves
}

// A restart finds its place in a --games run from --data: the game a
// crash cut short (numbered by the run pointer), else the rematch after the
// game the pointer names if that game ended within savegame.ResumeWithin
// and was not the run's last, else game 1 from the lobby (and the pointer
// is gone).
func TestFindPlace(t *testing.T) {
	full, err := os.ReadFile("../../lockstep/testdata/game.log")
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(full)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := lockstep.ParseLog(full)
	half := full[:recs[len(recs)/2].Offset]
	gid := v.GameID.String()
	lobby, self := v.Setup.Name, v.Setup.Players()[0]
	other := lockstep.GameID{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	for _, c := range []struct {
		name   string
		run    *savegame.Run
		log    []byte
		age    time.Duration
		games  int
		resume bool
		rejoin bool
		number int
	}{
		{"unfinished, game 7", &savegame.Run{Game: gid, Number: 7}, half, 0, 9, true, false, 7},
		{"finished, game 7 of 9", &savegame.Run{Game: gid, Number: 7}, full, 0, 9, false, true, 8},
		{"finished, game 7 of 7", &savegame.Run{Game: gid, Number: 7}, full, 0, 7, false, false, 1},
		{"finished two hours ago", &savegame.Run{Game: gid, Number: 7}, full, 2 * time.Hour, 9, false, false, 1},
		{"unfinished, no run pointer", nil, half, 0, 9, true, false, 1},
		{"unfinished, the pointer names another game", &savegame.Run{Game: other.String(), Number: 3}, half, 0, 9, true, false, 1},
		{"finished, no run pointer", nil, full, 0, 9, false, false, 1},
		// The rematch after gid was set up but logged nothing: the next table.
		{"rematch not begun", &savegame.Run{Game: other.String(), Number: 8, Prev: gid}, full, 0, 10, false, true, 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, err := savegame.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if c.run != nil {
				if err := dir.SetRun(lobby, *c.run); err != nil {
					t.Fatal(err)
				}
			}
			for name, data := range map[string][]byte{
				dir.LogPath(v.GameID): c.log,
				strings.TrimSuffix(dir.LogPath(v.GameID), ".log") + ".secret": make([]byte, 32),
				dir.LogPath(other): lockstep.LogHeader()[:5],
			} {
				if err := os.WriteFile(name, data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var stderr bytes.Buffer
			pl, err := findPlace(dir, self, lobby, time.Now().Add(c.age), c.games, &headlessLog{e: &env{stderr: &stderr}, t0: time.Now()})
			if err != nil {
				t.Fatalf("findPlace: %v (%s)", err, stderr.String())
			}
			if (pl.resume != nil) != c.resume || pl.rejoin != c.rejoin || pl.number != c.number {
				t.Errorf("resume %v rejoin %v game %d; want resume %v rejoin %v game %d (%s)",
					pl.resume != nil, pl.rejoin, pl.number, c.resume, c.rejoin, c.number, stderr.String())
			}
			if c.resume && pl.resume != nil && pl.resume.Setup.GameID() != v.GameID {
				t.Errorf("resumes %s, want %s", pl.resume.Setup.GameID(), v.GameID)
			}
			if run, _ := dir.Run(lobby); !c.resume && !c.rejoin && run.Number != 0 {
				t.Errorf("a new run keeps the old pointer %v", run)
			}
		})
	}
}

// peerWait is how long a LAN test waits for its peers to finish a game
// (AEROPLANE_TEST_WAIT shortens it when hunting a stall).
var peerWait = 3 * time.Minute

func init() {
	if d, err := time.ParseDuration(os.Getenv("AEROPLANE_TEST_WAIT")); err == nil && d > 0 {
		peerWait = d
	}
}

// sameResults waits for every run to end and checks they all print the
// same result line; it returns peer 0's order and hash.
func sameResults(t testing.TB, runs []*headlessRun) (order, hash string) {
	t.Helper()
	// Wait for all at once: when one is stuck the others' logs say why, so
	// every peer's stderr is printed on failure, not just the first's.
	errs := make([]error, len(runs))
	done := make(chan struct{})
	for i, r := range runs {
		go func() {
			errs[i] = r.wait(t, peerWait)
			done <- struct{}{}
		}()
	}
	for range runs {
		<-done
	}
	failed := false
	for _, err := range errs {
		failed = failed || err != nil
	}
	if failed {
		var b strings.Builder
		for i, r := range runs {
			log := r.log
			if log == "" {
				log = r.stderr.String()
			}
			fmt.Fprintf(&b, "peer %d: %v\nstderr:\n%s\n", i, errs[i], tail(log, 40))
		}
		t.Fatal(b.String())
	}
	for i, r := range runs {
		o, h := r.result(t)
		if i == 0 {
			order, hash = o, h
		} else if o != order || h != hash {
			t.Errorf("peer %d: result %s %s, peer 0: %s %s", i, o, h, order, hash)
		}
	}
	return order, hash
}

// An identity path that is not a key file stops the program at once with
// an error naming it and --identity, before any network is started (it
// used to loop for ever on a dangling link and block on a FIFO).
func TestHeadlessIdentityNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.key")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.key")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{{fifo, "a FIFO"}, {dangling, "a symbolic link"}} {
		var out, errb bytes.Buffer
		code := Main([]string{"--headless", "--lobby", "x", "--identity", c.path, "--data", t.TempDir()}, strings.NewReader(""), &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "--identity") {
			t.Errorf("--identity %s: exit %d, stderr %q; want an error saying %q", c.path, code, errb.String(), c.want)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".identity-*")); len(left) != 0 {
			t.Errorf("temporary files left: %v", left)
		}
	}
}

// A second program on a data directory another holds stops at once with
// one clear error, before any network.
func TestHeadlessDataDirInUse(t *testing.T) {
	dir := t.TempDir()
	if err := checkDataDir(dir); err != nil { // this process holds it now
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "--headless", "--lobby", "x", "--data", dir, "--identity", filepath.Join(t.TempDir(), "id.key"))
	cmd.Env = append(os.Environ(), "AEROPLANE_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "another aeroplane is using this data directory") || strings.Count(string(out), "--data") != 1 {
		t.Errorf("second program: %v, output %q: want one error naming --data once", err, out)
	}
}

// A second program playing as the identity this one holds, with a data
// directory of its own, stops with one error that names --identity and
// what to do, before any network starts.
func TestHeadlessIdentityInUse(t *testing.T) {
	id := filepath.Join(t.TempDir(), "id.key")
	if _, err := loadIdentity(id); err != nil { // this process holds it now
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "--headless", "--lobby", "x", "--data", t.TempDir(), "--identity", id)
	cmd.Env = append(os.Environ(), "AEROPLANE_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "another aeroplane is playing as this identity") ||
		strings.Count(string(out), "--identity") != 1 || strings.Contains(string(out), "Usage") {
		t.Errorf("second program: %v, output %q: want one error naming --identity once", err, out)
	}
}

// Two headless peers and two bots; one peer is killed with SIGKILL
// mid-game and never comes back. The other is no majority alone, goes on
// by itself (GoOnAlone: a bot flies the missing seat), prints its result
// line, and its log verifies.
func TestHeadlessPeerGoneForGoodLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	args := []string{"--bot", "random", "--lobby", "gone", "--players", "2", "--bots", "2", "--think", "30ms"}
	runs := []*headlessRun{startHeadless(t, lan, 0, args...), startHeadless(t, lan, 1, args...)}
	victim := runs[1]
	deadline := time.Now().Add(time.Minute)
	for strings.Count(victim.stderr.String(), "event moved") < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("the game never got going:\n%s", tail(victim.stderr.String(), 20))
		}
		time.Sleep(50 * time.Millisecond)
	}
	victim.cmd.Process.Kill()
	victim.cmd.Wait()
	order, _ := sameResults(t, runs[:1])
	if len(order) != 4 {
		t.Errorf("ranking %q for 4 seats", order)
	}
	if s := runs[0].stderr.String(); !strings.Contains(s, "event alone-decision") {
		t.Errorf("the lone peer logged no alone decision:\n%s", tail(s, 20))
	}
	m := resultLine.FindStringSubmatch(strings.TrimSpace(runs[0].stdout.String()))
	var out, errb bytes.Buffer
	if code := Main([]string{"verify", m[2]}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("verify: %d %s", code, errb.String())
	}
}
