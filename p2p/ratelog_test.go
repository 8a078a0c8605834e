package p2p

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// captureHandler keeps every record it is handed: p2ptest.Capture, copied
// because these tests drive the unexported rate limiter (helpers_test.go).
type captureHandler struct {
	mu   *sync.Mutex
	recs *[]slog.Record
}

func newCapture() captureHandler { return captureHandler{&sync.Mutex{}, &[]slog.Record{}} }

func (h captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h captureHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	*h.recs = append(*h.recs, r)
	h.mu.Unlock()
	return nil
}
func (h captureHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h captureHandler) WithGroup(string) slog.Handler      { return h }

func (h captureHandler) count(msg string) (n, sum int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range *h.recs {
		if r.Message == msg {
			n++
		}
		if r.Message == "log lines suppressed" {
			r.Attrs(func(a slog.Attr) bool {
				if a.Key == "suppressed" {
					sum += int(a.Value.Int64())
				}
				return true
			})
		}
	}
	return n, sum
}

// fakeTimers is the limiter's clock: time moves when the test says, and
// the scheduled sweeps run when it passes them.
type fakeTimers struct {
	now time.Time
	due []fakeTimer
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func (c *fakeTimers) advance(d time.Duration) {
	c.now = c.now.Add(d)
	for {
		i := -1
		for j, t := range c.due {
			if !t.at.After(c.now) {
				i = j
				break
			}
		}
		if i < 0 {
			return
		}
		f := c.due[i].f
		c.due = append(c.due[:i], c.due[i+1:]...)
		f()
	}
}

func newFakeLimiter() (*rateLimiter, *fakeTimers) {
	c := &fakeTimers{now: time.Unix(1_000_000, 0)}
	rl := newRateLimiter()
	rl.now = func() time.Time { return c.now }
	rl.after = func(d time.Duration, f func()) { c.due = append(c.due, fakeTimer{c.now.Add(d), f}) }
	return rl, c
}

// TestRateLimiter: a peer repeating one line gets logBurst of them through
// and the rest summed up in O(1) lines, however long it goes on; the
// counts add up; memory stays bounded whatever the number of peers; lines
// without a peer are never held back.
func TestRateLimiter(t *testing.T) {
	cases := []struct {
		name     string
		peers    int           // distinct peers, taking turns
		lines    int           // lines in all
		every    time.Duration // between lines
		withPeer bool
		maxOut   int // lines written at most, summaries included
	}{
		{"one peer, 10 s at 1 kHz", 1, 10_000, time.Millisecond, true, logBurst + 1},
		{"one peer, 10 min at 100 Hz", 1, 60_000, 10 * time.Millisecond, true, logBurst + 11},
		{"one peer, slow", 1, 20, 11 * time.Second, true, 20},
		// New peers every millisecond for 20 s: logKeys of them and one
		// shared allowance per logQuiet.
		{"20,000 peers", 20_000, 20_000, time.Millisecond, true, 3 * (logKeys + logBurst + 1)},
		{"no peer attribute", 1, 1_000, time.Millisecond, false, 1_000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rl, clock := newFakeLimiter()
			out := newCapture()
			log := rl.logger(slog.New(out)).With("self", "me")
			if rl.logger(log) != log {
				t.Error("wrapping a limited logger again made another")
			}
			most := 0
			for i := range c.lines {
				if c.withPeer {
					log.Warn("bad frame dropped", "peer", fmt.Sprintf("p%d", i%c.peers))
				} else {
					log.Warn("bad frame dropped")
				}
				clock.advance(c.every)
				rl.mu.Lock()
				most = max(most, len(rl.keys))
				rl.mu.Unlock()
			}
			clock.advance(2 * logQuiet)
			written, suppressed := out.count("bad frame dropped")
			all := len(*out.recs)
			log.Info("another line sweeps", "peer", "late")
			if all > c.maxOut {
				t.Errorf("%d lines written for %d (at most %d)", all, c.lines, c.maxOut)
			}
			if written+suppressed != c.lines {
				t.Errorf("%d written + %d suppressed != %d lines", written, suppressed, c.lines)
			}
			if most > logKeys+1 {
				t.Errorf("%d pairs tracked (cap %d)", most, logKeys)
			}
			if len(rl.keys) != 1 || len(clock.due) != 0 {
				t.Errorf("after the quiet: %d pairs tracked, %d sweeps scheduled", len(rl.keys), len(clock.due))
			}
		})
	}
}

// TestRateLimiterKinds: each message of one peer has its own allowance,
// and the summary names the peer and the message.
func TestRateLimiterKinds(t *testing.T) {
	rl, clock := newFakeLimiter()
	out := newCapture()
	log := rl.logger(slog.New(out))
	for range 100 {
		log.Warn("a", "peer", "x")
		log.Info("b", "peer", "x")
	}
	clock.advance(logQuiet)
	for _, msg := range []string{"a", "b"} {
		if n, _ := out.count(msg); n != logBurst {
			t.Errorf("%q written %d times, want %d", msg, n, logBurst)
		}
	}
	got := map[string]string{}
	for _, r := range *out.recs {
		if r.Message != "log lines suppressed" {
			continue
		}
		attrs := map[string]string{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		got[attrs["msg"]] = attrs["peer"] + " " + attrs["suppressed"] + " " + r.Level.String()
	}
	want := map[string]string{"a": "x 95 WARN", "b": "x 95 INFO"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("summaries %v, want %v", got, want)
	}
}

// TestRateLimiterStrikeReasons: strikes of different reasons are limited
// apart (one reason's flood does not hide the next), details after the
// colon do not make a new kind.
func TestRateLimiterStrikeReasons(t *testing.T) {
	rl, clock := newFakeLimiter()
	out := newCapture()
	log := rl.logger(slog.New(out))
	for i := range 50 {
		log.Warn("bad frame dropped", "peer", "x", "why", fmt.Sprintf("bad chat frame: seq %d", i))
	}
	log.Warn("bad frame dropped", "peer", "x", "why", "frame of unknown kind: 99")
	clock.advance(logQuiet)
	n, sum := out.count("bad frame dropped")
	if n != logBurst+1 || sum != 50-logBurst {
		t.Errorf("%d written, %d suppressed; want %d and %d", n, sum, logBurst+1, 50-logBurst)
	}
}
