//go:build linux

package engine

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime is the CPU time the calling OS thread has used. The
// benchmarks report it beside wall time because the build machine is
// shared: wall time there measures the neighbours as much as the engine.
func threadCPUTime() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
