package memnet

import (
	"context"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
)

// PlayConfig is how Play drives its table.
type PlayConfig struct {
	// Log is player i's game log; nil keeps none (and syncs nothing).
	Log  func(i int) lockstep.Log
	Sync lockstep.SyncPolicy
	// Link wraps player i's end of the network (to check what leaves, or
	// rewrite it); nil uses it as it is.
	Link func(i int, l *Link) lockstep.Link
	// Choose picks player i's move among moves (nil: the first), played
	// on each EventYourMove; an EventYourRoll is rolled at once.
	Choose func(i int, moves []engine.Move) engine.Move
	// OnReady sees each of player i's Readies first, on its driver's
	// goroutine.
	OnReady func(i int, rd lockstep.Ready)
}

// Play runs one lockstep.Driver per node (nodes[i] plays as the i-th
// player New was given) over n, with a clock that never ticks (a perfect network needs no
// re-sends, and nobody is late), until every driver returns at the end
// of the game (no linger) or ctx ends; it returns their final states and
// errors.
func (n *Net) Play(ctx context.Context, nodes []*lockstep.Node, cfg PlayConfig) ([]lockstep.State, []error) {
	ids := n.order
	states, errs := make([]lockstep.State, len(nodes)), make([]error, len(nodes))
	drivers := make([]*lockstep.Driver, len(nodes))
	for i, node := range nodes {
		var link lockstep.Link = n.Link(ids[i])
		if cfg.Link != nil {
			link = cfg.Link(i, n.Link(ids[i]))
		}
		var lg lockstep.Log = discard{}
		sync := lockstep.SyncNone
		if cfg.Log != nil {
			lg, sync = cfg.Log(i), cfg.Sync
		}
		d, err := lockstep.NewDriver(node, lockstep.DriverConfig{Link: link, Log: lg, Sync: sync, Linger: -1, Clock: Still,
			OnReady: func(rd lockstep.Ready) {
				if cfg.OnReady != nil {
					cfg.OnReady(i, rd)
				}
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventYourMove:
						m := e.Moves[0]
						if cfg.Choose != nil {
							m = cfg.Choose(i, e.Moves)
						}
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
					case lockstep.EventYourRoll:
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Roll() })
					}
				}
			}})
		if err != nil {
			errs[i] = err
			return states, errs
		}
		drivers[i] = d
	}
	var wg sync.WaitGroup
	for i, d := range drivers {
		wg.Go(func() { states[i], errs[i] = d.Run(ctx) })
	}
	wg.Wait()
	return states, errs
}

type discard struct{}

func (discard) Write([]lockstep.Record) error { return nil }
func (discard) Sync() error                   { return nil }

// Still is a lockstep.Clock that never ticks and whose timers never fire.
var Still lockstep.Clock = still{}

type still struct{}

func (still) Now() time.Time                                  { return time.Time{} }
func (still) After(time.Duration) <-chan time.Time            { return nil }
func (still) Ticker(time.Duration) (<-chan time.Time, func()) { return nil, func() {} }
