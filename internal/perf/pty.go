package perf

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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

// TimeToOutput starts argv on a fresh 40×120 pseudo-terminal (its own
// session, the terminal its controlling one) and returns how long it took
// from the fork until the bytes it wrote to the terminal contained want,
// then kills it. The terminal does not answer queries; a program that
// waits for an answer before drawing times out.
func TimeToOutput(want string, limit time.Duration, env []string, argv ...string) (time.Duration, error) {
	master, slave, err := openPTY(40, 120)
	if err != nil {
		return 0, err
	}
	defer master.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return 0, err
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
			return 0, fmt.Errorf("perf: %s ended without writing %q", argv[0], want)
		}
		return d, nil
	case <-time.After(limit):
		// Closing the master (deferred) ends the reader.
		return 0, fmt.Errorf("perf: %q not written by %s within %v", want, argv[0], limit)
	}
}
