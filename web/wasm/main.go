//go:build js && wasm

// Command wasm is the browser's aeroplane: package web/client compiled to
// WebAssembly and bound to JavaScript as globalThis.aeroplane. The page
// (web/static) loads it with Go's wasm_exec.js; it calls
// globalThis.aeroplaneReady() once the functions are in place.
//
// Every function takes and returns plain JavaScript values; an error is
// returned as {error: "text"}, never thrown, so the page shows it.
package main

import (
	"encoding/json"
	"strconv"
	"syscall/js"

	"aeroplane/web/client"
)

func main() {
	var id *client.Identity
	api := map[string]any{
		// perft(rules, position, depth) → decimal count (a string: a
		// count can exceed JavaScript's exact integers).
		"perft": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 3 {
				return errValue("perft wants rules, position, depth")
			}
			n, err := client.Perft(a[0].String(), a[1].String(), a[2].Int())
			if err != nil {
				return errValue(err.Error())
			}
			return strconv.FormatUint(n, 10)
		}),
		// newKey() makes this page's key (crypto/rand: the browser's
		// getRandomValues) and returns its peer ID; the key stays here.
		"newKey": js.FuncOf(func(js.Value, []js.Value) any {
			k, err := client.NewIdentity()
			if err != nil {
				return errValue(err.Error())
			}
			id = k
			return id.ID.String()
		}),
		// peerID() is the key's peer ID, "" before newKey.
		"peerID": js.FuncOf(func(js.Value, []js.Value) any {
			if id == nil {
				return ""
			}
			return id.ID.String()
		}),
		// start(colours) is the opening position of those colours ("RY").
		"start": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("start wants the colour letters")
			}
			p, err := client.StartPosition(a[0].String())
			if err != nil {
				return errValue(err.Error())
			}
			return p
		}),
		// board(position) is the position laid out for drawing, as JSON.
		"board": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("board wants a position")
			}
			b, err := client.BoardOf(a[0].String())
			if err != nil {
				return errValue(err.Error())
			}
			data, _ := json.Marshal(b) // a Board of strings and ints always marshals
			return string(data)
		}),
	}
	js.Global().Set("aeroplane", js.ValueOf(api))
	if ready := js.Global().Get("aeroplaneReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the functions live as long as the page
}

func errValue(msg string) any { return map[string]any{"error": msg} }
