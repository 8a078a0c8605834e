package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

const goldenLog = "../../lockstep/testdata/game.log"

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVerifyCommand(t *testing.T) {
	code, out, errs := runCLI(t, "verify", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"ok: every signature", "finishing order: 1. ", "history "} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestVerifyCommandRejectsDamage(t *testing.T) {
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"flipped", func() []byte { b := bytes.Clone(data); b[len(b)/2] ^= 0x40; return b }(), "at byte"},
		{"not a log", []byte("hello"), "not an aeroplane game log"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, "verify", path)
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Fatalf("%s: exit %d, stderr %q; want 1 and %q", tc.name, code, errs, tc.want)
		}
	}
	if code, _, _ := runCLI(t, "verify"); code != 2 {
		t.Fatalf("verify without a file: exit %d, want 2", code)
	}
}

// Every kind of damage to a real log, with the exit status a script sees
// and what it is told: records missing are an error naming the roll and
// the sender; a cut or torn end is a whole, unfinished game.
func TestVerifyCommandGaps(t *testing.T) {
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	encode := func(rs []lockstep.Record) []byte {
		return append(lockstep.LogHeader(), lockstep.EncodeRecords(rs...)...)
	}
	mid := len(recs) / 2
	midFrom, midSeq, _ := recs[mid].Sender()
	dropMid := append(append([]lockstep.Record(nil), recs[:mid]...), recs[mid+1:]...)
	// The second player's messages past its 40th: its tail removed.
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	victim := setup.Players()[1]
	var senderTail []lockstep.Record
	seen := 0
	for i, r := range recs {
		if from, _, ok := r.Sender(); i > 0 && ok && from == victim {
			if seen++; seen > 40 {
				continue
			}
		}
		senderTail = append(senderTail, r)
	}
	zeroTail := bytes.Clone(data)
	clear(zeroTail[recs[len(recs)-3].Offset:])
	flipped := bytes.Clone(data)
	flipped[recs[mid].Offset+20] ^= 1
	last := recs[len(recs)-1]
	tamperedTail := bytes.Clone(data)
	tamperedTail[last.Offset+20] ^= 1
	// A middle record changed and given a fresh checksum: only the game's
	// own checks (the game ID, the signature) catch it.
	rechecked := bytes.Clone(data)
	{
		r := recs[mid]
		r.Data = bytes.Clone(r.Data)
		r.Data[20] ^= 1
		copy(rechecked[r.Offset:], lockstep.EncodeRecords(r))
	}
	// The roll in play at a record: the rolls a log cut cleanly before it
	// checks out up to, plus one (verify's own "unfinished" answer).
	rollAt := func(i int) string {
		code, out, errs := runCLI(t, "verify", writeTemp(t, encode(recs[:i])))
		var r int
		if _, err := fmt.Sscanf(out[strings.Index(out, "up to roll "):], "up to roll %d", &r); code != 0 || err != nil {
			t.Fatalf("cut before record %d: exit %d, %v\n%s%s", i, code, err, out, errs)
		}
		return fmt.Sprintf("in roll %d", r+1)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		code int
		want []string // in stdout for 0, stderr otherwise
	}{
		{"the last record tampered", tamperedTail, 1, []string{fmt.Sprintf("altered at byte %d", last.Offset), rollAt(len(recs) - 1), "whole but fails its checksum", "verify theirs"}},
		{"a middle record tampered", flipped, 1, []string{fmt.Sprintf("altered or damaged at byte %d", recs[mid].Offset), rollAt(mid), "not the torn tail a crash leaves", "verify theirs"}},
		{"a middle record re-checksummed", rechecked, 1, []string{fmt.Sprintf("altered at byte %d", recs[mid].Offset), rollAt(mid), "passes its checksum", "verify theirs"}},
		{"a middle record dropped", encode(dropMid), 1, []string{"records are missing", ", roll ", fmt.Sprintf("%s's reveal has sequence %d", short(midFrom), midSeq+1), fmt.Sprintf("its message %d is not in the log", midSeq)}},
		{"the last records dropped", encode(recs[:len(recs)-20]), 0, []string{"unfinished: the log is whole", "waiting for "}},
		{"one sender's tail removed", encode(senderTail), 1, []string{"records are missing", "waiting for " + short(victim), "sequence 40", "removed"}},
		{"zero-filled tail", zeroTail, 0, []string{fmt.Sprintf("torn tail at byte %d", recs[len(recs)-3].Offset), rollAt(len(recs) - 3), "nothing to do", "unfinished"}},
		{"a byte flipped", flipped, 1, []string{fmt.Sprintf("corrupt at byte %d: checksum", recs[mid].Offset)}},
		{"cut inside the last record", data[:len(data)-5], 0, []string{fmt.Sprintf("torn tail at byte %d", last.Offset), rollAt(len(recs) - 1), "what a crash in the middle of writing leaves"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCLI(t, "verify", path)
			got := out
			if tc.code != 0 {
				got = errs
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Fatalf("output lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(out+errs, "truncate") {
				t.Errorf("damage advised as a crash to truncate:\n%s%s", out, errs)
			}
		})
	}
}

func short(id peer.ID) string { return lockstep.ShortID(id) }

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "game.log")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVerifyCommandSeatChange: a log where a newcomer took the bot's
// seat verifies, and verify says who flew the seat from which roll.
func TestVerifyCommandSeatChange(t *testing.T) {
	code, out, errs := runCLI(t, "verify", "../../lockstep/testdata/takeseat.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Green=bot random", "seat Green: flown by 12D3KooW", "from roll 26", "ok: every signature"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestVerifyCommandPaused: a log of a game its players paused together
// verifies (exit 0) and says it is unfinished because it was paused, and
// how to take it up; a log cut by a crash does not say paused.
func TestVerifyCommandPaused(t *testing.T) {
	code, out, errs := runCLI(t, "verify", "../../lockstep/testdata/pause.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"unfinished, paused at roll 3", "every player paused the game", "--continue"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	_, out, _ = runCLI(t, "verify", writeTemp(t, append(lockstep.LogHeader(), lockstep.EncodeRecords(recs[:len(recs)/2]...)...)))
	if strings.Contains(out, "paused") || !strings.Contains(out, "unfinished: the log is whole") {
		t.Fatalf("a crash's log reads:\n%s", out)
	}
}
