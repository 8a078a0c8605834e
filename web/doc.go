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
// The client is built into static/ by `go generate ./web`
// (internal/clientbuild: client.wasm.gz, the toolchain's wasm_exec.js,
// which must match the Go that built the wasm, and client.sources, what
// it was built from) and committed, so that a plain `go run .` serves
// phones; TestClientIsUpToDate fails once the sources move on, and
// .ci/run rebuilds it byte for byte (the build is reproducible for one Go
// release). A binary built from a tree without it serves a page that
// says so.
//
// The page (static/): index.html, style.css (phone first; beside the
// board from 760 px), board.js (the printed board in SVG, from
// web/client's BoardLayout: the die, the planes and landing squares to
// tap, the last move's way) and app.js (the client's start, the table,
// the chat, the game's callbacks).
//
// The game socket (/ws, conn.go) carries web/client's wire: the browser
// proves its key, then the same signed lockstep frames a laptop sends go
// both ways, and lobby commands and tables (client.LobbyCmd, Table) while
// it waits at the table. Options.Players hands each proven socket to the
// program's session (session.NetSession.ServeWeb), which seats it at its
// table and relays its frames to the other programs; Link is a simpler
// lockstep.Link to browser players, for a table of this program alone. web imports lockstep and p2p (its frame kinds and LAN address
// list); p2p imports nothing of web and stays game-free.
package web
