package cli

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rotating log never takes more than (keep+1)*max bytes nor any file
// more than max, whatever the writes; the current file ends with the last
// record; nothing past path.keep is ever made; a file found too big at
// start rotates on the first write.
func TestRotatingFileBound(t *testing.T) {
	cases := []struct {
		name   string
		max    int64
		keep   int
		before int64 // bytes in the file already
		writes []int // sizes, repeated to fill
		total  int   // bytes written in all
	}{
		{"small lines", 1000, 2, 0, []int{37}, 50_000},
		{"mixed", 1000, 2, 0, []int{1, 999, 1000, 500, 7}, 50_000},
		{"longer than max", 100, 2, 0, []int{250, 3}, 10_000},
		{"no old files", 500, 0, 0, []int{60}, 10_000},
		{"too big already", 1000, 1, 5000, []int{10}, 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "aeroplane.log")
			if c.before > 0 {
				if err := os.WriteFile(path, make([]byte, c.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := openRotating(path, c.max, c.keep)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var last []byte
			for i, n := 0, 0; n < c.total; i++ {
				size := c.writes[i%len(c.writes)]
				last = bytes.Repeat([]byte{byte('a' + i%26)}, size)
				if w, err := r.Write(last); err != nil || w != size {
					t.Fatalf("write %d: %d, %v", i, w, err)
				}
				n += size
				checkBound(t, path, c.max, c.keep)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := last[:min(int64(len(last)), c.max)]; !bytes.HasSuffix(got, want) {
				t.Errorf("the current file does not end with the last record")
			}
		})
	}
}

func checkBound(t *testing.T, path string, max int64, keep int) {
	t.Helper()
	var sum int64
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		name := e.Name()
		ok := name == filepath.Base(path)
		for i := 1; i <= keep; i++ {
			ok = ok || name == fmt.Sprintf("%s.%d", filepath.Base(path), i)
		}
		if !ok {
			t.Fatalf("unexpected file %s", name)
		}
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > max {
			t.Fatalf("%s has %d bytes (max %d)", name, info.Size(), max)
		}
		sum += info.Size()
	}
	if sum > int64(keep+1)*max {
		t.Fatalf("%d bytes on disk (bound %d)", sum, int64(keep+1)*max)
	}
}

// Through slog, every record lands whole in one file, and the newest
// records are in the current file.
func TestRotatingFileKeepsRecordsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aeroplane.log")
	r, err := openRotating(path, 4096, 2)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(r, nil))
	for i := range 2000 {
		log.Warn("chat line over the rate limit dropped", "peer", "12345678", "n", i)
	}
	r.Close()
	for _, name := range []string{path, path + ".1", path + ".2"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if !strings.HasPrefix(line, "time=") || !strings.Contains(line, " n=") {
				t.Fatalf("%s: a record cut in two: %q", name, line)
			}
		}
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "n=1999\n") {
		t.Error("the last record is not in the current file")
	}
}
