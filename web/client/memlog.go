package client

import (
	"errors"
	"sync"

	"aeroplane/lockstep"
)

// MaxLogBytes caps a browser game's log in memory: a whole 4-player game
// is a few hundred KiB, so past this something floods it.
const MaxLogBytes = 16 << 20

// MemLog is a browser player's game log: lockstep's file format
// (LogHeader, then EncodeRecords), kept in the page's memory, exported
// for `aeroplane verify`.
type MemLog struct {
	mu   sync.Mutex
	data []byte
}

// NewMemLog starts an empty log.
func NewMemLog() *MemLog { return &MemLog{data: lockstep.LogHeader()} }

// ErrLogFull is returned once the log would pass MaxLogBytes.
var ErrLogFull = errors.New("the game log in the browser is full")

// Write implements lockstep.Log.
func (l *MemLog) Write(recs []lockstep.Record) error {
	b := lockstep.EncodeRecords(recs...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.data)+len(b) > MaxLogBytes {
		return ErrLogFull
	}
	l.data = append(l.data, b...)
	return nil
}

// Sync implements lockstep.Log: the page's memory is all there is.
func (l *MemLog) Sync() error { return nil }

// Bytes is a copy of the log file so far.
func (l *MemLog) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.data...)
}

// load makes the log hold data (a log file's bytes, as a Keeper kept it).
func (l *MemLog) load(data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.data = append(l.data[:0], data...)
}
