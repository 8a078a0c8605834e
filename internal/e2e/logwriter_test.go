package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"aeroplane/internal/testout"
	"aeroplane/lockstep"
	"aeroplane/savegame"
)

const logWriterEnv = "AEROPLANE_E2E_LOGWRITER"

// record i of the writer's endless game log: sizes vary so kills land in
// headers, payloads and checksums alike.
func writerRecord(i int) lockstep.Record {
	if i == 0 {
		return lockstep.Record{Type: lockstep.RecordSetup, Data: []byte("setup")}
	}
	n := 1 + (i*7919)%700
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(i + j*31)
	}
	return lockstep.Record{Type: lockstep.RecordMessage, Data: b}
}

// runLogWriter is the child process: it opens the log exactly as the
// session does (a torn tail from the last kill is cut off), goes on from
// the last record it finds, and prints each record's number once Append
// (write + fsync) returned, so the parent knows what was acknowledged.
func runLogWriter(path string) {
	l, recs, err := savegame.OpenLog(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "open")
	out.Flush()
	for i := len(recs); ; i++ {
		if err := l.Append([]lockstep.Record{writerRecord(i)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintln(out, i)
		out.Flush()
	}
}

func init() {
	if path := os.Getenv(logWriterEnv); path != "" {
		runLogWriter(path)
	}
}

// A game log survives kill -9 at any moment: after each of many kills at
// random times the file reads back as exactly the records written, in
// order, possibly with a torn last record that the reader flags as torn
// (never mis-reads), every acknowledged (fsynced) record is there, and
// reopening it cuts the torn tail and appends on.
func TestLogSurvivesKill9(t *testing.T) {
	t.Parallel()
	kills := 25
	if long() {
		kills = 300
	}
	path := filepath.Join(t.TempDir(), "game.log")
	rng := rand.New(rand.NewPCG(1, 2))
	acked, torn := -1, 0
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), logWriterEnv+"="+path)
		var out, errb testout.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for start := time.Now(); !strings.HasPrefix(out.String(), "open") && time.Since(start) < 10*time.Second; {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if errb.String() != "" {
			t.Fatalf("kill %d: writer failed: %s", k, errb.String())
		}
		for _, l := range strings.Fields(out.String()) {
			if n, err := strconv.Atoi(l); err == nil && n > acked {
				acked = n
			}
		}
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) && acked < 0 {
			continue // killed before it opened the log
		}
		if err != nil {
			t.Fatal(err)
		}
		recs, err := lockstep.ReadLog(f)
		f.Close()
		var lerr *lockstep.LogError
		switch {
		case err == nil:
		case errors.Is(err, lockstep.ErrTornTail) && errors.As(err, &lerr):
			torn++
			if len(recs) > 0 && lerr.Offset <= recs[len(recs)-1].Offset {
				t.Fatalf("kill %d: torn tail at %d inside the good records", k, lerr.Offset)
			}
		default:
			t.Fatalf("kill %d: the log after kill -9 does not read: %v", k, err)
		}
		for i, r := range recs {
			w := writerRecord(i)
			if r.Type != w.Type || !bytes.Equal(r.Data, w.Data) {
				t.Fatalf("kill %d: record %d mis-read", k, i)
			}
		}
		if len(recs) <= acked {
			t.Fatalf("kill %d: record %d was acknowledged (fsynced) but the log holds %d", k, acked, len(recs))
		}
	}
	t.Logf("%d kills: %d left a torn tail, all read back exactly; %d records acknowledged", kills, torn, acked+1)
	if acked < kills {
		t.Errorf("the writer acknowledged only %d records in %d runs: kills came too early to test anything", acked+1, kills)
	}
}
