package perf

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/session"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// watcherEnv, when set in a process's environment, makes the test
// binary a watcher process (RunWatcherProcess) instead of running tests:
// "GAMEID-HEX PLAYER-ID NAME ADDR...". A benchmark's watcher in a
// process of its own stands in for a spectator on its own laptop: its
// verification runs on the kernel's scheduler beside the players, not on
// the players' Go scheduler and garbage collector.
const watcherEnv = "AEROPLANE_PERF_WATCHER"

// watcherCPUsEnv is the CPU mask a watcher process pins itself to (0:
// any).
const watcherCPUsEnv = "AEROPLANE_PERF_WATCHER_CPUS"

// watcherYieldEnv, when "1", makes a watcher process yield the CPU to
// the players (YieldCPU).
const watcherYieldEnv = "AEROPLANE_PERF_WATCHER_YIELD"

// IsWatcherProcess says whether this process was started as a watcher.
func IsWatcherProcess() bool { return os.Getenv(watcherEnv) != "" }

// RunWatcherProcess watches the game its environment names to its end
// through session.WatchFrom, printing "ready" on stdout once connected
// and "history HEX" (the watcher's final history) at the end; the exit
// status is 1 on any error.
func RunWatcherProcess() int {
	if cpus, _ := strconv.ParseUint(os.Getenv(watcherCPUsEnv), 10, 64); cpus != 0 {
		if err := PinThreads(cpus); err != nil {
			fmt.Fprintln(os.Stderr, "perf watcher:", err)
			return 1
		}
	}
	if os.Getenv(watcherYieldEnv) == "1" {
		if err := YieldCPU(); err != nil {
			fmt.Fprintln(os.Stderr, "perf watcher:", err)
			return 1
		}
		if p, err := SchedPolicy(0); err != nil || p != schedIdle {
			fmt.Fprintf(os.Stderr, "perf watcher: scheduling policy %d (%v) after YieldCPU, want SCHED_IDLE\n", p, err)
			return 1
		}
	}
	st, err := watchAsProcess(context.Background(), os.Getenv(watcherEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "perf watcher:", err)
		return 1
	}
	fmt.Printf("history %x\n", st.History)
	return 0
}

func watchAsProcess(ctx context.Context, spec string) (lockstep.State, error) {
	f := strings.Fields(spec)
	if len(f) < 4 {
		return lockstep.State{}, fmt.Errorf("%s=%q: want GAMEID PLAYER NAME ADDR", watcherEnv, spec)
	}
	var gid lockstep.GameID
	if b, err := hex.DecodeString(f[0]); err != nil || len(b) != len(gid) {
		return lockstep.State{}, fmt.Errorf("game ID %q", f[0])
	} else {
		copy(gid[:], b)
	}
	player, err := peer.Decode(f[1])
	if err != nil {
		return lockstep.State{}, err
	}
	info := peer.AddrInfo{ID: player}
	for _, s := range f[3:] {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return lockstep.State{}, err
		}
		info.Addrs = append(info.Addrs, a)
	}
	wctx, cancel := context.WithTimeout(ctx, watchFor)
	defer cancel()
	return watchOne(wctx, info, gid, f[2], func() { fmt.Println("ready") })
}

// watchOne watches game gid from the player info names, on a libp2p
// host of its own on 127.0.0.1; ready is called once it is connected.
func watchOne(ctx context.Context, info peer.AddrInfo, gid lockstep.GameID, name string, ready func()) (lockstep.State, error) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return lockstep.State{}, err
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
	if err != nil {
		return lockstep.State{}, err
	}
	defer h.Close()
	if err := h.Connect(ctx, info); err != nil {
		return lockstep.State{}, err
	}
	ready()
	st, _, err := session.WatchFrom(ctx, h, info.ID, gid, name)
	return st, err
}

// startWatcherProcess starts the test binary again as a watcher of game
// gid read from player pl, pinned to the CPUs of cpus (0: any) and, if
// yield, yielding the CPU to the players (YieldCPU); it sends on ready
// once the process is connected, and its end on out.
func startWatcherProcess(ctx context.Context, pl host.Host, gid lockstep.GameID, name string, cpus uint64, yield bool, ready chan<- struct{}, out chan<- watchEnd) error {
	spec := []string{hex.EncodeToString(gid[:]), pl.ID().String(), name}
	for _, a := range filterAddrs(pl.Addrs(), "tcp") {
		spec = append(spec, a.String())
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), watcherEnv+"="+strings.Join(spec, " "), fmt.Sprintf("%s=%d", watcherCPUsEnv, cpus))
	if yield {
		cmd.Env = append(cmd.Env, watcherYieldEnv+"=1")
	}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		var st lockstep.State
		sc := bufio.NewScanner(stdout)
		found := false
		for sc.Scan() {
			if sc.Text() == "ready" {
				ready <- struct{}{}
			}
			if h, ok := strings.CutPrefix(sc.Text(), "history "); ok {
				if b, err := hex.DecodeString(h); err == nil && len(b) == len(st.History) {
					copy(st.History[:], b)
					found = true
				}
			}
		}
		err := cmd.Wait()
		if err == nil && !found {
			err = errors.New("perf: a watcher process printed no history")
		}
		out <- watchEnd{st: st, err: err}
	}()
	return nil
}
