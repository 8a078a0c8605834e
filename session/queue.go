package session

import (
	"slices"
	"sync"
	"time"

	"aeroplane/ui"
)

// queue hands events to a channel without ever blocking the sender: a
// session emits while holding its lock, and the interface may be calling
// that same session at that moment, so a bounded channel could deadlock.
// pace, if set, says how long to pause before delivering an event, so a
// person can follow bot turns that the protocol plays in one go (a roll
// paused so is announced by a ui.RollCountdown as the pause starts); it is
// asked as the event is pushed (what the game is then decides), never
// while the session's lock might be wanted by it.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []item
	closed bool
	stop   chan struct{} // closed with the queue: pauses end at once
	out    chan ui.Event
	pace   func(ui.Event) time.Duration
}

// item is a queued event and the pause before it.
type item struct {
	e     ui.Event
	pause time.Duration
}

func newQueue(pace func(ui.Event) time.Duration) *queue {
	q := &queue{out: make(chan ui.Event), stop: make(chan struct{}), pace: pace}
	q.cond = sync.NewCond(&q.mu)
	go q.pump()
	return q
}

// push queues evs. A ui.LobbyUpdate is the whole lobby, so one still
// queued is replaced by the newer (which goes last, after what came in
// between): a flood of lobby changes waits as one update, not one each,
// and the queue holds at most one of them.
func (q *queue) push(evs ...ui.Event) {
	q.mu.Lock()
	if !q.closed && len(evs) > 0 {
		for _, e := range evs {
			if _, ok := e.(ui.LobbyUpdate); ok {
				q.items = slices.DeleteFunc(q.items, func(old item) bool {
					_, lobby := old.e.(ui.LobbyUpdate)
					return lobby
				})
			}
			it := item{e: e}
			if q.pace != nil {
				it.pause = q.pace(e)
			}
			q.items = append(q.items, it)
		}
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// first queues e ahead of everything waiting, without a pause: what the
// interface must hear now (ui.LeaveDone: the player is quitting, the
// paced rolls behind it no longer matter).
func (q *queue) first(e ui.Event) {
	q.mu.Lock()
	if !q.closed {
		q.items = slices.Insert(q.items, 0, item{e: e})
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// close delivers what is queued (without pauses), then closes the channel.
func (q *queue) close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.stop)
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// stopped reports whether close was called (its pauses are skipped).
func (q *queue) stopped() bool {
	select {
	case <-q.stop:
		return true
	default:
		return false
	}
}

func (q *queue) pump() {
	for {
		q.mu.Lock()
		for len(q.items) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.items) == 0 {
			q.mu.Unlock()
			close(q.out)
			return
		}
		it := q.items[0]
		q.items[0] = item{}
		q.items = q.items[1:]
		q.mu.Unlock()
		if it.pause > 0 {
			if r, ok := it.e.(ui.Rolled); ok && !q.stopped() {
				// The turn line counts the pause down to the roll.
				q.out <- ui.RollCountdown{Colour: r.Colour, In: it.pause}
			}
			t := time.NewTimer(it.pause)
			select {
			case <-t.C:
			case <-q.stop:
				t.Stop()
			}
		}
		q.out <- it.e
	}
}
