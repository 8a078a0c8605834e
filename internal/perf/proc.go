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
