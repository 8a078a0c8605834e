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

// YieldCPU sets every thread of the process to nice 19, threads started
// after it too, and only that process's: the benchmarks' watcher
// processes rely on it to stand for laptops of their own.
func TestYieldCPU(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), yieldProbeEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	var threads int
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "nice 19 threads=%d", &threads); err != nil || threads < 2 {
		t.Fatalf("probe said %q, want every one of its threads at nice 19", out)
	}
	if n, err := Nice(0); err != nil || n == yieldNice {
		t.Errorf("the test process's own nice is %d (%v): YieldCPU reached past its process", n, err)
	}
}

// yieldProbe calls YieldCPU, starts a thread of its own after it, and
// prints "nice 19 threads=N" if every thread then has that nice value.
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
		nice, err := Nice(tid)
		if err == syscall.ESRCH {
			return nil // the thread ended
		}
		if err != nil || nice != yieldNice {
			return fmt.Errorf("thread %d: nice %d (%v)", tid, nice, err)
		}
		n++
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Printf("nice %d threads=%d\n", yieldNice, n)
	return 0
}
