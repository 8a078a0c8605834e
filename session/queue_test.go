package session

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

// A flood of lobby views waits in the queue as the latest one: the reader
// gets the one already on its way and the newest, with every other event
// in between kept in order.
func TestQueueCoalescesLobbyUpdates(t *testing.T) {
	cases := []struct {
		name    string
		views   int
		notices []int // push a notice after these views
	}{
		{"one", 1, nil},
		{"a flood", 20_000, nil},
		{"a flood with notices", 5_000, []int{0, 10, 4_999}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := newQueue(nil)
			var want []string
			for i := range c.views {
				q.push(ui.LobbyUpdate{Me: ui.Peer{Name: "me"}, Players: []ui.Peer{{Name: "fake", ID: string(rune('a' + i%26))}}})
				for _, n := range c.notices {
					if n == i {
						q.push(ui.Notice{Text: "n"})
						want = append(want, "n")
					}
				}
			}
			q.mu.Lock()
			queued := len(q.items)
			q.mu.Unlock()
			if queued > 1+len(c.notices) {
				t.Errorf("%d events queued for %d views and %d notices", queued, c.views, len(c.notices))
			}
			q.close()
			var views, notices []string
			var last ui.LobbyUpdate
			for e := range q.out {
				switch e := e.(type) {
				case ui.LobbyUpdate:
					views = append(views, e.Players[0].ID)
					last = e
				case ui.Notice:
					notices = append(notices, e.Text)
				}
			}
			if len(views) == 0 || len(views) > 2 {
				t.Errorf("%d lobby views delivered for %d pushed, want 1 or 2", len(views), c.views)
			}
			if wantLast := string(rune('a' + (c.views-1)%26)); last.Players[0].ID != wantLast {
				t.Errorf("last view %q, want the newest %q", last.Players[0].ID, wantLast)
			}
			if !reflect.DeepEqual(notices, want) {
				t.Errorf("notices %v, want %v", notices, want)
			}
		})
	}
}
