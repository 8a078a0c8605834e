package web

import (
	"embed"
	"io/fs"
)

// The client is committed (a plain go build or go run serves phones);
// after a change to what web/wasm compiles, rebuild it (web's
// TestClientIsUpToDate says when):
//
//go:generate go run ./internal/clientbuild -o static

//go:embed static
var embedded embed.FS

// Assets are the embedded page and client (static/).
func Assets() fs.FS {
	sub, err := fs.Sub(embedded, "static")
	if err != nil {
		panic(err) // static/ is embedded at build time: it is always there
	}
	return sub
}

// The client's files, as the page asks for them.
const (
	wasmGz   = "client.wasm.gz" // the client, stored gzipped
	wasmExec = "wasm_exec.js"
)

// HasClient reports whether assets hold the client (a checkout always
// does; a tree whose client was deleted builds a binary without it).
func HasClient(assets fs.FS) bool {
	for _, name := range []string{wasmGz, wasmExec} {
		if _, err := fs.Stat(assets, name); err != nil {
			return false
		}
	}
	return true
}
