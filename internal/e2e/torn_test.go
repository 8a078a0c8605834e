package e2e

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"aeroplane/lockstep"
	"aeroplane/savegame"
)

// A log cut at every byte (a power cut, a full disk mid-write) reads as
// exactly the records before the cut, flagged torn, never anything else;
// opening it as the session does cuts the torn record off and appends on,
// and the result reads back whole.
func TestLogTornAtEveryByte(t *testing.T) {
	t.Parallel()
	var recs []lockstep.Record
	for i := range 12 {
		recs = append(recs, writerRecord(i))
	}
	full := append(lockstep.LogHeader(), lockstep.EncodeRecords(recs...)...)
	bounds := map[int]int{len(lockstep.LogHeader()): 0}
	for i := range recs {
		bounds[len(lockstep.LogHeader())+len(lockstep.EncodeRecords(recs[:i+1]...))] = i + 1
	}
	dir := t.TempDir()
	torn := 0
	for cut := 0; cut <= len(full); cut++ {
		got, err := lockstep.ParseLog(full[:cut])
		n, boundary := bounds[cut]
		var lerr *lockstep.LogError
		if cut < len(lockstep.LogHeader()) {
			// A header cut short is a torn, empty log: the process died
			// before its first bytes reached disk, and the game rewrites it.
			if !errors.Is(err, lockstep.ErrTornTail) || !errors.As(err, &lerr) || !lerr.HeaderTorn() || len(got) != 0 {
				t.Fatalf("cut at %d inside the header: want a torn, empty log, got %d records, err %v", cut, len(got), err)
			}
			continue
		}
		switch {
		case boundary && err != nil:
			t.Fatalf("cut at record boundary %d: %v", cut, err)
		case !boundary && !(errors.Is(err, lockstep.ErrTornTail) && errors.As(err, &lerr)):
			t.Fatalf("cut at %d: want a torn tail, got %v", cut, err)
		case !boundary:
			torn++
			n = len(got)
		}
		if len(got) != n {
			t.Fatalf("cut at %d: %d records, want %d", cut, len(got), n)
		}
		for i := range got {
			if !bytes.Equal(got[i].Data, recs[i].Data) || got[i].Type != recs[i].Type {
				t.Fatalf("cut at %d: record %d mis-read", cut, i)
			}
		}
		if cut%37 != 0 && cut != len(full) {
			continue
		}
		// Reopen as a restarted peer would, append the rest, read it all.
		path := filepath.Join(dir, "cut.log")
		if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		l, have, err := savegame.OpenLog(path)
		if err != nil {
			t.Fatalf("cut at %d: reopening: %v", cut, err)
		}
		if err := l.Append(recs[len(have):]); err != nil {
			t.Fatal(err)
		}
		l.Close()
		data, _ := os.ReadFile(path)
		if !bytes.Equal(data, full) {
			t.Fatalf("cut at %d: after reopening and appending the file is not the whole log", cut)
		}
	}
	t.Logf("%d cuts, %d torn, none mis-read", len(full)+1, torn)
}
