package perf

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/session"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	ma "github.com/multiformats/go-multiaddr"
)

// TurnConfig is one measured game of real p2p peers in this process.
type TurnConfig struct {
	// Players (2 to 4, default 4) each have their own libp2p host on
	// 127.0.0.1, transport, game log and session driver, connected
	// directly (no lobby, no mDNS).
	Players int
	// LogDir holds the game logs; with a policy that syncs on the
	// critical path (SyncEveryMessage) a disk and a tmpfs give different
	// latencies.
	LogDir string
	// Transport picks the connections: "tcp", "quic" or "" (libp2p's choice).
	Transport string
	// MaxRolls ends the game early after this many rolls (0: play it out).
	MaxRolls int
	// Pings before the game, per pair, and the pause between pings during it.
	IdlePings int
	PingEvery time.Duration
	// Sync is the drivers' log policy (default SyncLazy, the product's):
	// every peer runs the real loop, lockstep.Driver, with it.
	Sync Sync
	// Watchers watch the game, each with a libp2p host of its own in
	// this process, reading one player's log (round robin) through the
	// product's watch server (session.ServeWatchers) and checking every
	// record with its own referee (session.WatchFrom); each must end with
	// the players' history.
	Watchers int
	// WatchersApart runs each watcher in a process of its own (the test
	// binary again, RunWatcherProcess) instead of on this process's
	// goroutines, as a spectator on its own laptop: its verification
	// shares the machine's cores through the kernel's scheduler, not the
	// players' Go scheduler and heap.
	WatchersApart bool
	// PlayersCPUs and WatchersCPUs (bit i: CPU i; 0: any) pin the players'
	// process and the watchers' processes to cores: the nearest one
	// machine comes to the players and the watchers on laptops of their
	// own. WatchersCPUs needs WatchersApart.
	PlayersCPUs, WatchersCPUs uint64
	// WatchersYield runs the watcher processes under SCHED_IDLE
	// (YieldCPU): they get a core only when the players leave it idle,
	// which is what one machine can do for spectators on laptops of their
	// own (theirs verify on their own cores), while the players' side
	// still serves every watcher its records, connections and streams.
	// Needs WatchersApart, and a machine nobody else loads.
	WatchersYield bool
	// Pace, when set, is how long each player takes to roll (Roll called
	// that long after EventYourRoll, as a person presses the key): a game
	// at a table's pace, not flat out. Unset, every roll is automatic
	// (AutoRoll) and the game runs as fast as the cores allow, so whatever
	// else runs on them shows in its tail.
	Pace time.Duration
}

// TurnReport is what one game measured.
type TurnReport struct {
	Rolls int
	// RollToApplied: from the mover's node reporting the roll to the last
	// peer reporting the move applied (every roll with a move).
	RollToApplied []time.Duration
	// Chosen is RollToApplied for rolls where the mover had to choose (its
	// move travels in a frame; forced moves every peer applies alone).
	Chosen []time.Duration
	// Turn: from one roll applied everywhere to the next applied everywhere:
	// one reveal round plus, when chosen, the move.
	Turn []time.Duration
	// libp2p ping round trips on the same connections: before the game
	// (idle) and during it.
	PingIdle, PingGame []time.Duration
	Conns              string // the connections' transports, e.g. "tcp×6"
	// Syncs counts the game logs' fsyncs (all peers together).
	Syncs   int
	Elapsed time.Duration
	// Watched is how many watchers ended with the players' history.
	Watched int
}

type stamp struct {
	peer   int
	kind   lockstep.EventKind
	roll   uint64
	colour engine.Colour
	at     time.Time
}

type labPeer struct {
	key   crypto.PrivKey
	h     host.Host
	t     *p2p.Transport
	sess  *lockstep.Driver
	link  *gameLink
	log   *savegame.Log
	watch func() // stops serving watchers
}

