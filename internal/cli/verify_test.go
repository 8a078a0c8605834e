package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"torn", data[:len(data)-5], "torn last record at byte"},
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
