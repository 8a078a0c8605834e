package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildIsReproducible: two builds of the client, into two
// directories, are the same bytes, and their manifest describes the
// sources as they are (what .ci/run and web's TestClientIsUpToDate rely on).
func TestBuildIsReproducible(t *testing.T) {
	if err := os.Chdir("../../.."); err != nil { // the module root, as go generate ./web runs it from web/
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := build(d, false); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{wasmGz, wasmExec, manifest} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) || len(x) == 0 {
			t.Errorf("%s: %d and %d bytes, not the same", name, len(x), len(y))
		}
	}
	if err := checkDir(a); err != nil {
		t.Errorf("a fresh build's manifest: %v", err)
	}
}

// TestManifestRoundTrip: the manifest reads back as written, and one
// without its lines is refused.
func TestManifestRoundTrip(t *testing.T) {
	want := sources{Go: "go1.26.8", Flags: strings.Join(buildFlags, " "), Digest: strings.Repeat("ab", 32)}
	got, err := parseSources([]byte(want.String()))
	if err != nil || got != want {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{"", "go go1.26.8\n", "sources abc\n", "# only a comment\n"} {
		if _, err := parseSources([]byte(bad)); err == nil {
			t.Errorf("manifest %q: no error", bad)
		}
	}
}
