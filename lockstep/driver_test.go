package lockstep_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/memnet"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// manualClock is a Driver's clock that moves only when the test says:
// ticks are sent by hand, and After's timers fire on Advance.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	ticks  chan time.Time
	timers []manualTimer
	armed  chan time.Duration // every After call, announced
}

type manualTimer struct {
	at time.Time
	c  chan time.Time
}

func newManualClock() *manualClock {
	return &manualClock{now: time.Unix(1e9, 0), ticks: make(chan time.Time), armed: make(chan time.Duration, 64)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := manualTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	c.armed <- d
	return t.c
}

func (c *manualClock) Ticker(time.Duration) (<-chan time.Time, func()) { return c.ticks, func() {} }

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- c.now
	}
	c.timers = kept
}

// fakeLog is a Log in memory that remembers what was written and synced.
type fakeLog struct {
	mu       sync.Mutex
	written  map[string]bool // record data written
	records  int
	synced   int // records durable
	syncs    int
	writeErr error
	recs     []lockstep.Record // everything written, in order
}

func newFakeLog() *fakeLog { return &fakeLog{written: map[string]bool{}} }

func (l *fakeLog) Write(recs []lockstep.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.writeErr != nil {
		return l.writeErr
	}
	for _, r := range recs {
		l.written[string(r.Data)] = true
	}
	l.recs = append(l.recs, recs...)
	l.records += len(recs)
	return nil
}

func (l *fakeLog) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.syncs++
	l.synced = l.records
	return nil
}

// checkingLink is a memnet link that checks, as each frame leaves, what
// the game log holds: every signed frame is already written, and under
// SyncEveryMessage everything written is durable.
type checkingLink struct {
	*memnet.Link
	t      *testing.T
	log    *fakeLog
	policy lockstep.SyncPolicy
	mu     sync.Mutex
	sent   int // signed frames sent
}

func (c *checkingLink) Send(to peer.ID, data []byte) error {
	c.log.mu.Lock()
	written, unsynced := c.log.written[string(data)], c.log.records-c.log.synced
	c.log.mu.Unlock()
	if lockstep.SignedBy(data) != "" {
		if !written {
			c.t.Errorf("a signed frame left before the log held it")
		}
		c.mu.Lock()
		c.sent++
		c.mu.Unlock()
	}
	if c.policy == lockstep.SyncEveryMessage && unsynced > 0 {
		c.t.Errorf("a frame left with %d records not synced under %s", unsynced, c.policy)
	}
	return c.Link.Send(to, data)
}

// table is n players with fixed keys.
func table(t *testing.T, n int) (lockstep.Setup, []lockstep.Config) {
	t.Helper()
	setup := lockstep.Setup{Version: lockstep.Version, Name: "driver"}
	var cfgs []lockstep.Config
	for i := range n {
		k, id := testkit.Key(i+40), testkit.ID(i+40)
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: id})
		cfgs = append(cfgs, lockstep.Config{Self: id, Key: k, Entropy: [32]byte{byte(i)}, AutoRoll: true})
	}
	for i := range cfgs {
		cfgs[i].Setup = setup
	}
	return setup, cfgs
}

type played struct {
	states []lockstep.State
	errs   []error
	logs   []*fakeLog
	links  []*checkingLink
	events [][]lockstep.Event
}

