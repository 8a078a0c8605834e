package netsession

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"aeroplane/lockstep"
	"aeroplane/ui"
)

// gameLog is a game's durable log in lockstep's file format: what
// `aeroplane verify` and `replay` read. It holds only public data (the
// setup and signed messages), so it is created readable by others.
type gameLog struct {
	f    *os.File
	path string
}

// createGameLog starts a new log file in dir, named by time and game ID so
// games never overwrite each other.
func createGameLog(dir string, gid lockstep.GameID, now time.Time) (*gameLog, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the game log directory (choose another data directory): %w", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("game-%s-%s.log", now.UTC().Format("20060102-150405"), gid))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot create the game log (choose another data directory): %w", err)
	}
	l := &gameLog{f: f, path: path}
	if _, err := f.Write(lockstep.LogHeader()); err != nil {
		f.Close()
		return nil, fmt.Errorf("game log %s: %w", path, err)
	}
	if err := l.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// Write appends records without waiting for the disk; the driver Syncs
// them (lockstep.SyncLazy).
func (l *gameLog) Write(recs []lockstep.Record) error {
	if len(recs) == 0 {
		return nil
	}
	if _, err := l.f.Write(lockstep.EncodeRecords(recs...)); err != nil {
		return fmt.Errorf("game log %s: %w", l.path, err)
	}
	return nil
}

// Sync makes what was written durable.
func (l *gameLog) Sync() error {
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("game log %s: %w", l.path, err)
	}
	return nil
}

func (l *gameLog) close() error { return l.f.Close() }

// localLog is the game log of a local game: if it cannot be written, the
// player is told once and the game goes on without it (nobody else
// could be misled by what it lacks).
type localLog struct {
	l      *gameLog
	s      *LocalSession
	tr     *Translator // touched on the driver's goroutine only, as Write is
	failed bool
}

func (g *localLog) Write(recs []lockstep.Record) error {
	if g.failed {
		return nil
	}
	if err := g.l.Write(recs); err != nil {
		g.fail(err)
	}
	return nil
}

func (g *localLog) Sync() error {
	if g.failed {
		return nil
	}
	if err := g.l.Sync(); err != nil {
		g.fail(err)
	}
	return nil
}

func (g *localLog) fail(err error) {
	g.failed = true
	g.s.opts.Logger.Error("game log", "err", err)
	g.s.q.push(ui.Notice{Text: "the game log cannot be saved, the game goes on without it: " + err.Error()})
	g.tr.SetLogPath("")
}
