package ui

import "sync"

// eventQueue hands events to a channel without ever blocking the sender:
// a session emits while holding its lock, and the interface may be busy
// calling that same session, so a bounded channel could deadlock.
type eventQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []Event
	closed bool
	out    chan Event
}

func newEventQueue() *eventQueue {
	q := &eventQueue{out: make(chan Event)}
	q.cond = sync.NewCond(&q.mu)
	go q.pump()
	return q
}

func (q *eventQueue) push(e Event) {
	q.mu.Lock()
	if !q.closed {
		q.queue = append(q.queue, e)
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// close delivers what is queued, then closes the channel.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *eventQueue) pump() {
	for {
		q.mu.Lock()
		for len(q.queue) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.queue) == 0 {
			q.mu.Unlock()
			close(q.out)
			return
		}
		e := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		q.mu.Unlock()
		q.out <- e
	}
}
