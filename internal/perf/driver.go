package perf

import (
	"context"
	"os"
	"sync/atomic"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
)

// Sync says when an experimental driver flushes the game log.
type Sync int

// The log policies RunTurns can compare (see docs/PERFORMANCE.md).
const (
	// SyncSession is the product: p2p.Session, one Ready per frame
	// stepped, signatures checked before the driver, the log fsynced
	// before the player's own messages leave.
	SyncSession Sync = iota
	// SyncBatched steps every frame already waiting (up to 16) before
	// taking one Ready: one fsync per burst, the crash rule unchanged.
	SyncBatched
	// SyncBeforeSend is SyncBatched that writes every Ready but fsyncs only
	// before a Ready that sends something: entries that only record
	// others' messages wait for the next flush.
	SyncBeforeSend
	// SyncChoices fsyncs only before sending a Ready that follows a local
	// choice (a move); everything else is written and flushed later. Not
	// known to be safe: it measures the most a rule change could gain.
	SyncChoices
)

func (s Sync) String() string {
	return [...]string{"session", "batched", "before-send", "choices"}[s]
}

// driver is a stand-in for p2p.Session with a different log policy, to
// measure what a change to Session.Run would gain. It is not the
// product's driver: no chat, no restore, no peer events.
type driver struct {
	t       *p2p.Transport
	n       *lockstep.Node
	f       *os.File
	sync    Sync
	onReady func(lockstep.Ready)
	do      chan func(*lockstep.Node) error
	syncs   *atomic.Int64 // fsyncs done, shared by the game's drivers
	chose   bool          // an action (a Choose) ran since the last flush
}

func newDriver(t *p2p.Transport, cfg lockstep.Config, path string, sync Sync, onReady func(lockstep.Ready), syncs *atomic.Int64) (*driver, error) {
	n, err := lockstep.NewNode(cfg)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(lockstep.LogHeader()); err != nil {
		f.Close()
		return nil, err
	}
	return &driver{t: t, n: n, f: f, sync: sync, onReady: onReady, do: make(chan func(*lockstep.Node) error, 16), syncs: syncs}, nil
}

func (d *driver) Do(f func(*lockstep.Node) error) { d.do <- f }

// Run drives the node like p2p.Session.Run, with d.sync's log policy.
func (d *driver) Run(ctx context.Context) (lockstep.State, error) {
	defer d.f.Close()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var state lockstep.State
	var over <-chan time.Time
	dirty := false
	for {
		if d.n.HasReady() {
			rd := d.n.Ready()
			if len(rd.LogEntries) > 0 {
				if _, err := d.f.Write(lockstep.EncodeRecords(rd.LogEntries...)); err != nil {
					return rd.State, err
				}
				dirty = true
			}
			need := true
			switch d.sync {
			case SyncBeforeSend:
				need = len(rd.Messages) > 0
			case SyncChoices:
				need = d.chose && len(rd.Messages) > 0
			}
			if dirty && need {
				if err := d.f.Sync(); err != nil {
					return rd.State, err
				}
				d.syncs.Add(1)
				dirty, d.chose = false, false
			}
			for _, e := range rd.Messages {
				if e.To == "" {
					_ = d.t.Broadcast(p2p.KindGame, e.Data)
				} else {
					_ = d.t.Send(e.To, p2p.KindGame, e.Data)
				}
			}
			d.onReady(rd)
			d.n.Advance(rd)
			state = rd.State
			if over == nil && (state.Phase == lockstep.PhaseOver || state.Phase == lockstep.PhaseHalted) {
				over = time.After(100 * time.Millisecond)
			}
			continue
		}
		select {
		case <-over:
			return state, nil
		case <-ctx.Done():
			return state, ctx.Err()
		case in := <-d.t.Inbox():
			d.step(in)
		drain:
			for range 15 {
				select {
				case in := <-d.t.Inbox():
					d.step(in)
				default:
					break drain
				}
			}
		case <-tick.C:
			d.n.Tick()
		case f := <-d.do:
			// As in Session: a refused action (a late choice) is not fatal.
			_ = f(d.n)
			d.chose = true
		case <-d.t.Events():
		}
	}
}

func (d *driver) step(in p2p.Inbound) {
	if in.Kind == p2p.KindGame {
		_ = d.n.Step(in.From, in.Data)
	}
}
