package savegame

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"aeroplane/lockstep"
)

// Log is the durable, append-only game log file. Write appends without
// waiting for the disk, Sync makes everything written durable; one
// goroutine at a time may use it (Syncs excepted).
type Log struct {
	f     *os.File
	path  string
	dirty bool // written since the last fsync
	syncs atomic.Int64
}

// OpenLog opens (creating with the header if needed) the log at path and
// returns the records already in it (empty for a new game). A torn tail
// from a crash is cut off; corruption elsewhere is an error. The log is
// durable, and its name in its directory, when OpenLog returns.
func OpenLog(path string) (*Log, []lockstep.Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the game log: %w (make the data directory writable, or choose another)", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading the game log %s: %w", path, err)
	}
	l := &Log{f: f, path: path}
	if len(data) == 0 {
		return l, nil, l.start()
	}
	recs, cut, err := parseLog(data)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("game log %s: %w (move it away to start afresh)", path, err)
	}
	if cut >= 0 {
		// A crash in the middle of an append: the records before the
		// torn one are good and the torn one was never sent.
		if err := f.Truncate(cut); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("cutting the torn tail of %s: %w", path, err)
		}
		if cut == 0 {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				f.Close()
				return nil, nil, err
			}
			return l, nil, l.start()
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	// A killed process leaves its last writes in the page cache, readable
	// but maybe not on disk; the restored node takes them as sent and may
	// send them again, so they must be durable first.
	if err := l.sync(); err != nil {
		f.Close()
		return nil, nil, err
	}
	return l, recs, nil
}

// createLog makes a new log at path, refusing one that exists.
func createLog(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot create the game log (choose another data directory): %w", err)
	}
	l := &Log{f: f, path: path}
	if err := l.start(); err != nil {
		return nil, err
	}
	return l, nil
}

// start writes the header of an empty log and makes it and its name
// durable: a log on disk always reads as a log.
func (l *Log) start() error {
	if _, err := l.f.Write(lockstep.LogHeader()); err != nil {
		l.f.Close()
		return fmt.Errorf("writing the game log %s: %w", l.path, err)
	}
	if err := l.sync(); err != nil {
		l.f.Close()
		return err
	}
	if err := syncDir(filepath.Dir(l.path)); err != nil {
		l.f.Close()
		return err
	}
	return nil
}

// parseLog reads a log's bytes: its good records and, if its tail is torn,
// the offset to cut it at (-1: nothing to cut). Corruption before the
// tail is an error.
func parseLog(data []byte) ([]lockstep.Record, int64, error) {
	recs, err := lockstep.ParseLog(data)
	if err == nil {
		return recs, -1, nil
	}
	var lerr *lockstep.LogError
	if !errors.As(err, &lerr) {
		return nil, -1, err
	}
	if lerr.Torn {
		// lockstep.TornTail's one rule, which verify applies too: a crash
		// inside an append, or the zeros of a machine that stopped after
		// the file grew. Never fsynced, so never the base of anything sent.
		return recs, lerr.Offset, nil
	}
	return nil, -1, err
}

// Path is where the log lives.
func (l *Log) Path() string { return l.path }

// Append writes records and fsyncs.
func (l *Log) Append(recs []lockstep.Record) error {
	if err := l.Write(recs); err != nil {
		return err
	}
	return l.Sync()
}

// Write appends records without waiting for the disk.
func (l *Log) Write(recs []lockstep.Record) error {
	if len(recs) == 0 {
		return nil
	}
	l.dirty = true
	if _, err := l.f.Write(lockstep.EncodeRecords(recs...)); err != nil {
		return fmt.Errorf("writing the game log %s: %w", l.path, err)
	}
	return nil
}

// Dirty reports records written since the last Sync.
func (l *Log) Dirty() bool { return l.dirty }

// Sync makes every record written so far durable (fsync), if any is not.
// After a failed fsync the game must stop: Linux may report later fsyncs
// as good although the earlier data never reached the disk.
func (l *Log) Sync() error {
	if !l.dirty {
		return nil
	}
	return l.sync()
}

// Syncs is how many fsyncs the log has done.
func (l *Log) Syncs() int64 { return l.syncs.Load() }

func (l *Log) sync() error {
	l.syncs.Add(1)
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("flushing the game log %s: %w", l.path, err)
	}
	l.dirty = false
	return nil
}

// Close makes the log durable and closes the file.
func (l *Log) Close() error {
	err := l.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
