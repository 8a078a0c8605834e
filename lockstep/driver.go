package lockstep

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Link is how a Driver reaches the other players: the libp2p transport,
// a local game's no-network link, an in-memory network in tests, or the
// cheating client's rewriting layer. A Driver uses it from its own
// goroutines only while Run runs.
type Link interface {
	// Send sends data to the player to, or to every other player when to
	// is "". It returns once the frame is handed on (it must not wait on
	// the receiver); an error is logged and forgotten, since the node
	// re-sends on later ticks what a peer lacks.
	Send(to peer.ID, data []byte) error
	// Frames are the game frames received, each sender's in the order it
	// sent them; nil or closed when nothing (more) comes.
	Frames() <-chan Frame
	// Reach says when a player becomes reachable or unreachable; nil
	// when the link never tells.
	Reach() <-chan Reach
}

// Frame is a game frame a Link received. From is the authenticated sender,
// which may be relaying another player's message. To is the seat it is
// for when the link knows (a frame sent to one seat of a program holding
// several, driver_hub.go); "" is every seat of the program.
type Frame struct {
	From peer.ID
	To   peer.ID
	Data []byte
}

// Reach is a change of a player's reachability.
type Reach struct {
	Peer   peer.ID
	Up     bool
	Reason string // for the log
}

// Log is the durable game log a Driver writes every Ready's LogEntries to.
type Log interface {
	// Write appends records without waiting for the disk: once it
	// returns, a killed process can no longer lose them.
	Write([]Record) error
	// Sync makes everything written so far durable (fsync).
	Sync() error
}

// SyncPolicy is when a Driver makes its log durable. Every policy writes a
// Ready's entries before its messages leave.
type SyncPolicy uint8

// The sync policies.
const (
	// SyncLazy, the product's: the Setup record at once (a log on disk
	// always names its game), then whatever was written once a tick and
	// at the end. A machine crash may lose a tail of the log, own
	// messages included; the restored node fetches them back from the
	// others before it signs anything new (recover.go), so it never signs
	// a second, different message with a sequence number it used.
	SyncLazy SyncPolicy = iota
	// SyncEveryMessage also syncs before every Ready that sends anything
	// (the policy until 30 Nov): one or two disk flushes on every turn's
	// critical path. Benchmarks measure it against SyncLazy.
	SyncEveryMessage
	// SyncNone never syncs: what the loop costs without a disk. Not safe
	// after a machine crash; benchmarks and in-memory tables only.
	SyncNone
)

func (p SyncPolicy) String() string {
	switch p {
	case SyncLazy:
		return "lazy"
	case SyncEveryMessage:
		return "every-message"
	case SyncNone:
		return "none"
	}
	return fmt.Sprintf("SyncPolicy(%d)", uint8(p))
}

// DriverConfig is what a Driver needs besides its Node.
type DriverConfig struct {
	Link Link // required
	Log  Log  // required
	Sync SyncPolicy
	// Tick is the period of Node.Tick (default 100 ms); absence and
	// re-sends count ticks.
	Tick time.Duration
	// Linger keeps answering peers this long after the game is over, so a
	// peer still missing our last messages gets them (default 2 s;
	// negative: Run returns at the end). While a peer is still catching
	// up (we keep re-sending it messages it asked for) the wait starts
	// again, up to MaxLinger after the end: a player whose cable came
	// back just before the end would otherwise find nobody left to fetch
	// the rest of the game from.
	Linger time.Duration
	// MaxLinger bounds the whole wait after the end (default 30 s).
	MaxLinger time.Duration
	// OnReady sees every Ready after its entries were written and its
	// messages sent (events and state for a screen or a log). It runs on
	// the driver's goroutine: it must not call Do (start a goroutine).
	OnReady func(Ready)
	Logger  *slog.Logger
	// StopWhenPaused makes Run return once the game is paused
	// (State.Paused, Node.Pause) and the others hold our pause
	// (Node.PauseDelivered), or MaxLinger after it paused: the log stays
	// unfinished, to be continued from (Restore, then Node.Continue).
	StopWhenPaused bool
	// ContinuePaused lifts the pause a restored node holds from its own
	// log (Node.Continue) as soon as it may sign again, after its
	// recovery: the game is taken up. A pause made during the run is not
	// lifted.
	ContinuePaused bool
	// HoldPaused, with ContinuePaused, leaves the lift to the caller
	// (Do with Node.Continue, once the players it waits for are back):
	// the restored pause stays until then, and StopWhenPaused does not
	// stop the run on it.
	HoldPaused bool
	// Clock is the driver's time (ticks and the linger); nil is the
	// machine's. Tests pass one they advance by hand.
	Clock Clock
}

