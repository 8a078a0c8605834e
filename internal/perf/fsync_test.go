package perf

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLogAppend: what a sync before every send (SyncEveryMessage)
// costs each Ready, and the lazy policy once a tick: append
// one record's worth of bytes (about a signed reveal) to the game log and
// fsync it, on the test's temp dir (disk) and on /dev/shm (tmpfs).
func BenchmarkLogAppend(b *testing.B) {
	for _, where := range []string{"disk", "tmpfs"} {
		b.Run(where, func(b *testing.B) {
			dir := b.TempDir()
			if where == "tmpfs" {
				var err error
				if dir, err = os.MkdirTemp("/dev/shm", "perf-"); err != nil {
					b.Skip("no /dev/shm:", err)
				}
				defer os.RemoveAll(dir)
			}
			f, err := os.OpenFile(filepath.Join(dir, "game.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			rec := make([]byte, 256)
			for b.Loop() {
				if _, err := f.Write(rec); err != nil {
					b.Fatal(err)
				}
				if err := f.Sync(); err != nil {
					b.Fatal(err)
				}
			}
			reportLoad(b)
		})
	}
}
