package savegame

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"aeroplane/lockstep"
)

// What a crash leaves at the end of a log: a torn record (a crash inside
// an append), zeros (a machine crash after the file grew, before its
// blocks were written), a header cut short (the process died while
// creating it). OpenLog cuts each off, keeps the good records and appends
// after them; bad bytes that are not a tail are an error and the file is
// left as it was.
func TestOpenLogTails(t *testing.T) {
	_, recs := playedLog(t, 1, 3)
	good := logBytes(recs[:4])
	next := lockstep.EncodeRecords(recs[4])
	for _, c := range []struct {
		name     string
		file     []byte
		keep     int // records read back
		wantErr  bool
		wantSize int
	}{
		{"clean", good, 4, false, len(good)},
		{"zeros", append(bytes.Clone(good), make([]byte, 4096)...), 4, false, len(good)},
		{"half a record", append(bytes.Clone(good), next[:len(next)/2]...), 4, false, len(good)},
		{"record header cut", append(bytes.Clone(good), next[:5]...), 4, false, len(good)},
		{"empty file", nil, 0, false, len(lockstep.LogHeader())},
		{"header cut short", lockstep.LogHeader()[:7], 0, false, len(lockstep.LogHeader())},
		{"garbage after good records", append(bytes.Clone(good), bytes.Repeat([]byte{0xff}, 64)...), 0, true, len(good) + 64},
		{"not a log", []byte("hello, this is not a game log at all"), 0, true, 36},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.log")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			l, got, err := OpenLog(path)
			if st, _ := os.Stat(path); st.Size() != int64(c.wantSize) {
				t.Errorf("file is %d bytes after opening, want %d", st.Size(), c.wantSize)
			}
			if c.wantErr {
				if err == nil {
					l.Close()
					t.Fatal("opened a log damaged before its tail")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.keep {
				t.Fatalf("%d records, want %d", len(got), c.keep)
			}
			if err := l.Append(recs[len(got) : len(got)+2]); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if want := logBytes(recs[:len(got)+2]); !bytes.Equal(data, want) {
				t.Fatalf("after appending: %d bytes, want the %d of the good records and the new ones", len(data), len(want))
			}
		})
	}
}

// The fsync policy: Write leaves the disk alone, Sync flushes only what
// is dirty, Append and Close flush, and opening flushes once.
func TestLogSyncPolicy(t *testing.T) {
	_, recs := playedLog(t, 1, 2)
	l, _, err := OpenLog(filepath.Join(t.TempDir(), "game.log"))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name  string
		do    func() error
		syncs int64
		dirty bool
	}{
		{"opened", func() error { return nil }, 1, false},
		{"write", func() error { return l.Write(recs[:1]) }, 1, true},
		{"write nothing", func() error { return l.Write(nil) }, 1, true},
		{"sync", l.Sync, 2, false},
		{"sync clean", l.Sync, 2, false},
		{"append", func() error { return l.Append(recs[1:3]) }, 3, false},
		{"write", func() error { return l.Write(recs[3:4]) }, 3, true},
		{"close", l.Close, 4, false},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if l.Syncs() != s.syncs || l.Dirty() != s.dirty {
			t.Fatalf("after %s: %d fsyncs, dirty %v; want %d, %v", s.name, l.Syncs(), l.Dirty(), s.syncs, s.dirty)
		}
	}
}

// Every file created, linked, renamed or removed in the data directory is
// followed by an fsync of the directory, so its name survives a machine
// crash as its contents do.
func TestDirectoryFsynced(t *testing.T) {
	self, recs := playedLog(t, 1, 2)
	setup := setupOf(t, recs)
	base := t.TempDir()
	path := filepath.Join(base, "games")
	counts := countDirSyncs(t)
	steps := []struct {
		name string
		do   func(d **Dir) error
		dir  string // the directory fsynced
	}{
		{"create the directory", func(d **Dir) (err error) { *d, err = Open(path); return err }, base},
		{"open an existing directory (nothing created)", func(d **Dir) (err error) { *d, err = Open(path); return err }, ""},
		{"create a game: the secret's link, then the log", func(d **Dir) error {
			g, err := (*d).Create(setup, self, nil)
			if err == nil {
				err = g.Log.Close()
			}
			return err
		}, path},
		{"open a new log", func(d **Dir) error {
			l, _, err := OpenLog(filepath.Join(path, "other.log"))
			if err == nil {
				err = l.Close()
			}
			return err
		}, path},
		{"reopen a log (nothing created)", func(d **Dir) error {
			l, _, err := OpenLog(filepath.Join(path, "other.log"))
			if err == nil {
				err = l.Close()
			}
			return err
		}, ""},
		{"mark a game closed", func(d **Dir) error { return (*d).MarkClosed(setup.GameID(), "over") }, path},
		{"set a run pointer (rename)", func(d **Dir) error { return (*d).SetRun("soak", Run{Game: setup.GameID().String(), Number: 1}) }, path},
		{"end the run (remove)", func(d **Dir) error { return (*d).EndRun("soak") }, path},
	}
	want := map[string]int{}
	var d *Dir
	for _, s := range steps {
		if err := s.do(&d); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.dir != "" {
			want[s.dir]++
		}
		if s.name == "create a game: the secret's link, then the log" {
			want[path]++ // two entries: the secret and the log
		}
		for dir, n := range want {
			if counts[dir] != n {
				t.Fatalf("after %s: %s fsynced %d times, want %d", s.name, dir, counts[dir], n)
			}
		}
		if len(counts) != len(want) {
			t.Fatalf("after %s: directories fsynced %v, want %v", s.name, counts, want)
		}
	}
}