// playDrivers plays a whole game of len(cfgs) drivers over memnet with
// the given policy and linger, their clocks never ticking (a perfect
// network needs no re-sends), the first legal move chosen through Do.
func playDrivers(t *testing.T, cfgs []lockstep.Config, policy lockstep.SyncPolicy, linger time.Duration, clk *manualClock) played {
	t.Helper()
	var ids []peer.ID
	for _, c := range cfgs {
		ids = append(ids, c.Self)
	}
	net := memnet.New(ids...)
	defer net.Close()
	p := played{states: make([]lockstep.State, len(cfgs)), errs: make([]error, len(cfgs)), events: make([][]lockstep.Event, len(cfgs))}
	drivers := make([]*lockstep.Driver, len(cfgs))
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		lg := newFakeLog()
		link := &checkingLink{Link: net.Link(c.Self), t: t, log: lg, policy: policy}
		p.logs, p.links = append(p.logs, lg), append(p.links, link)
		drivers[i], err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: lg, Sync: policy, Linger: linger, Clock: clk,
			OnReady: func(rd lockstep.Ready) {
				p.events[i] = append(p.events[i], rd.Events...)
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[0]
						go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard, not a speed claim
	defer cancel()
	var wg sync.WaitGroup
	for i, d := range drivers {
		wg.Go(func() { p.states[i], p.errs[i] = d.Run(ctx) })
	}
	if linger > 0 {
		// Every driver arms its linger at the end; then the end is let come.
		for range drivers {
			select {
			case <-clk.armed:
			case <-ctx.Done():
				t.Fatal("the drivers never reached the end")
			}
		}
		clk.Advance(linger)
	}
	wg.Wait()
	return p
}

// Every policy writes a Ready's records before a frame of it leaves
// (checkingLink), and syncs as it promises: lazily only the Setup record
// and the end when no tick comes, before every sending Ready under
// SyncEveryMessage, never under SyncNone; the game ends on one history.
func TestDriverSyncPolicies(t *testing.T) {
	_, cfgs := table(t, 2)
	for _, tc := range []struct {
		policy   lockstep.SyncPolicy
		min, max func(sent int) int // bounds on each log's syncs
	}{
		{lockstep.SyncLazy, func(int) int { return 2 }, func(int) int { return 2 }},
		{lockstep.SyncEveryMessage, func(sent int) int { return sent / 2 }, func(sent int) int { return 1 << 30 }},
		{lockstep.SyncNone, func(int) int { return 0 }, func(int) int { return 0 }},
	} {
		t.Run(tc.policy.String(), func(t *testing.T) {
			p := playDrivers(t, cfgs, tc.policy, -1, newManualClock())
			for i := range cfgs {
				if p.errs[i] != nil || p.states[i].Phase != lockstep.PhaseOver {
					t.Fatalf("driver %d: %v in phase %s", i, p.errs[i], p.states[i].Phase)
				}
				sent, syncs := p.links[i].sent, p.logs[i].syncs
				if syncs < tc.min(sent) || syncs > tc.max(sent) || sent < 20 {
					t.Errorf("driver %d: %d syncs for %d signed frames sent", i, syncs, sent)
				}
				t.Logf("driver %d: %d syncs, %d signed frames, %d records", i, syncs, sent, p.logs[i].records)
			}
			if p.states[0].History != p.states[1].History {
				t.Fatal("histories differ")
			}
		})
	}
}

// A lazy driver syncs on a tick only what was written since the last
// sync: a tick with nothing new costs no fsync.
func TestDriverSyncsOnTick(t *testing.T) {
	_, cfgs := table(t, 2)
	n, err := lockstep.NewNode(cfgs[0])
	if err != nil {
		t.Fatal(err)
	}
	clk, lg := newManualClock(), newFakeLog()
	net := memnet.New(cfgs[0].Self, cfgs[1].Self)
	defer net.Close()
	d, err := lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(cfgs[0].Self), Log: lg, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := d.Run(ctx); done <- err }()
	syncs := func() int { // after Do returns, the loop has handled what came before it
		_ = d.Do(func(*lockstep.Node) error { return nil })
		lg.mu.Lock()
		defer lg.mu.Unlock()
		return lg.syncs
	}
	if got := syncs(); got != 1 {
		t.Fatalf("%d syncs after the setup, want 1", got)
	}
	for range 3 {
		clk.ticks <- time.Time{} // status frames only: nothing to log
	}
	if got := syncs(); got != 1 {
		t.Fatalf("%d syncs after idle ticks, want 1", got)
	}
	// The other player's Confirm is a record: the next tick syncs it.
	other, _ := lockstep.NewNode(cfgs[1])
	for _, m := range other.Ready().Messages {
		_ = net.Link(cfgs[1].Self).Send(m.To, m.Data)
	}
	records := func() int {
		lg.mu.Lock()
		defer lg.mu.Unlock()
		return lg.records
	}
	for records() < 3 {
		_ = syncs()
	}
	clk.ticks <- time.Time{}
	if got := syncs(); got != 2 {
		t.Fatalf("%d syncs after a tick with a new record, want 2", got)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
}

// Do runs on the driver and returns the action's error; once Run has
// returned it returns ErrStopped at once instead of blocking.
func TestDriverDo(t *testing.T) {
	_, cfgs := table(t, 2)
	n, err := lockstep.NewNode(cfgs[0])
	if err != nil {
		t.Fatal(err)
	}
	net := memnet.New(cfgs[0].Self, cfgs[1].Self)
	defer net.Close()
	d, err := lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(cfgs[0].Self), Log: newFakeLog(), Clock: newManualClock()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _, _ = d.Run(ctx); close(done) }()
	refused := errors.New("refused")
	for _, tc := range []struct {
		name string
		f    func(*lockstep.Node) error
		ok   func(error) bool
	}{
		{"nil", func(*lockstep.Node) error { return nil }, func(err error) bool { return err == nil }},
		{"its error", func(*lockstep.Node) error { return refused }, func(err error) bool { return errors.Is(err, refused) }},
		{"the node's error", func(n *lockstep.Node) error { return n.Choose(engine.Move{}) }, // not our move
			func(err error) bool { return err != nil && !errors.Is(err, lockstep.ErrStopped) }},
	} {
		if err := d.Do(tc.f); !tc.ok(err) {
			t.Errorf("Do returning %s: got %v", tc.name, err)
		}
	}
	cancel()
	<-done
	for range 3 {
		if err := d.Do(func(*lockstep.Node) error { t.Error("ran after the stop"); return nil }); !errors.Is(err, lockstep.ErrStopped) {
			t.Fatalf("Do after the stop: %v, want ErrStopped", err)
		}
	}
}

