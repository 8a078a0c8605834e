// Package client is the browser player's side of aeroplane, in plain Go so
// that it is tested natively and, compiled with GOOS=js GOARCH=wasm, in
// Node and in the browser: the project's own engine and lockstep, never a
// port. Package web/wasm binds it to JavaScript (syscall/js); nothing here
// touches the browser.
//
// The browser's identity is made here from crypto/rand, which under
// js/wasm is the browser's CSPRNG (crypto.getRandomValues); the private
// key is never sent (Identity has no accessor for it). A Keeper keeps it
// on the device, in the browser's Store (web/wasm: localStorage of the
// serving program's origin), with the running game's chain secret and
// log, so that a page reloaded mid-game takes its seat again (Play with
// GameConfig.Keep rebuilds its node with lockstep.Restore); one game is
// kept, at most MaxKeptLog of log, and a finished one is forgotten.
package client
