package perf

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// Memory is a process's resident memory from /proc/PID/status, in bytes.
type Memory struct {
	RSS int64 // VmRSS: resident now
	HWM int64 // VmHWM: the most it has ever been resident
}

// ReadMemory reads pid's VmRSS and VmHWM.
func ReadMemory(pid int) (Memory, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Memory{}, err
	}
	return parseStatus(b)
}

// parseStatus reads the kB fields of a /proc/PID/status text.
func parseStatus(b []byte) (Memory, error) {
	var m Memory
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return Memory{}, fmt.Errorf("status line %q: want a size in kB", sc.Text())
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return Memory{}, fmt.Errorf("status line %q: %w", sc.Text(), err)
		}
		if k == "VmRSS" {
			m.RSS = n << 10
		} else {
			m.HWM = n << 10
		}
		found++
	}
	if found != 2 {
		return Memory{}, fmt.Errorf("status has no VmRSS and VmHWM (a kernel thread or a zombie?)")
	}
	return m, nil
}

// Machine describes where a number was measured: CPU model, cores, Go.
func Machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores (GOMAXPROCS %d), %s %s/%s", model, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// LoadAverage is the one-minute load average, to print next to a number
// measured on a shared machine (-1 if unknown).
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// ProcessCPU is the CPU time (user and system, every thread) this process
// has used: on a loaded machine it moves with the work done, where the
// wall clock also counts the time others held the cores.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ChildrenCPU is the CPU time this process's children that ended and
// were waited for have used (the benchmarks' watcher processes).
func ChildrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PinThreads sets the CPU affinity of every thread of this process to
// the CPUs in mask (bit i: CPU i); threads started later inherit it from
// the thread that starts them. It stands a benchmark's players and its
// watchers on cores of their own, as on laptops of their own.
func PinThreads(mask uint64) error {
	// Twice: a thread started during the first pass by a thread not yet
	// pinned is pinned by the second.
	for range 2 {
		if err := pinAll(mask); err != nil {
			return err
		}
	}
	return nil
}

// CPUMask is the CPU affinity of the calling thread (bit i: CPU i).
func CPUMask() uint64 {
	var mask uint64
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, 8, uintptr(unsafe.Pointer(&mask))); e != 0 {
		return 0
	}
	return mask
}

func pinAll(mask uint64) error {
	return eachThread(func(tid int) error {
		if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), 8, uintptr(unsafe.Pointer(&mask))); e != 0 && e != syscall.ESRCH {
			return fmt.Errorf("perf: pinning thread %d to CPUs %b: %w", tid, mask, e)
		}
		return nil
	})
}

// schedIdle is Linux's SCHED_IDLE policy: a thread under it runs only
// when no thread of a normal policy wants the core, and one of those
// that wakes takes the core from it at once. (At nice 19 instead, a
// thread keeps the core for the rest of its slice, up to a few ms, when
// a player's thread wakes: the players' p99 then shows the watchers'
// verification after all.)
const schedIdle = 5

// YieldCPU puts every thread of this process under SCHED_IDLE (threads
// started later inherit it): a benchmark's watcher processes then use
// only the cores' idle time, as spectators on laptops of their own use
// their own, and the players' turns meet only what serving them costs.
// On a machine others load, such a process may wait minutes for a core.
func YieldCPU() error {
	for range 2 { // as in PinThreads
		err := eachThread(func(tid int) error {
			var param struct{ priority int32 }
			if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param))); e != 0 && e != syscall.ESRCH {
				return fmt.Errorf("perf: thread %d to SCHED_IDLE: %w", tid, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// SchedPolicy is a thread's scheduling policy (tid 0: the calling
// thread; 0 is the normal policy, schedIdle the idle one).
func SchedPolicy(tid int) (int, error) {
	r, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(tid), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

// eachThread calls f with the ID of every thread of this process.
func eachThread(f func(tid int) error) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := f(tid); err != nil {
			return err
		}
	}
	return nil
}