// Driver runs one Node: frames from the Link have their signatures
// checked on verification lanes, then go to the node; the clock's ticks go
// to Tick; actions come through Do; each Ready is written to the Log, then
// its messages go to the Link, then OnReady sees it. It is the only
// code that may call Node.Advance outside lockstep's own tests.
type Driver struct {
	n   *Node
	cfg DriverConfig
	v   *Verifier
	log *slog.Logger
	do  chan doReq
	// stopped closes when Run returns, so a late Do does not block forever.
	stopped chan struct{}
	dirty   bool // records written since the last Sync
}

type doReq struct {
	f    func(*Node) error
	done chan error
}

// ErrStopped is Do's answer once the driver has stopped.
var ErrStopped = errors.New("lockstep: the game's driver has stopped")

// NewDriver makes a driver for n (from NewNode or Restore).
func NewDriver(n *Node, cfg DriverConfig) (*Driver, error) {
	if cfg.Link == nil || cfg.Log == nil {
		return nil, errors.New("lockstep: a driver needs a link and a game log")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 100 * time.Millisecond
	}
	if cfg.Linger == 0 {
		cfg.Linger = 2 * time.Second
	}
	if cfg.MaxLinger == 0 {
		cfg.MaxLinger = 30 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	v, err := NewVerifier(n.cfg.Setup)
	if err != nil {
		return nil, fmt.Errorf("lockstep: starting the game: %w", err)
	}
	return &Driver{n: n, cfg: cfg, v: v, log: cfg.Logger, do: make(chan doReq, 16), stopped: make(chan struct{})}, nil
}

// Do runs f on the driver's goroutine (Roll, Choose...) and returns its
// error (also logged); once Run has returned, or if it returns before f
// ran, Do returns ErrStopped at once. Before Run starts, Do waits for it.
// Never call it from OnReady, which runs on that goroutine.
func (d *Driver) Do(f func(*Node) error) error {
	r := doReq{f: f, done: make(chan error, 1)}
	select {
	case d.do <- r:
	case <-d.stopped:
		return ErrStopped
	}
	select {
	case err := <-r.done:
		return err
	case <-d.stopped:
		select {
		case err := <-r.done:
			return err
		default:
			return ErrStopped
		}
	}
}

// Run drives the node until the game is over or halted and the linger is
// done (returning the final state), ctx ends, or the log fails. A failed
// write or sync stops the game: sending what we could not record could
// let us contradict ourselves after a restart, and after one failed fsync
// Linux may report later ones as good although the data never reached the
// disk.
func (d *Driver) Run(ctx context.Context) (State, error) {
	defer close(d.stopped)
	ticks, stopTicks := d.cfg.Clock.Ticker(d.cfg.Tick)
	defer stopTicks()
	vctx, stopVerify := context.WithCancel(ctx)
	frames := make(chan checked, 64)
	var vwg sync.WaitGroup
	d.verifyFrames(vctx, frames, &vwg)
	defer vwg.Wait() // nobody reads the link's frames for us once Run returns
	defer stopVerify()
	var state State
	var over <-chan time.Time
	var overAt time.Time
	var pausedFor <-chan time.Time // MaxLinger from the pause (StopWhenPaused)
	told := false                  // our last status frame, holding every pause, is sent
	lifted := !d.cfg.ContinuePaused || !d.n.paused()
	for {
		switch {
		case lifted:
		case d.cfg.HoldPaused:
			lifted = !d.n.paused()
		case d.n.rec == nil && !d.n.restoring:
			lifted = true
			if err := d.n.Continue(); err != nil {
				d.log.Warn("the paused game could not be continued", "err", err)
			}
		}
		if d.cfg.StopWhenPaused && lifted && !d.n.HasReady() {
			switch paused := d.n.g.gamePaused(); {
			case paused && d.n.PauseDelivered() && !told:
				// It tells the others we hold their pauses, so they
				// need not wait for us once we are gone.
				d.n.sendHave()
				told = true
				continue
			case paused && d.n.PauseDelivered():
				return d.n.state(), d.sync()
			case paused && pausedFor == nil:
				pausedFor = d.cfg.Clock.After(d.cfg.MaxLinger)
			case !paused:
				pausedFor = nil
			}
		}
		if d.n.HasReady() {
			rd := d.n.Ready()
			if err := d.writeReady(rd); err != nil {
				return rd.State, fmt.Errorf("lockstep: the game stops: %w", err)
			}
			for _, e := range rd.Messages {
				if err := d.cfg.Link.Send(e.To, e.Data); err != nil {
					d.log.Debug("game message not sent", "err", err)
				}
			}
			if d.cfg.OnReady != nil {
				d.cfg.OnReady(rd)
			}
			d.n.Advance(rd)
			state = rd.State
			done := state.Phase == PhaseOver || state.Phase == PhaseHalted
			switch {
			case over != nil && !done:
				// A rollback reopened the game (this peer had gone on
				// alone and finished while the others, a majority, played
				// on without it): it plays on, and lingers at its new end.
				over = nil
			case over != nil && state.Phase == PhaseOver && servesCatchUp(rd) && d.cfg.Clock.Now().Sub(overAt)+d.cfg.Linger <= d.cfg.MaxLinger:
				over = d.cfg.Clock.After(d.cfg.Linger)
			case over == nil && done:
				if err := d.sync(); err != nil {
					return state, fmt.Errorf("lockstep: the game is over but its log is not saved: %w", err)
				}
				if d.cfg.Linger < 0 {
					return state, nil
				}
				overAt = d.cfg.Clock.Now()
				over = d.cfg.Clock.After(d.cfg.Linger)
			}
			continue
		}
		select {
		case <-over:
			return state, d.sync()
		case <-pausedFor:
			d.log.Info("game paused; not every player said it holds our pause", "roll", d.n.g.k)
			return d.n.state(), d.sync()
		case <-ctx.Done():
			if err := d.sync(); err != nil {
				d.log.Warn("game log not flushed", "err", err)
			}
			return state, ctx.Err()
		case c := <-frames:
			d.stepChecked(c)
		case <-ticks:
			if err := d.sync(); err != nil {
				return state, fmt.Errorf("lockstep: the game stops: %w", err)
			}
			d.n.Tick()
		case r := <-d.do:
			err := r.f(d.n)
			if err != nil {
				d.log.Debug("game action refused", "err", err) // the caller has the error and words it for its user
			}
			r.done <- err
		case r := <-d.cfg.Link.Reach():
			d.log.Info("peer event", "peer", logPeer(r.Peer), "up", r.Up, "reason", r.Reason)
			d.n.Reachable(r.Peer, r.Up)
		}
	}
}

// writeReady writes rd's entries before its messages may leave and syncs
// as the policy says.
func (d *Driver) writeReady(rd Ready) error {
	if len(rd.LogEntries) > 0 {
		if err := d.cfg.Log.Write(rd.LogEntries); err != nil {
			return err
		}
		d.dirty = true
	}
	switch d.cfg.Sync {
	case SyncEveryMessage:
		if len(rd.Messages) > 0 {
			return d.sync()
		}
	case SyncNone:
		return nil
	}
	for _, r := range rd.LogEntries {
		if r.Type == RecordSetup {
			return d.sync()
		}
	}
	return nil
}

// sync makes what was written durable, if anything was and the policy
// syncs at all.
func (d *Driver) sync() error {
	if !d.dirty || d.cfg.Sync == SyncNone {
		return nil
	}
	if err := d.cfg.Log.Sync(); err != nil {
		return err
	}
	d.dirty = false
	return nil
}

// servesCatchUp tells whether rd re-sends signed messages to one peer:
// once the game is over that is only ever an answer to a peer's status
// frame saying it lacks them, so somebody is still catching up.
func servesCatchUp(rd Ready) bool {
	for _, e := range rd.Messages {
		if e.To != "" && SignedBy(e.Data) != "" {
			return true
		}
	}
	return false
}

// logPeer names a peer in the driver's log lines (ShortID, as the
// transport's do), so one grep follows a peer through both.
func logPeer(id peer.ID) string { return ShortID(id) }
