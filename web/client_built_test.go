package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"os/exec"
	"testing"
)

// TestClientIsUpToDate: the client embedded from static/ (committed, so
// that a plain `go run .` serves phones) was built from the sources as
// they are now: after a change to the engine, lockstep or web/client it
// says to run go generate ./web. (.ci/run also rebuilds it and compares
// the bytes.)
func TestClientIsUpToDate(t *testing.T) {
	cmd := exec.Command(goCmd(), "run", "./internal/clientbuild", "-check", "static")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestBinaryEmbedsTheClient: the assets a plain build embeds hold the
// client, a gzipped WebAssembly module, and Go's wasm_exec.js.
func TestBinaryEmbedsTheClient(t *testing.T) {
	assets := Assets()
	if !HasClient(assets) {
		t.Fatal("the binary embeds no client: go generate ./web, and commit web/static")
	}
	f, err := assets.Open(wasmGz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", wasmGz, err)
	}
	head := make([]byte, 4)
	if _, err := io.ReadFull(zr, head); err != nil || !bytes.Equal(head, []byte("\x00asm")) {
		t.Fatalf("%s holds %q (%v), want a WebAssembly module", wasmGz, head, err)
	}
}
