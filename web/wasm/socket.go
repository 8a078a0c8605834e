//go:build js && wasm

package main

import (
	"errors"
	"sync"
	"syscall/js"
)

// jsSocket is client.Socket over the browser's WebSocket. Its callbacks
// run on the JavaScript event loop and must never block, so a message
// that finds the queue full is dropped (lockstep re-sends what a player
// lacks) and counted.
type jsSocket struct {
	ws      js.Value
	recv    chan []byte
	once    sync.Once
	open    chan struct{}
	dropped int
	funcs   []js.Func
}

const socketQueue = 1024

func dialSocket(url string) *jsSocket {
	s := &jsSocket{ws: js.Global().Get("WebSocket").New(url), recv: make(chan []byte, socketQueue), open: make(chan struct{})}
	s.ws.Set("binaryType", "arraybuffer")
	on := func(name string, f func(js.Value)) {
		fn := js.FuncOf(func(_ js.Value, a []js.Value) any { f(a[0]); return nil })
		s.funcs = append(s.funcs, fn)
		s.ws.Set(name, fn)
	}
	on("onopen", func(js.Value) { close(s.open) })
	on("onmessage", func(ev js.Value) {
		u8 := js.Global().Get("Uint8Array").New(ev.Get("data"))
		b := make([]byte, u8.Length())
		js.CopyBytesToGo(b, u8)
		select {
		case s.recv <- b:
		default:
			s.dropped++
		}
	})
	on("onclose", func(js.Value) { s.close() })
	on("onerror", func(js.Value) { s.close() })
	return s
}

func (s *jsSocket) close() {
	s.once.Do(func() { close(s.recv) })
}

// Send implements client.Socket.
func (s *jsSocket) Send(msg []byte) error {
	if s.ws.Get("readyState").Int() != 1 { // OPEN
		return errors.New("the game socket is not open")
	}
	u8 := js.Global().Get("Uint8Array").New(len(msg))
	js.CopyBytesToJS(u8, msg)
	s.ws.Call("send", u8)
	return nil
}

// Recv implements client.Socket.
func (s *jsSocket) Recv() <-chan []byte { return s.recv }
