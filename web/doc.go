// Package web serves the browser client of aeroplane from the program at
// the table: the page, Go's wasm_exec.js and the client compiled to
// WebAssembly (web/wasm), all embedded in the binary (embed.FS), nothing
// fetched from anywhere else.
//
// It listens only on loopback, private and link-local addresses (the
// set p2p dials peers on), never on a wildcard or a public address, and
// answers only requests whose Host is an IP literal, so a web page on the
// internet cannot reach it through DNS rebinding (its name would be the
// Host). Every response forbids loading anything from another origin
// (Content-Security-Policy).
//
// The client is built into static/ by `go generate ./web` (client.wasm.gz
// and the toolchain's wasm_exec.js, which must match the Go that built the
// wasm); a binary built without it serves a page that says so.
//
// web imports no game package but web/client's lockstep frames travel
// through it (Link); p2p stays game-free and web never touches it except
// for its LAN address list.
package web
