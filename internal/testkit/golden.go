package testkit

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// update is the one -update flag of every test binary that imports
// testkit: go test ./ui -update rewrites ui's golden files.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output (review the diff before committing)")

// Updating reports whether the run was asked to rewrite golden files.
func Updating() bool { return *update }

// Golden compares got with the file at path (relative to the package's
// directory, usually under testdata/). With -update it writes got there
// instead, creating the directories, and the test passes.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update in this package creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update in this package rewrites it after a deliberate change; review the diff)\n%s", path, describe(got, want))
	}
}

// describe shows both texts, or for binary or long output where they
// first differ, so a failing log comparison does not flood the terminal.
func describe(got, want []byte) string {
	if utf8.Valid(got) && utf8.Valid(want) && len(got)+len(want) < 16<<10 {
		return fmt.Sprintf("--- got\n%s\n--- want\n%s", got, want)
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("got %d bytes, want %d; first difference at byte %d", len(got), len(want), i)
}
