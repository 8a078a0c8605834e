//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"aeroplane/web/client"
)

// localStore is client.Store over the page's localStorage: synchronous,
// so a value is kept once Set returns (IndexedDB answers later, and the
// log must hold a record before the messages after it are sent). It is
// the origin's (the serving program's address and port): a page served
// by another laptop has a storage of its own.
type localStore struct{ ls js.Value }

// browserStore is localStorage, or a store in memory when the browser
// refuses it (private mode, storage off): the page works, a reload
// starts afresh.
func browserStore() client.Store {
	ls := js.Global().Get("localStorage")
	if ls.Type() != js.TypeObject {
		return &client.MapStore{}
	}
	return localStore{ls}
}

func (s localStore) Get(key string) (string, bool) {
	v := s.ls.Call("getItem", key)
	if v.Type() != js.TypeString {
		return "", false
	}
	return v.String(), true
}

// Set implements client.Store; a full storage throws (QuotaExceededError).
func (s localStore) Set(key, value string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("the browser's storage refused it (full?)")
		}
	}()
	s.ls.Call("setItem", key, value)
	return nil
}

func (s localStore) Remove(key string) { s.ls.Call("removeItem", key) }
