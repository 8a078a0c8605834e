package cli

import (
	"bytes"
	"errors"
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
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// A peer killed with SIGKILL in the middle of a game restarts with the same
// identity and data directory, resumes the game from its log, and finishes
// it with the same result and hash as the others.
func TestHeadlessCrashAndResumeLAN(t *testing.T) {
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

// A rematch is the same table with a fresh game ID that every peer derives
// alike from the last game and its agreed history.
func TestRematch(t *testing.T) {
	prev := lockstep.Setup{Version: lockstep.Version, Name: "soak", Rules: engine.DefaultRules(),
		Seats: []lockstep.Seat{{Colour: engine.Red, Bot: "random"}, {Colour: engine.Blue, Bot: "greedy"}}}
	var h1, h2 [32]byte
	h2[0] = 1
	a, b, c := rematch(prev, h1), rematch(prev, h1), rematch(prev, h2)
	if a.GameID() != b.GameID() {
		t.Errorf("two peers derive different rematches")
	}
	again := rematch(a, h1)
	if a.GameID() == prev.GameID() || a.GameID() == c.GameID() || again.GameID() == a.GameID() {
		t.Errorf("a rematch reuses a game ID")
	}
	a.Nonce = prev.Nonce
	if a.GameID() != prev.GameID() {
		t.Errorf("a rematch changed more than the nonce")
	}
}

// A restarted peer finds its game with savegame.Find and its place in a
// --games run from the run pointer: an unfinished game resumes as the same
// game number; a game that ended before the restart leads to the rematch
// after it, if the pointer names it; an unfinished game the pointer does
// not name is game 1.
func TestResumableGameNumber(t *testing.T) {
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
		name string
		run  *savegame.Run
		log  []byte
		game int
		over bool
	}{
		{"unfinished, game 7", &savegame.Run{Game: gid, Number: 7}, half, 7, false},
		{"finished, game 7", &savegame.Run{Game: gid, Number: 7}, full, 7, true},
		{"unfinished, no run pointer", nil, half, 1, false},
		{"unfinished, the pointer names another game", &savegame.Run{Game: other.String(), Number: 3}, half, 1, false},
		// The rematch after gid was named but logged nothing: back to gid.
		{"rematch not begun", &savegame.Run{Game: other.String(), Number: 8, Prev: gid}, full, 7, true},
		// A finished game of a run that is over: a new game, from the lobby.
		{"finished, no run pointer", nil, full, 0, true},
		{"finished, the pointer names another game", &savegame.Run{Game: other.String(), Number: 3}, full, 0, true},
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
			g, err := resumable(dir, self, lobby, time.Now(), &headlessLog{e: &env{stderr: &stderr}, t0: time.Now()})
			if c.game == 0 {
				if err != nil || g != nil {
					t.Fatalf("resumable: %v, %v; want nothing to go on with", g, err)
				}
				return
			}
			if err != nil || g == nil {
				t.Fatalf("resumable: %v, %v (%s)", g, err, stderr.String())
			}
			if g.glog != nil {
				defer g.glog.Close()
			}
			if g.game != c.game || g.over != c.over || g.setup.GameID() != v.GameID {
				t.Errorf("game %d over %v id %s; want game %d over %v id %s", g.game, g.over, g.setup.GameID(), c.game, c.over, v.GameID)
			}
			if c.over && (g.history != v.History || g.glog != nil) {
				t.Errorf("finished game: history %x, log open %v; want %x and closed", g.history[:6], g.glog != nil, v.History[:6])
			}
			if !c.over && len(g.recs) != len(recs)/2 {
				t.Errorf("%d records resumed, want %d", len(g.recs), len(recs)/2)
			}
		})
	}
}

// A creator that replays an old game's Setup (issue 16 item 9) is refused
// before anything is written: the old game's secret, log and the run
// pointer stay as they were. Before savegame, headless wrote the new
// secret over the old one first and refused after.
func TestReplayedSetupRefused(t *testing.T) {
	full, err := os.ReadFile("../../lockstep/testdata/game.log")
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(full)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	dir, err := savegame.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	secret := bytes.Repeat([]byte{7}, 32)
	secretPath := strings.TrimSuffix(dir.LogPath(v.GameID), ".log") + ".secret"
	if err := os.WriteFile(dir.LogPath(v.GameID), full, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secretPath, secret, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(base)
	g, err := newGameFiles(dir, v.Setup.Players()[0], v.Setup.Name, v.Setup, 1, lockstep.GameID{})
	if err == nil {
		g.glog.Close()
		t.Fatal("a replayed Setup started a game")
	}
	if !errors.Is(err, savegame.ErrExists) || !strings.Contains(err.Error(), "--data") {
		t.Errorf("err %v, want savegame.ErrExists naming --data", err)
	}
	if b, _ := os.ReadFile(secretPath); !bytes.Equal(b, secret) {
		t.Errorf("the old game's secret was overwritten")
	}
	if b, _ := os.ReadFile(dir.LogPath(v.GameID)); !bytes.Equal(b, full) {
		t.Errorf("the old game's log changed")
	}
	if after, _ := os.ReadDir(base); len(after) != len(before) {
		t.Errorf("files %v after the refusal, want %v", after, before)
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

// Two headless peers and two bots; one peer is killed with SIGKILL
// mid-game and never comes back. The other is no majority alone, goes on
// by itself (GoOnAlone: a bot flies the missing seat), prints its result
// line, and its log verifies.
func TestHeadlessPeerGoneForGoodLAN(t *testing.T) {
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
