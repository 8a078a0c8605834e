package perf

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair of the given size.
func openPTY(rows, cols uint16) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := master.Fd()
	var unlock int32
	var n uint32
	ws := struct{ rows, cols, x, y uint16 }{rows, cols, 0, 0}
	for _, c := range []struct {
		req uintptr
		arg unsafe.Pointer
	}{{syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)}, {syscall.TIOCGPTN, unsafe.Pointer(&n)}, {syscall.TIOCSWINSZ, unsafe.Pointer(&ws)}} {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, c.req, uintptr(c.arg)); e != 0 {
			master.Close()
			return nil, nil, fmt.Errorf("pty ioctl %#x: %w", c.req, e)
		}
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// Output is what TimeToOutput measured.
type Output struct {
	Wall time.Duration // from the fork until want was read
	// OnCPU and Waiting are the program's threads' time running on a CPU
	// and waiting in a run queue for one, until then (from
	// /proc/PID/task/*/schedstat): on a loaded machine Wall is about their
	// sum, and OnCPU is what an idle machine would take.
	OnCPU, Waiting time.Duration
}

// TimeToOutput starts argv on a fresh 40×120 pseudo-terminal (its own
// session, the terminal its controlling one) and returns how long it took
// from the fork until the bytes it wrote to the terminal contained want,
// then kills it. The terminal does not answer queries; a program that
// waits for an answer before drawing times out.
func TimeToOutput(want string, limit time.Duration, env []string, argv ...string) (Output, error) {
	master, slave, err := openPTY(40, 120)
	if err != nil {
		return Output{}, err
	}
	defer master.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return Output{}, err
	}
	slave.Close()
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	found := make(chan time.Duration, 1)
	var seen bytes.Buffer
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				seen.Write(buf[:n])
				if bytes.Contains(seen.Bytes(), []byte(want)) {
					found <- time.Since(start)
					return
				}
			}
			if err != nil {
				close(found)
				return
			}
		}
	}()
	select {
	case d, ok := <-found:
		if !ok {
			return Output{}, fmt.Errorf("perf: %s ended without writing %q", argv[0], want)
		}
		out := Output{Wall: d}
		out.OnCPU, out.Waiting = schedstat(cmd.Process.Pid)
		return out, nil
	case <-time.After(limit):
		// Closing the master (deferred) ends the reader.
		return Output{}, fmt.Errorf("perf: %q not written by %s within %v", want, argv[0], limit)
	}
}

// schedstat sums the time pid's threads ran and waited to run.
func schedstat(pid int) (run, wait time.Duration) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		r, err1 := strconv.ParseInt(f[0], 10, 64)
		w, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 == nil && err2 == nil {
			run, wait = run+time.Duration(r), wait+time.Duration(w)
		}
	}
	return run, wait
}
