package session

import (
	"reflect"
	"testing"
	"time"

	"aeroplane/engine"
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
	want := []ui.Event{ui.Notice{Msg: ui.M("a")}, ui.Rolled{Roll: 3}, ui.Notice{Msg: ui.M("b")}, ui.Rolled{Roll: 5}}
	q.push(want[0])
	if got := <-q.out; !reflect.DeepEqual(got, want[0]) {
		t.Fatalf("first event %v", got)
	}
	q.push(want[1:]...)
	q.close()
	q.push(ui.Notice{Msg: ui.M("after close")})
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

// A paused roll is announced as its pause starts, so that the turn line
// can count it down: the countdown, then the roll.
func TestQueueAnnouncesPausedRolls(t *testing.T) {
	const pause = 30 * time.Millisecond
	q := newQueue(func(e ui.Event) time.Duration {
		if r, ok := e.(ui.Rolled); ok && r.Colour == engine.Blue {
			return pause
		}
		return 0
	})
	defer q.close()
	q.push(ui.Rolled{Colour: engine.Red, Roll: 2}, ui.Rolled{Colour: engine.Blue, Roll: 4})
	want := []ui.Event{ui.Rolled{Colour: engine.Red, Roll: 2}, ui.RollCountdown{Colour: engine.Blue, In: pause}, ui.Rolled{Colour: engine.Blue, Roll: 4}}
	for i, w := range want {
		if got := <-q.out; !reflect.DeepEqual(got, w) {
			t.Fatalf("event %d: %#v, want %#v", i, got, w)
		}
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
						q.push(ui.Notice{Msg: ui.M("n")})
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
					notices = append(notices, e.Msg.String())
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

// first goes ahead of everything still waiting (the pump may hold one
// event already, in its pause), and nothing is lost behind it.
func TestQueueFirst(t *testing.T) {
	q := newQueue(func(e ui.Event) time.Duration {
		if _, ok := e.(ui.Rolled); ok {
			return time.Hour // close ends it
		}
		return 0
	})
	var rolls []ui.Event
	for i := range 5 {
		rolls = append(rolls, ui.Rolled{Roll: i + 1})
	}
	q.push(rolls...)
	q.first(ui.LeaveDone{})
	q.close()
	var got, rest []ui.Event
	at := -1
	for e := range q.out {
		switch e.(type) {
		case ui.RollCountdown:
			// the count down to the roll the pump holds, said before it
			got = append(got, e)
			continue
		case ui.LeaveDone:
			at = len(rest)
		default:
			rest = append(rest, e)
		}
		got = append(got, e)
	}
	if at < 0 || at > 1 || !reflect.DeepEqual(rest, rolls) {
		t.Fatalf("got %v: LeaveDone at %d, want it first (behind at most the one in the pump), every roll after", got, at)
	}
}
