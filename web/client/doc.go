// Package client is the browser player's side of aeroplane, in plain Go so
// that it is tested natively and, compiled with GOOS=js GOARCH=wasm, in
// Node and in the browser: the project's own engine and lockstep, never a
// port. Package web/wasm binds it to JavaScript (syscall/js); nothing here
// touches the browser.
//
// The browser's identity is made here from crypto/rand, which under
// js/wasm is the browser's CSPRNG (crypto.getRandomValues); the private
// key stays in the wasm memory of the page that made it and is never
// marshalled out of it (Identity has no accessor for it).
package client
