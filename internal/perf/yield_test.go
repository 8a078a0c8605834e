package perf

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// yieldProbeEnv makes the test binary a YieldCPU probe (yieldProbe).
const yieldProbeEnv = "AEROPLANE_PERF_YIELD_PROBE"

// YieldCPU puts every thread of the process under SCHED_IDLE, threads
// started after it too, and only that process's: the benchmarks'
// watcher processes rely on it to stand for laptops of their own.
func TestYieldCPU(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), yieldProbeEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	var threads int
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "idle threads=%d", &threads); err != nil || threads < 2 {
		t.Fatalf("probe said %q, want every one of its threads under SCHED_IDLE", out)
	}
	if p, err := SchedPolicy(0); err != nil || p != 0 {
		t.Errorf("the test process's own policy is %d (%v), want the normal 0: YieldCPU reached past its process", p, err)
	}
}

// yieldProbe calls YieldCPU, starts a thread of its own after it, and
// prints "idle threads=N" if every thread is then under SCHED_IDLE.
func yieldProbe() int {
	if err := YieldCPU(); err != nil {
		fmt.Println(err)
		return 1
	}
	started := make(chan struct{})
	release := make(chan struct{})
	go func() {
		// A goroutine locked to its thread while the main one waits
		// holds that thread; the runtime starts another for the rest.
		runtime.LockOSThread()
		close(started)
		<-release
	}()
	<-started
	defer close(release)
	n := 0
	err := eachThread(func(tid int) error {
		p, err := SchedPolicy(tid)
		if err == syscall.ESRCH {
			return nil // the thread ended
		}
		if err != nil || p != schedIdle {
			return fmt.Errorf("thread %d: policy %d (%v)", tid, p, err)
		}
		n++
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Printf("idle threads=%d\n", n)
	return 0
}
