package p2p

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Limits of the log lines a remote peer can cause (rateLimiter).
const (
	logBurst = 5                // lines of one kind from one peer let through
	logQuiet = 10 * time.Second // a burst ends after this long without its lines
	logEvery = time.Minute      // a burst that goes on is summed up this often
	logKeys  = 256              // (peer, message) pairs tracked
)

// rateLimiter bounds the log lines a remote peer can cause, so a stranger
// cannot fill the disk through the log: of the records carrying a "peer"
// attribute, each (peer, kind) pair gets logBurst lines through, then
// is counted, not written, until logQuiet passes without one; then one
// line says how many were suppressed (and one per logEvery while a burst
// goes on). At most logKeys pairs are tracked: past that, the records of
// untracked peers share one pair per message, so memory stays bounded
// whatever the number of peer IDs. Records without a "peer" pass as they
// are. A record's kind is its message and, if it has a "why" (a strike's
// reason), that reason up to its first colon: one kind of bad frame does
// not silence the next. The clock is a field, so tests drive it.
type rateLimiter struct {
	now   func() time.Time
	after func(time.Duration, func()) // schedules the sweep that ends bursts

	mu        sync.Mutex
	keys      map[rateKey]*rateEntry
	scheduled bool
	swept     time.Time
}

type rateKey struct{ peer, msg string }

type rateEntry struct {
	h           slog.Handler // where the summary goes: the first line's
	level       slog.Level
	last, since time.Time // the last line; the start of the count
	passed      int
	suppressed  int
}

func newRateLimiter() *rateLimiter {
	return &rateLimiter{
		now:   time.Now,
		after: func(d time.Duration, f func()) { time.AfterFunc(d, f) },
		keys:  map[rateKey]*rateEntry{},
	}
}

// logger wraps l's handler with the limiter; a logger it made already is
// returned as it is.
func (rl *rateLimiter) logger(l *slog.Logger) *slog.Logger {
	if h, ok := l.Handler().(*rateHandler); ok && h.rl == rl {
		return l
	}
	return slog.New(&rateHandler{inner: l.Handler(), rl: rl})
}

// allow counts one record of msg from src and reports whether to write it.
func (rl *rateLimiter) allow(h slog.Handler, src, msg string, level slog.Level) bool {
	now := rl.now()
	rl.mu.Lock()
	var out []summary
	if now.Sub(rl.swept) >= logQuiet/4 {
		out = rl.sweepLocked(now)
	}
	k := rateKey{src, msg}
	e := rl.keys[k]
	if e == nil && len(rl.keys) >= logKeys {
		k = rateKey{"others", msg}
		e = rl.keys[k]
	}
	if e == nil {
		e = &rateEntry{h: h, level: level, since: now}
		rl.keys[k] = e
	}
	e.last = now
	e.level = max(e.level, level)
	ok := e.passed < logBurst
	if ok {
		e.passed++
	} else {
		e.suppressed++
		if !rl.scheduled {
			rl.scheduled = true
			rl.after(logQuiet, rl.timer)
		}
	}
	rl.mu.Unlock()
	emit(out)
	return ok
}

// timer ends the bursts that are over and comes back while any goes on.
func (rl *rateLimiter) timer() {
	rl.mu.Lock()
	out := rl.sweepLocked(rl.now())
	again := false
	for _, e := range rl.keys {
		again = again || e.suppressed > 0
	}
	rl.scheduled = again
	if again {
		rl.after(logQuiet, rl.timer)
	}
	rl.mu.Unlock()
	emit(out)
}

type summary struct {
	k rateKey
	e rateEntry
	n int
}

// sweepLocked forgets the pairs quiet for logQuiet and returns the
// summaries due: of the bursts that ended, and of those going on for
// logEvery since the last.
func (rl *rateLimiter) sweepLocked(now time.Time) []summary {
	rl.swept = now
	var out []summary
	for k, e := range rl.keys {
		switch {
		case now.Sub(e.last) >= logQuiet:
			if e.suppressed > 0 {
				out = append(out, summary{k, *e, e.suppressed})
			}
			delete(rl.keys, k)
		case e.suppressed > 0 && now.Sub(e.since) >= logEvery:
			out = append(out, summary{k, *e, e.suppressed})
			e.suppressed, e.since = 0, now
		}
	}
	return out
}

func emit(out []summary) {
	for _, s := range out {
		r := slog.NewRecord(s.e.last, s.e.level, "log lines suppressed", 0)
		r.AddAttrs(slog.String("peer", s.k.peer), slog.String("msg", s.k.msg), slog.Int("suppressed", s.n))
		_ = s.e.h.Handle(context.Background(), r)
	}
}

// rateHandler is the slog.Handler face of a rateLimiter.
type rateHandler struct {
	inner slog.Handler
	rl    *rateLimiter
}

func (h *rateHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *rateHandler) Handle(ctx context.Context, r slog.Record) error {
	src, kind := "", r.Message
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "peer":
			src = a.Value.String()
		case "why":
			why, _, _ := strings.Cut(a.Value.String(), ":")
			kind += ": " + why
		}
		return true
	})
	if src != "" && !h.rl.allow(h.inner, src, kind, r.Level) {
		return nil
	}
	return h.inner.Handle(ctx, r)
}

func (h *rateHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &rateHandler{inner: h.inner.WithAttrs(as), rl: h.rl}
}

func (h *rateHandler) WithGroup(name string) slog.Handler {
	return &rateHandler{inner: h.inner.WithGroup(name), rl: h.rl}
}
