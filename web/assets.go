package web

import (
	"embed"
	"io/fs"
)

//go:generate sh -c "GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o static/client.wasm ./wasm && gzip -9nf static/client.wasm && cp \"$(go env GOROOT)/lib/wasm/wasm_exec.js\" static/wasm_exec.js"

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

// HasClient reports whether assets hold the client (go generate ./web ran
// before the build).
func HasClient(assets fs.FS) bool {
	for _, name := range []string{wasmGz, wasmExec} {
		if _, err := fs.Stat(assets, name); err != nil {
			return false
		}
	}
	return true
}
