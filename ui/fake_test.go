package ui

import (
	"fmt"
	"sync"

	"aeroplane/engine"
)

// fakeSession records the commands the interface sends.
type fakeSession struct {
	mu    sync.Mutex
	calls []string
	ev    chan Event
}

func newFake() *fakeSession { return &fakeSession{ev: make(chan Event, 64)} }

func (f *fakeSession) rec(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
	return nil
}

func (f *fakeSession) took() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.calls
	f.calls = nil
	return out
}

func (f *fakeSession) Events() <-chan Event            { return f.ev }
func (f *fakeSession) SetName(n string) error          { return f.rec("name " + n) }
func (f *fakeSession) CreateGame(r engine.Rules) error { return f.rec("create " + r.String()) }
func (f *fakeSession) Join(id string) error            { return f.rec("join " + id) }
func (f *fakeSession) Connect(a string) error          { return f.rec("connect " + a) }
func (f *fakeSession) SetSeat(c engine.Colour, k string) error {
	return f.rec(fmt.Sprintf("seat %c %q", c.Letter(), k))
}
func (f *fakeSession) SetRules(r engine.Rules) error { return f.rec("rules " + r.String()) }
func (f *fakeSession) Start() error                  { return f.rec("start") }
func (f *fakeSession) Roll() error                   { return f.rec("roll") }
func (f *fakeSession) Choose(m engine.Move) error    { return f.rec("choose " + m.String()) }
func (f *fakeSession) Chat(t string) error           { return f.rec("chat " + t) }
func (f *fakeSession) Rematch() error                { return f.rec("rematch") }
func (f *fakeSession) Close() error                  { return f.rec("close") }
func (f *fakeSession) Watch(lobby string) error      { return f.rec("watch " + lobby) }
func (f *fakeSession) Continue(lobby string) error   { return f.rec("continue " + lobby) }
func (f *fakeSession) Pause() error                  { return f.rec("pause") }
func (f *fakeSession) TakeSeat(lobby string, c engine.Colour) error {
	return f.rec(fmt.Sprintf("take %s %s", lobby, c))
}