// RunTurns plays one game among cfg.Players peers and measures its turns.
// It starts libp2p hosts: call it only inside a private namespace
// (netlab.Enter).
func RunTurns(ctx context.Context, cfg TurnConfig) (TurnReport, error) {
	if cfg.Players == 0 {
		cfg.Players = 4
	}
	if cfg.Players < 2 || cfg.Players > 4 {
		return TurnReport{}, fmt.Errorf("perf: %d players", cfg.Players)
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = 50 * time.Millisecond
	}
	if (cfg.WatchersCPUs != 0 || cfg.WatchersYield) && !cfg.WatchersApart {
		return TurnReport{}, errors.New("perf: watchers in this process cannot have cores or a scheduling policy of their own")
	}
	if cfg.PlayersCPUs != 0 {
		was := CPUMask()
		if err := PinThreads(cfg.PlayersCPUs); err != nil {
			return TurnReport{}, err
		}
		defer PinThreads(was)
	}
	peers := make([]*labPeer, cfg.Players)
	defer func() {
		for _, p := range peers {
			if p == nil {
				continue
			}
			if p.t != nil {
				p.t.Close()
			}
			if p.watch != nil {
				p.watch()
			}
			if p.log != nil {
				p.log.Close()
			}
			p.h.Close()
		}
	}()
	for i := range peers {
		key, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return TurnReport{}, err
		}
		h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
		if err != nil {
			return TurnReport{}, err
		}
		peers[i] = &labPeer{key: key, h: h, t: p2p.NewTransport(h, p2p.TransportConfig{})}
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "perf", Rules: engine.DefaultRules()}
	if _, err := rand.Read(setup.Nonce[:]); err != nil {
		return TurnReport{}, err
	}
	colourOf := map[engine.Colour]int{}
	var ids []peer.ID
	for i, p := range peers {
		c := engine.Colour(i)
		if cfg.Players == 2 {
			c = engine.Colour(2 * i)
		}
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: c, Player: p.h.ID()})
		colourOf[c] = i
		ids = append(ids, p.h.ID())
	}
	if err := setup.Validate(); err != nil {
		return TurnReport{}, err
	}
	if err := connectAll(ctx, peers, ids, cfg.Transport); err != nil {
		return TurnReport{}, err
	}
	var rep TurnReport
	rep.Conns = connKinds(peers)

	pairs := pingPairs(ctx, peers)
	defer pairs.stop()
	for range cfg.IdlePings {
		rtt, err := pairs.round()
		if err != nil {
			return rep, err
		}
		rep.PingIdle = append(rep.PingIdle, rtt...)
	}

	var (
		mu     sync.Mutex
		stamps []stamp
		// syncs0 is the logs' fsyncs before the game (the header).
		syncs0 int64
		rolls  = map[uint64]int{} // roll -> peers that applied it
		done   = make(chan struct{})
		once   sync.Once
	)
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, p := range peers {
		var ent [32]byte
		if _, err := rand.Read(ent[:]); err != nil {
			return rep, err
		}
		onReady := func(rd lockstep.Ready) {
			now := time.Now()
			mu.Lock()
			defer mu.Unlock()
			for _, ev := range rd.Events {
				switch ev.Kind {
				case lockstep.EventRolled, lockstep.EventYourMove:
					stamps = append(stamps, stamp{i, ev.Kind, ev.Roll, ev.Colour, now})
				case lockstep.EventMoved:
					stamps = append(stamps, stamp{i, ev.Kind, ev.Roll, ev.Colour, now})
					rolls[ev.Roll]++
					if cfg.MaxRolls > 0 && int(ev.Roll) >= cfg.MaxRolls && rolls[ev.Roll] == len(peers) {
						once.Do(func() { close(done) })
					}
				}
				if ev.Kind == lockstep.EventYourRoll {
					s := p.sess
					time.AfterFunc(cfg.Pace, func() { s.Do(func(n *lockstep.Node) error { return n.Roll() }) })
				}
				if ev.Kind == lockstep.EventYourMove {
					moves := ev.Moves
					s := p.sess
					// Do waits for the driver, and onReady runs on it.
					go s.Do(func(n *lockstep.Node) error { return n.Choose(moves[mrand.IntN(len(moves))]) })
				}
			}
		}
		path := filepath.Join(cfg.LogDir, fmt.Sprintf("peer%d.log", i))
		glog, _, err := savegame.OpenLog(path)
		if err != nil {
			return rep, err
		}
		p.log = glog
		syncs0 += glog.Syncs()
		n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: p.h.ID(), Key: p.key, Entropy: ent, AutoRoll: cfg.Pace == 0})
		if err != nil {
			return rep, err
		}
		p.link = newGameLink(p.t)
		var lg lockstep.Log = glog
		if cfg.Watchers > 0 {
			lg, p.watch = session.ServeWatchers(p.h, setup.GameID(), glog)
		}
		p.sess, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: p.link, Log: lg, Sync: cfg.Sync,
			Linger: measuredLinger, OnReady: onReady})
		if err != nil {
			return rep, err
		}
	}

	pingCtx, stopPings := context.WithCancel(gctx)
	var pingWG sync.WaitGroup
	pingWG.Add(1)
	go func() {
		defer pingWG.Done()
		tick := time.NewTicker(cfg.PingEvery)
		defer tick.Stop()
		for {
			select {
			case <-pingCtx.Done():
				return
			case <-tick.C:
			}
			rtt, err := pairs.round()
			if err != nil {
				return
			}
			mu.Lock()
			rep.PingGame = append(rep.PingGame, rtt...)
			mu.Unlock()
		}
	}()

	// The watchers are up (host, connection) before the game starts: what
	// is measured is watching, not a program starting.
	wctx, stopWatchers := context.WithCancel(ctx)
	defer stopWatchers()
	watched, err := startWatchers(wctx, cfg, peers, setup.GameID())
	if err != nil {
		stopPings()
		return rep, err
	}
	start := time.Now()
	type ended struct {
		st  lockstep.State
		err error
	}
	ends := make(chan ended, len(peers))
	for _, p := range peers {
		go p.link.run(gctx)
		go func() {
			st, err := p.sess.Run(gctx)
			ends <- ended{st, err}
		}()
	}
	go func() {
		select {
		case <-done:
			cancel()
		case <-gctx.Done():
		}
	}()
	var firstErr error
	var history [32]byte
	for range peers {
		e := <-ends
		history = e.st.History
		switch {
		case e.err != nil && cfg.MaxRolls > 0 && errors.Is(e.err, context.Canceled) && ctx.Err() == nil:
			// We stopped the game after MaxRolls.
		case e.err != nil:
			firstErr = cmp.Or(firstErr, e.err)
		case e.st.Phase != lockstep.PhaseOver:
			firstErr = cmp.Or(firstErr, fmt.Errorf("perf: a session ended in phase %s", e.st.Phase))
		}
	}
	rep.Elapsed = time.Since(start)
	stopPings()
	pingWG.Wait()
	if firstErr != nil {
		return rep, firstErr
	}
	if cfg.MaxRolls > 0 {
		stopWatchers() // the game never ends: they cannot see its end
	}
	for range cfg.Watchers {
		w := <-watched
		switch {
		case w.err != nil && cfg.MaxRolls == 0:
			firstErr = cmp.Or(firstErr, fmt.Errorf("perf: a watcher: %w", w.err))
		case w.err == nil && w.st.History != history:
			firstErr = cmp.Or(firstErr, fmt.Errorf("perf: a watcher ended with history %x, the players %x", w.st.History, history))
		case w.err == nil:
			rep.Watched++
		}
	}
	if firstErr != nil {
		return rep, firstErr
	}
	mu.Lock()
	defer mu.Unlock()
	rep.fill(stamps, colourOf, len(peers))
	rep.Syncs = int(-syncs0)
	for _, p := range peers {
		if p.log != nil {
			rep.Syncs += int(p.log.Syncs())
		}
	}
	if rep.Rolls == 0 {
		return rep, errors.New("perf: no roll was applied by every peer")
	}
	return rep, nil
}

