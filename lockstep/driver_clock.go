package lockstep

import "time"

// Clock is a Driver's time: its ticks and its linger after the end. The
// Node itself never sees a clock, only Tick calls.
type Clock interface {
	Now() time.Time
	// After sends once on the channel when d has passed.
	After(d time.Duration) <-chan time.Time
	// Ticker sends every period until stop is called.
	Ticker(period time.Duration) (c <-chan time.Time, stop func())
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (realClock) Ticker(p time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(p)
	return t.C, t.Stop
}