// After the end a driver lingers: Run does not return until its Linger
// has passed on its clock (so a peer still missing our last messages can
// fetch them); with a negative Linger it returns at the end.
func TestDriverLinger(t *testing.T) {
	_, cfgs := table(t, 2)
	clk := newManualClock()
	var ids []peer.ID
	for _, c := range cfgs {
		ids = append(ids, c.Self)
	}
	net := memnet.New(ids...)
	defer net.Close()
	type result struct {
		st  lockstep.State
		err error
	}
	ends := make(chan result, 2)
	drivers := make([]*lockstep.Driver, 2)
	for i, c := range cfgs {
		n, _ := lockstep.NewNode(c)
		var err error
		drivers[i], err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: net.Link(c.Self), Log: newFakeLog(), Linger: 5 * time.Second, Clock: clk,
			OnReady: func(rd lockstep.Ready) {
				if len(rd.State.Moves) > 0 {
					m := rd.State.Moves[0]
					go drivers[i].Do(func(n *lockstep.Node) error { return n.Choose(m) })
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	for _, d := range drivers {
		go func() { st, err := d.Run(ctx); ends <- result{st, err} }()
	}
	for range drivers {
		if d := <-clk.armed; d != 5*time.Second {
			t.Fatalf("linger armed for %v", d)
		}
	}
	// Both are over and waiting: Do still runs (Run has not returned).
	for i, d := range drivers {
		if err := d.Do(func(*lockstep.Node) error { return nil }); err != nil {
			t.Fatalf("driver %d stopped before its linger: %v", i, err)
		}
	}
	select {
	case r := <-ends:
		t.Fatalf("Run returned before the linger passed: %+v", r)
	default:
	}
	clk.Advance(4 * time.Second)
	if err := drivers[0].Do(func(*lockstep.Node) error { return nil }); err != nil {
		t.Fatalf("driver stopped 1 s before its linger's end: %v", err)
	}
	clk.Advance(time.Second)
	for range drivers {
		r := <-ends
		if r.err != nil || r.st.Phase != lockstep.PhaseOver {
			t.Fatalf("Run: %v in phase %s", r.err, r.st.Phase)
		}
	}
}

// A forged frame (a good Confirm with its signature spoilt) goes through
// the verification lanes unvouched, so the node checks it, rejects it and
// names its sender; the good frame is then accepted.
func TestDriverRejectsForgedFrame(t *testing.T) {
	_, cfgs := table(t, 3)
	n, _ := lockstep.NewNode(cfgs[0])
	frames := make(chan lockstep.Frame, 4)
	link := &scriptLink{frames: frames}
	events := make(chan lockstep.Event, 64)
	d, err := lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: newFakeLog(), Clock: newManualClock(),
		OnReady: func(rd lockstep.Ready) {
			for _, e := range rd.Events {
				events <- e
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := lockstep.NewNode(cfgs[1])
	confirm := other.Ready().Messages[0].Data
	forged := bytes.Clone(confirm)
	forged[len(forged)-1] ^= 1
	relayer := cfgs[2].Self
	for _, tc := range []struct {
		from peer.ID
		data []byte
	}{{cfgs[1].Self, forged}, {relayer, forged}} {
		frames <- lockstep.Frame{From: tc.from, Data: tc.data}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = d.Run(ctx) }()
	named := map[peer.ID]bool{}
	for len(named) < 2 {
		e := <-events
		if e.Kind == lockstep.EventCheating {
			if e.Cheat != lockstep.CheatBadSignature {
				t.Fatalf("named %s for a spoilt signature", e.Cheat)
			}
			named[e.Peer] = true
		}
	}
	if !named[cfgs[1].Self] || !named[relayer] {
		t.Fatalf("named %v, want the sender and the relayer", named)
	}
	stats := func() (st lockstep.Stats) {
		_ = d.Do(func(n *lockstep.Node) error { st = n.Stats(); return nil })
		return st
	}
	before := stats()
	if before.Rejected != 2 {
		t.Fatalf("stats %+v: want the 2 forged frames rejected", before)
	}
	frames <- lockstep.Frame{From: cfgs[1].Self, Data: confirm}
	for stats().Accepted == before.Accepted {
	}
	// The Ready of that step was handed out before the Do that saw it.
	for len(events) > 0 {
		if e := <-events; e.Kind == lockstep.EventCheating {
			t.Fatalf("the good frame was named: %s", e)
		}
	}
}

// scriptLink delivers what the test puts in frames and sends nowhere.
type scriptLink struct{ frames chan lockstep.Frame }

func (l *scriptLink) Send(peer.ID, []byte) error    { return nil }
func (l *scriptLink) Frames() <-chan lockstep.Frame { return l.frames }
func (l *scriptLink) Reach() <-chan lockstep.Reach  { return nil }

// A log that cannot be written stops the game before anything is sent.
func TestDriverStopsOnLogError(t *testing.T) {
	_, cfgs := table(t, 2)
	n, _ := lockstep.NewNode(cfgs[0])
	lg := newFakeLog()
	lg.writeErr = errors.New("disk full")
	sent := 0
	link := &countLink{sent: &sent}
	d, _ := lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: lg, Clock: newManualClock()})
	if _, err := d.Run(context.Background()); !errors.Is(err, lg.writeErr) {
		t.Fatalf("Run: %v, want the log's error", err)
	}
	if sent != 0 {
		t.Fatalf("%d frames sent that the log does not hold", sent)
	}
}

type countLink struct{ sent *int }

func (l *countLink) Send(peer.ID, []byte) error    { *l.sent++; return nil }
func (l *countLink) Frames() <-chan lockstep.Frame { return nil }
func (l *countLink) Reach() <-chan lockstep.Reach  { return nil }
