package cli

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// The diagnostics log's bound: each file at most logMax bytes, logKeep old
// ones beside the current (aeroplane.log.1 the newer), so it takes at most
// (logKeep+1)*logMax bytes on disk whatever the peers make it log.
const (
	logMax  = 8 << 20
	logKeep = 2
)

// rotatingFile is an append-only file that never grows past max bytes: a
// write that would take it past is preceded by a rotation (path.keep is
// dropped, path.i becomes path.i+1, path becomes path.1, a new path is
// started). slog hands each record over in one Write, so records are never
// split between files; a single record longer than max is cut to max.
type rotatingFile struct {
	path string
	max  int64
	keep int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// openRotating opens path for appending (creating it), bounded as above.
func openRotating(path string, max int64, keep int) (*rotatingFile, error) {
	r := &rotatingFile{path: path, max: max, keep: keep}
	if err := r.open(os.O_APPEND); err != nil {
		return nil, err
	}
	if r.size > max {
		// Written before the bound: its last max bytes are what rotates.
		r.f.Close()
		if err := keepTail(path, max); err != nil {
			return nil, fmt.Errorf("shortening the log %s: %w", path, err)
		}
		if err := r.open(os.O_APPEND); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// keepTail cuts the file at path to its last n bytes.
func keepTail(path string, n int64) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, st.Size()-n); err != nil {
		return err
	}
	if _, err := f.WriteAt(tail, 0); err != nil {
		return err
	}
	return f.Truncate(n)
}

func (r *rotatingFile) open(mode int) error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|mode, 0o644)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	r.f, r.size = f, st.Size()
	return nil
}

func (r *rotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	n := len(p)
	if int64(len(p)) > r.max {
		p = p[:r.max]
	}
	if r.size+int64(len(p)) > r.max {
		if err := r.rotate(); err != nil {
			return 0, err
		}
	}
	w, err := r.f.Write(p)
	r.size += int64(w)
	if err != nil {
		return w, fmt.Errorf("writing the log %s: %w", r.path, err)
	}
	return n, nil
}

// rotate shifts the old files along and starts an empty current one. If
// a rename fails the current file is emptied instead: the bound holds
// either way.
func (r *rotatingFile) rotate() error {
	r.f.Close()
	r.f = nil
	name := func(i int) string {
		if i == 0 {
			return r.path
		}
		return r.path + "." + strconv.Itoa(i)
	}
	if r.keep > 0 {
		_ = os.Remove(name(r.keep))
		for i := r.keep - 1; i >= 0; i-- {
			_ = os.Rename(name(i), name(i+1)) // a missing one is a gap
		}
	}
	if err := r.open(os.O_TRUNC); err != nil {
		return fmt.Errorf("starting a new log %s (set XDG_STATE_HOME to a writable directory): %w", r.path, err)
	}
	return nil
}

// Close closes the current file.
func (r *rotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
