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
	done   chan struct{} // closed by close: stop delivering even if nobody reads
}

func newEventQueue() *eventQueue {
	q := &eventQueue{out: make(chan Event), done: make(chan struct{})}
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

// close drops what is not yet delivered and closes the channel, so that
// a reader that stopped reading leaks no goroutine.
func (q *eventQueue) close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.done)
	}
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *eventQueue) pump() {
	for {
		q.mu.Lock()
		for len(q.queue) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			close(q.out)
			return
		}
		e := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		q.mu.Unlock()
		select {
		case q.out <- e:
		case <-q.done:
			close(q.out)
			return
		}
	}
}
