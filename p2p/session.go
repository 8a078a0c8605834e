package p2p

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"aeroplane/lockstep"
)

// GameLog is the durable, append-only game log file. Write appends without
// waiting for the disk, Sync makes everything written durable; one
// goroutine at a time may use it (Syncs excepted).
type GameLog struct {
	f     *os.File
	path  string
	dirty bool // written since the last fsync
	syncs atomic.Int64
}

// OpenGameLog opens (creating with the header if needed) the log at path
// and returns the records already in it (empty for a new game). A torn tail
// from a crash is cut off; corruption elsewhere is an error.
func OpenGameLog(path string) (*GameLog, []lockstep.Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: opening the game log: %w (check --data is writable)", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("p2p: reading the game log %s: %w", path, err)
	}
	l := &GameLog{f: f, path: path}
	if len(data) == 0 {
		if _, err := f.Write(lockstep.LogHeader()); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("p2p: writing the game log %s: %w", path, err)
		}
		return l, nil, l.sync()
	}
	recs, err := lockstep.ParseLog(data)
	var lerr *lockstep.LogError
	if errors.As(err, &lerr) && !lerr.Torn && lerr.Offset >= int64(len(lockstep.LogHeader())) && zeros(data[lerr.Offset:]) {
		// A machine crash after the file grew but before its new blocks
		// were written leaves zeros: like a torn record, never fsynced, so
		// never the base of anything we sent (see Session.Run).
		lerr.Torn = true
	}
	if errors.As(err, &lerr) && lerr.Torn {
		// A crash in the middle of an append: the records before the
		// torn one are good and the torn one was never sent.
		if terr := f.Truncate(lerr.Offset); terr != nil {
			f.Close()
			return nil, nil, fmt.Errorf("p2p: cutting the torn tail of %s: %w", path, terr)
		}
		err = nil
		if lerr.Offset == 0 {
			f.Close()
			return OpenGameLog(path)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("p2p: game log %s: %w (move it away to start afresh)", path, err)
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

func zeros(b []byte) bool {
	return len(bytes.Trim(b, "\x00")) == 0
}

// Path is where the log lives.
func (l *GameLog) Path() string { return l.path }

// Append writes records and fsyncs.
func (l *GameLog) Append(recs []lockstep.Record) error {
	if err := l.Write(recs); err != nil {
		return err
	}
	return l.Sync()
}

// Write appends records without waiting for the disk.
func (l *GameLog) Write(recs []lockstep.Record) error {
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
func (l *GameLog) Dirty() bool { return l.dirty }

// Sync makes every record written so far durable (fsync), if any is not.
func (l *GameLog) Sync() error {
	if !l.dirty {
		return nil
	}
	return l.sync()
}

// Syncs is how many fsyncs the log has done.
func (l *GameLog) Syncs() int64 { return l.syncs.Load() }

func (l *GameLog) sync() error {
	l.syncs.Add(1)
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("flushing the game log %s: %w", l.path, err)
	}
	l.dirty = false
	return nil
}

// Close makes the log durable and closes the file.
func (l *GameLog) Close() error {
	err := l.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