// fill turns the event stamps into per-roll latencies.
func (r *TurnReport) fill(stamps []stamp, colourOf map[engine.Colour]int, n int) {
	type roll struct {
		rolled  time.Time
		chosen  bool
		applied int
		last    time.Time
	}
	rs := map[uint64]*roll{}
	get := func(k uint64) *roll {
		if rs[k] == nil {
			rs[k] = &roll{}
		}
		return rs[k]
	}
	var maxK uint64
	for _, s := range stamps {
		x := get(s.roll)
		mover := colourOf[s.colour] == s.peer
		switch s.kind {
		case lockstep.EventRolled:
			if mover && x.rolled.IsZero() {
				x.rolled = s.at
			}
		case lockstep.EventYourMove:
			if mover {
				x.chosen = true
			}
		case lockstep.EventMoved:
			// A roll rolled back and replayed counts once per peer; the
			// first application is the one the player saw.
			if x.applied < n {
				x.applied++
				if s.at.After(x.last) {
					x.last = s.at
				}
			}
		}
		maxK = max(maxK, s.roll)
	}
	for k := uint64(1); k <= maxK; k++ {
		x := rs[k]
		if x == nil || x.applied < n || x.rolled.IsZero() {
			continue
		}
		r.Rolls++
		d := x.last.Sub(x.rolled)
		r.RollToApplied = append(r.RollToApplied, d)
		if x.chosen {
			r.Chosen = append(r.Chosen, d)
		}
		if p := rs[k-1]; p != nil && p.applied == n {
			r.Turn = append(r.Turn, x.last.Sub(p.last))
		}
	}
}

