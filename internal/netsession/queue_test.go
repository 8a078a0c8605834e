package netsession

import (
	"reflect"
	"testing"
	"time"

	"aeroplane/ui"
)

// Events come out in order, paused ones included, and Close ends a pause
// at once (a pause of an hour would otherwise hang this test).
func TestQueueOrderAndClose(t *testing.T) {
	paused := 0
	q := newQueue(func(e ui.Event) time.Duration {
		if _, ok := e.(ui.Rolled); ok {
			paused++
			return time.Hour
		}
		return 0
	})
	want := []ui.Event{ui.Notice{Text: "a"}, ui.Rolled{Roll: 3}, ui.Notice{Text: "b"}, ui.Rolled{Roll: 5}}
	q.push(want[0])
	if got := <-q.out; !reflect.DeepEqual(got, want[0]) {
		t.Fatalf("first event %v", got)
	}
	q.push(want[1:]...)
	q.close()
	q.push(ui.Notice{Text: "after close"})
	got := []ui.Event{want[0]}
	for e := range q.out {
		got = append(got, e)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if paused != 2 {
		t.Fatalf("paced %d events, want the 2 rolls", paused)
	}
}