// connectAll admits every player on every transport and opens the game
// stream between every pair, over the transport asked for.
func connectAll(ctx context.Context, peers []*labPeer, ids []peer.ID, transport string) error {
	for _, p := range peers {
		p.t.SetMembers(ids)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for i, a := range peers {
		for _, b := range peers[i+1:] {
			info := peer.AddrInfo{ID: b.h.ID(), Addrs: filterAddrs(b.h.Addrs(), transport)}
			if len(info.Addrs) == 0 {
				return fmt.Errorf("perf: no %s address on %s", transport, b.h.ID())
			}
			if err := a.t.Connect(cctx, info); err != nil {
				return err
			}
		}
	}
	for _, a := range peers {
		for _, b := range peers {
			for a != b && !a.t.Connected(b.h.ID()) {
				select {
				case <-cctx.Done():
					return fmt.Errorf("perf: game streams did not come up: %w", cctx.Err())
				case <-time.After(5 * time.Millisecond):
				}
			}
		}
	}
	return nil
}

func filterAddrs(as []ma.Multiaddr, transport string) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, a := range as {
		quic := strings.Contains(a.String(), "/quic")
		if transport == "" || (transport == "quic") == quic {
			out = append(out, a)
		}
	}
	return out
}

func connKinds(peers []*labPeer) string {
	count := map[string]int{}
	for i, a := range peers {
		for _, b := range peers[i+1:] {
			for _, c := range a.h.Network().ConnsToPeer(b.h.ID()) {
				kind := "tcp"
				if strings.Contains(c.RemoteMultiaddr().String(), "/quic") {
					kind = "quic"
				}
				count[kind]++
			}
		}
	}
	var parts []string
	for _, k := range []string{"tcp", "quic"} {
		if count[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", k, count[k]))
		}
	}
	return strings.Join(parts, "+")
}

// pingers is one libp2p ping stream per peer pair, read one round at a time.
type pingers struct {
	cancel context.CancelFunc
	chans  []<-chan ping.Result
}

func pingPairs(ctx context.Context, peers []*labPeer) *pingers {
	ctx, cancel := context.WithCancel(ctx)
	p := &pingers{cancel: cancel}
	for i, a := range peers {
		for _, b := range peers[i+1:] {
			// ping.Ping pings once, then waits for its result to be read:
			// reading paces it.
			p.chans = append(p.chans, ping.Ping(ctx, a.h, b.h.ID()))
		}
	}
	return p
}

// round reads one round trip from every pair.
func (p *pingers) round() ([]time.Duration, error) {
	out := make([]time.Duration, 0, len(p.chans))
	for _, c := range p.chans {
		r, ok := <-c
		if !ok {
			return out, errors.New("perf: a ping stream closed")
		}
		if r.Error != nil {
			return out, fmt.Errorf("perf: ping: %w", r.Error)
		}
		out = append(out, r.RTT)
	}
	return out, nil
}

func (p *pingers) stop() { p.cancel() }

type watchEnd struct {
	st  lockstep.State
	err error
}

// startWatchers starts cfg.Watchers watchers of game gid, each on a host
// of its own (in a process of its own if cfg.WatchersApart) connected to
// one player (round robin); each sends its end on the channel.
func startWatchers(ctx context.Context, cfg TurnConfig, peers []*labPeer, gid lockstep.GameID) (<-chan watchEnd, error) {
	out := make(chan watchEnd, cfg.Watchers)
	ready := make(chan struct{}, cfg.Watchers)
	for w := range cfg.Watchers {
		pl := peers[w%len(peers)].h
		name := fmt.Sprintf("w%d", w)
		if cfg.WatchersApart {
			if err := startWatcherProcess(ctx, pl, gid, name, cfg.WatchersCPUs, cfg.WatchersYield, ready, out); err != nil {
				return nil, fmt.Errorf("perf: starting a watcher process: %w", err)
			}
			continue
		}
		go func() {
			wctx, cancel := context.WithTimeout(ctx, watchFor)
			defer cancel()
			st, err := watchOne(wctx, peer.AddrInfo{ID: pl.ID(), Addrs: pl.Addrs()}, gid, name, func() { ready <- struct{}{} })
			out <- watchEnd{st, err}
		}()
	}
	// Wait until each is connected, or one ends (its error is read with
	// the others' ends).
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for range cfg.Watchers {
		select {
		case <-ready:
		case <-wait.Done():
			return nil, fmt.Errorf("perf: the watchers did not come up: %w", wait.Err())
		}
	}
	return out, nil
}

// watchFor bounds a measured watcher's whole game.
const watchFor = 10 * time.Minute
