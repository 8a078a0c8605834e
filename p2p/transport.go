package p2p

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"
)

// TransportConfig tunes the transport; zero values pick the defaults.
type TransportConfig struct {
	// Heartbeat is how often a ping goes out on every stream (default 1 s).
	Heartbeat time.Duration
	// DeadAfter is how long a stream may stay silent before its peer is
	// declared absent (default 4 s: four missed heartbeats). TCP/QUIC
	// keepalives would take 30-40 s to notice a hung peer.
	DeadAfter time.Duration
	// WriteTimeout bounds one frame's write (default 5 s).
	WriteTimeout time.Duration
	// MaxStrikes bad frames within StrikeWindow disconnect a peer and
	// refuse it for BanFor (defaults 8, 10 s, 30 s).
	MaxStrikes   int
	StrikeWindow time.Duration
	BanFor       time.Duration
	// QueueLen is each peer's outgoing queue in frames (default 1024).
	QueueLen int
	Logger   *slog.Logger
}

func (c *TransportConfig) defaults() {
	if c.Heartbeat <= 0 {
		c.Heartbeat = time.Second
	}
	if c.DeadAfter <= 0 {
		c.DeadAfter = 4 * c.Heartbeat
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 5 * time.Second
	}
	if c.MaxStrikes <= 0 {
		c.MaxStrikes = 8
	}
	if c.StrikeWindow <= 0 {
		c.StrikeWindow = 10 * time.Second
	}
	if c.BanFor <= 0 {
		c.BanFor = 30 * time.Second
	}
	if c.QueueLen <= 0 {
		c.QueueLen = 1024
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
}

// Inbound is a frame from a peer, for the layers above the transport.
type Inbound struct {
	From peer.ID
	Kind Kind
	Data []byte // owned by the receiver
}

// PeerEvent says that a peer's stream came up or went away.
type PeerEvent struct {
	Peer   peer.ID
	Up     bool
	Reason string // why it went down: "left", "heartbeat timeout", ...
}

// ErrNotConnected is returned by Send when there is no stream to the peer.
var ErrNotConnected = errors.New("peer not connected")

// Transport moves frames between peer IDs over one long-lived stream per
// peer pair. The peer with the smaller ID opens the stream, so two peers
// that dial each other at once still end up with one stream; a newer stream
// from the same peer replaces the old one (the peer restarted).
type Transport struct {
	h   host.Host
	cfg TransportConfig
	log *slog.Logger // limited per peer (rl): a peer's frames cause its lines
	rl  *rateLimiter
	// opened, set by tests only (before any connection), runs between a
	// stream's opening and its adoption.
	opened func(p peer.ID)

	inbox  chan Inbound
	events chan PeerEvent

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	links   map[peer.ID]*link
	opening map[peer.ID]bool
	members map[peer.ID]bool   // nil: anyone may send (lobby browsing)
	guests  map[peer.ID]*guest // newcomers admitted (guests.go)
	strikes map[peer.ID][]time.Time
	banned  map[peer.ID]time.Time
	backoff map[peer.ID]*openBackoff   // streams that dropped at once (backoff.go)
	known   map[peer.ID][]ma.Multiaddr // last addresses a stream came up on (redial.go)
	redial  map[peer.ID]*redialState
	changed chan struct{} // closed and replaced when links change
	closed  bool

	// resMu serialises reserveMembers; reserved is what it put in the
	// host's allowlist (reserve.go).
	resMu    sync.Mutex
	reserved map[string]ma.Multiaddr
}

// NewTransport starts serving ProtocolID on h. Close it before closing h.
func NewTransport(h host.Host, cfg TransportConfig) *Transport {
	cfg.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	rl := newRateLimiter()
	t := &Transport{
		h: h, cfg: cfg, log: rl.logger(cfg.Logger).With("self", short(h.ID())), rl: rl,
		inbox:   make(chan Inbound, 1024),
		events:  make(chan PeerEvent, 1024),
		ctx:     ctx,
		cancel:  cancel,
		links:   map[peer.ID]*link{},
		opening: map[peer.ID]bool{},
		strikes: map[peer.ID][]time.Time{},
		banned:  map[peer.ID]time.Time{},
		backoff: map[peer.ID]*openBackoff{},
		known:   map[peer.ID][]ma.Multiaddr{},
		redial:  map[peer.ID]*redialState{},
		changed: make(chan struct{}),

		reserved: map[string]ma.Multiaddr{},
	}
	h.SetStreamHandler(protocol.ID(ProtocolID), t.handleStream)
	h.Network().Notify(&network.NotifyBundle{ConnectedF: func(_ network.Network, c network.Conn) {
		t.maybeOpen(c.RemotePeer())
	}})
	t.wg.Add(1)
	go t.maintain()
	return t
}

// peerLog is l with the transport's limit on the lines a remote peer can
// cause (ratelog.go): every log line a peer's traffic triggers goes
// through it.
func (t *Transport) peerLog(l *slog.Logger) *slog.Logger { return t.rl.logger(l) }

// Host is the libp2p host under the transport.
func (t *Transport) Host() host.Host { return t.h }

// Inbox delivers frames of kinds Game, Chat and Lobby in the order each
// peer sent them. Read it, or the peers' readers stall.
func (t *Transport) Inbox() <-chan Inbound { return t.inbox }

// Events delivers peer up/down events (buffered; dropped with a log line if
// nobody reads them).
func (t *Transport) Events() <-chan PeerEvent { return t.events }

// SetMembers restricts who may send application frames; nil lets anyone.
// Frames from others are dropped, logged and count as strikes. The members
// are also re-dialled while they are away, and have room for their
// connections that strangers cannot take (reserve.go).
//
// Members are set while a game runs, and then a host NewHost built admits
// others only as watchers: a few connections (those open now beyond the
// cap are closed, and each new inbound one past it as soon as Noise has
// named it, in the gater), serving only the watch and info protocols at a
// bounded rate (watchers.go), so strangers cannot starve the players.
// nil opens the host to everyone again (the lobby).
func (t *Transport) SetMembers(ids []peer.ID) {
	defer t.reserveMembers()
	t.mu.Lock()
	t.guests = nil // a new game's newcomers ask again
	if ids == nil {
		t.members = nil
		t.mu.Unlock()
		t.admitOnly(nil)
		return
	}
	t.members = map[peer.ID]bool{}
	for _, id := range ids {
		if id != t.h.ID() {
			t.members[id] = true
			t.h.ConnManager().Protect(id, "aeroplane")
		}
	}
	only := maps.Clone(t.members)
	var outside []*link
	for id, l := range t.links {
		if !only[id] {
			outside = append(outside, l)
		}
	}
	t.mu.Unlock()
	// A watcher's connection may stay (admitOnly), its game stream not:
	// it has nothing to send there but lobby frames, each a strike now.
	for _, l := range outside {
		l.teardown("not in the game")
	}
	t.admitOnly(only)
}

// admitOnly hands the members to the host's gater and closes the
// connections of anyone else beyond the watchers' caps. Hosts NewHost did not build admit everyone.
func (t *Transport) admitOnly(only map[peer.ID]bool) {
	g, ok := t.h.(*gameHost)
	if !ok || g.gater == nil {
		return
	}
	g.gater.admitOnly(only)
	t.closeStrangers()
}

// closeStrangers closes the non-members' connections beyond the
// watchers' caps (the newest first) and those of peers refused for their
// streams; the first MaxWatchers stay (watchers.go).
func (t *Transport) closeStrangers() {
	g, ok := t.h.(*gameHost)
	if !ok || g.gater == nil {
		return
	}
	for _, c := range g.gater.excessStrangers(t.h.Network().Conns()) {
		c.Close()
	}
}

// Peers returns the peers with a live stream.
func (t *Transport) Peers() []peer.ID {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := make([]peer.ID, 0, len(t.links))
	for id := range t.links {
		ids = append(ids, id)
	}
	return ids
}

// Connected reports whether there is a live stream to p.
func (t *Transport) Connected(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.links[p] != nil
}

// ConnectByHand is Connect for an address the user typed (ResolveAddr's
// answer): the user vouches for it, so it is dialled even outside the
// LAN ranges a peer-given address must be in (lanaddr.go), now and in
// the re-dials.
func (t *Transport) ConnectByHand(ctx context.Context, info peer.AddrInfo) error {
	policyOf(t.h).vouch(info)
	return t.Connect(ctx, info)
}

// Connect dials info and waits until the stream to it is up. Addresses
// outside the LAN ranges are not dialled (lanaddr.go).
func (t *Transport) Connect(ctx context.Context, info peer.AddrInfo) error {
	if info.ID == t.h.ID() {
		return errors.New("p2p: that address is this peer itself")
	}
	if err := t.h.Connect(ctx, info); err != nil {
		return fmt.Errorf("p2p: connecting to %s: %w (check the address and that the peer is running)", info.ID, err)
	}
	t.maybeOpen(info.ID)
	for {
		t.mu.Lock()
		up, ch := t.links[info.ID] != nil, t.changed
		t.mu.Unlock()
		if up {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("p2p: %s connected but opened no game stream: %w", info.ID, ctx.Err())
		}
	}
}

// Send queues one frame for p. It fails if p has no stream or its queue is
// full (a peer that stopped reading); the caller's protocol must cope with
// lost messages, as lockstep does.
func (t *Transport) Send(p peer.ID, kind Kind, data []byte) error {
	b, err := AppendFrame(nil, Frame{Kind: kind, Body: data})
	if err != nil {
		return err
	}
	t.mu.Lock()
	l := t.links[p]
	t.mu.Unlock()
	if l == nil {
		return fmt.Errorf("p2p: send to %s: %w", short(p), ErrNotConnected)
	}
	return l.enqueue(b)
}

// Broadcast sends a frame to every member with a live stream (every peer
// with a stream when no members are set) and returns the first error.
func (t *Transport) Broadcast(kind Kind, data []byte) error {
	var first error
	for _, p := range t.Peers() {
		if !t.isMember(p) {
			continue
		}
		if err := t.Send(p, kind, data); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// isMemberOnly reports whether p is a member of a game (false while
// browsing lobbies, when everyone may send).
func (t *Transport) isMemberOnly(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.members[p]
}

func (t *Transport) isMember(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, guest := t.guests[p]
	return t.members == nil || t.members[p] || guest
}

// Close says goodbye on every stream, waits briefly for the frames to go
// out, and stops. It does not close the host.
func (t *Transport) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	links := make([]*link, 0, len(t.links))
	for _, l := range t.links {
		links = append(links, l)
	}
	t.mu.Unlock()
	t.reserveMembers() // closed: gives the room back
	t.h.RemoveStreamHandler(protocol.ID(ProtocolID))
	for _, l := range links {
		l.goodbye()
	}
	deadline := time.After(time.Second)
	for _, l := range links {
		select {
		case <-l.writerDone:
		case <-deadline:
		}
	}
	t.cancel()
	for _, l := range links {
		// After a goodbye, Close (not Reset) so the frames still in flight
		// are not discarded by the other side.
		l.mu.Lock()
		l.graceful = true
		l.mu.Unlock()
		l.teardown("closing")
	}
	t.wg.Wait()
	return nil
}

// maintain re-opens streams to members that are connected but have none,
// re-dials members that are away, forgets expired bans, and closes any
// stranger's connection that was still in its handshake when the game
// began (admitOnly).
func (t *Transport) maintain() {
	defer t.wg.Done()
	tick := time.NewTicker(t.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-tick.C:
		}
		t.mu.Lock()
		var away, here []peer.ID
		for id := range t.members {
			if t.links[id] == nil {
				away = append(away, id)
			} else {
				here = append(here, id)
			}
		}
		now := time.Now()
		for id, until := range t.banned {
			if now.After(until) {
				delete(t.banned, id)
			}
		}
		t.forgetBackoffsLocked(now)
		var only map[peer.ID]bool
		quiet, gone := t.expireGuestsLocked(now)
		if gone {
			only = t.admittedLocked()
		}
		for id, at := range t.strikes {
			if now.Sub(at[len(at)-1]) >= t.cfg.StrikeWindow {
				delete(t.strikes, id) // all expired: a peer struck once is not kept forever
			}
		}
		t.mu.Unlock()
		for _, l := range quiet {
			l.teardown("a newcomer that never spoke the game protocol")
		}
		if only != nil {
			t.admitOnly(only)
		}
		for _, id := range t.h.Network().Peers() {
			t.maybeOpen(id)
		}
		for _, id := range here {
			t.note(id, nil)
		}
		t.reserveMembers()
		t.redialAway(away, now)
		t.closeStrangers()
	}
}

// maybeOpen opens the stream to p if this peer is the one that opens it
// (smaller ID), there is none yet and none is being opened.
func (t *Transport) maybeOpen(p peer.ID) {
	if t.h.ID() >= p {
		return
	}
	t.mu.Lock()
	// During a game only members get a game stream: a watcher's would be
	// struck at its first frame.
	_, guest := t.guests[p]
	stranger := t.members != nil && !t.members[p] && !guest
	if t.closed || stranger || t.links[p] != nil || t.opening[p] || t.isBannedLocked(p) || t.backoffLocked(p, time.Now()) {
		t.mu.Unlock()
		return
	}
	t.opening[p] = true
	t.mu.Unlock()
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		ctx, cancel := context.WithTimeout(t.ctx, t.cfg.WriteTimeout)
		defer cancel()
		s, err := t.h.NewStream(ctx, p, protocol.ID(ProtocolID))
		// Still "opening" until adopt has made it the link: a maintain
		// tick in between would open a second stream, which replaces the
		// first, and the other side, seeing the first one reset before
		// the second arrives, reports us down and up again (a LAN test
		// caught the flap).
		defer func() {
			t.mu.Lock()
			delete(t.opening, p)
			t.mu.Unlock()
		}()
		if err != nil {
			t.log.Debug("opening stream failed", "peer", short(p), "err", err)
			timedOut := errors.Is(err, context.DeadlineExceeded) || isTimeout(err)
			if timedOut && t.ctx.Err() == nil && t.isMemberOnly(p) && t.h.Network().Connectedness(p) == network.Connected {
				// A member's connection that cannot carry a new stream is
				// a dead one the other side may never close (its cable was
				// out): drop it, so the re-dial makes a fresh one.
				_ = t.h.Network().ClosePeer(p)
			}
			return
		}
		if t.opened != nil {
			t.opened(p)
		}
		t.adopt(s)
	}()
}

func (t *Transport) handleStream(s network.Stream) {
	t.adopt(s)
}

func (t *Transport) isBannedLocked(p peer.ID) bool {
	until, ok := t.banned[p]
	return ok && time.Now().Before(until)
}

// adopt makes s the stream to its peer, replacing an older one.
func (t *Transport) adopt(s network.Stream) {
	p := s.Conn().RemotePeer()
	l := &link{
		t: t, peer: p, s: s, up: time.Now(),
		out:        make(chan []byte, t.cfg.QueueLen),
		done:       make(chan struct{}),
		bye:        make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	t.mu.Lock()
	if t.closed || t.isBannedLocked(p) {
		t.mu.Unlock()
		_ = s.Reset()
		return
	}
	old := t.links[p]
	t.links[p] = l
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
	t.remember(p, s.Conn())
	if old != nil {
		old.replaced()
	} else {
		t.log.Info("peer up", "peer", short(p), "addr", s.Conn().RemoteMultiaddr().String())
		t.emit(PeerEvent{Peer: p, Up: true})
	}
	t.wg.Add(2)
	go l.readLoop()
	go l.writeLoop()
}

func (t *Transport) emit(ev PeerEvent) {
	select {
	case t.events <- ev:
	default:
		t.log.Warn("peer event dropped: nobody reads Events", "peer", short(ev.Peer), "up", ev.Up)
	}
}

// strike records a bad frame from p and disconnects p after too many.
func (t *Transport) strike(p peer.ID, why string) {
	now := time.Now()
	t.mu.Lock()
	var recent []time.Time
	for _, at := range t.strikes[p] {
		if now.Sub(at) < t.cfg.StrikeWindow {
			recent = append(recent, at)
		}
	}
	recent = append(recent, now)
	t.strikes[p] = recent
	ban := len(recent) >= t.cfg.MaxStrikes
	var l *link
	if ban {
		t.banned[p] = now.Add(t.cfg.BanFor)
		delete(t.strikes, p)
		l = t.links[p]
	}
	t.mu.Unlock()
	t.log.Warn("bad frame dropped", "peer", short(p), "why", why, "strikes", len(recent))
	if ban {
		t.log.Warn("peer disconnected for sending bad frames", "peer", short(p), "for", t.cfg.BanFor)
		if l != nil {
			l.teardown("too many bad frames")
		}
		_ = t.h.Network().ClosePeer(p)
	}
}

// linkGone removes l if it is still p's current link and reports the peer
// as down.
func (t *Transport) linkGone(l *link, reason string) {
	t.mu.Lock()
	current := t.links[l.peer] == l
	if current {
		t.noteDropLocked(l.peer, l.up, time.Now())
		delete(t.links, l.peer)
		close(t.changed)
		t.changed = make(chan struct{})
	}
	t.mu.Unlock()
	if current {
		t.log.Info("peer down", "peer", short(l.peer), "reason", reason)
		t.emit(PeerEvent{Peer: l.peer, Reason: reason})
	}
}

// link is one stream to one peer: a reader, a writer with a queue, and the
// heartbeat.
type link struct {
	t    *Transport
	peer peer.ID
	s    network.Stream
	out  chan []byte
	up   time.Time // when it was adopted

	once       sync.Once
	done       chan struct{} // closed on teardown
	byeOnce    sync.Once
	bye        chan struct{} // closed when we are leaving: write Bye and stop
	writerDone chan struct{}
	quiet      bool // replaced by a newer stream: no down event
	graceful   bool // close instead of reset (set before teardown)
	mu         sync.Mutex
}

func (l *link) enqueue(b []byte) error {
	select {
	case <-l.done:
		return fmt.Errorf("p2p: send to %s: %w", short(l.peer), ErrNotConnected)
	default:
	}
	select {
	case l.out <- b:
		return nil
	default:
		return fmt.Errorf("p2p: send to %s: queue full, the peer is not reading", short(l.peer))
	}
}

func (l *link) goodbye() { l.byeOnce.Do(func() { close(l.bye) }) }

func (l *link) replaced() {
	l.mu.Lock()
	l.quiet = true
	l.mu.Unlock()
	l.teardown("replaced by a newer stream")
}

func (l *link) teardown(reason string) {
	l.once.Do(func() {
		close(l.done)
		l.mu.Lock()
		quiet, graceful := l.quiet, l.graceful
		l.mu.Unlock()
		if graceful {
			_ = l.s.Close()
		} else {
			_ = l.s.Reset()
		}
		if !quiet {
			l.t.linkGone(l, reason)
		}
	})
}

func (l *link) readLoop() {
	defer l.t.wg.Done()
	t := l.t
	fr := NewFrameReader(l.s)
	for {
		_ = l.s.SetReadDeadline(time.Now().Add(t.cfg.DeadAfter))
		f, err := fr.Read()
		switch {
		case err == nil:
		case errors.Is(err, ErrUnknownKind):
			t.strike(l.peer, err.Error())
			continue
		case errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrFrameEmpty):
			t.strike(l.peer, err.Error())
			l.teardown("unreadable stream: " + err.Error())
			return
		case isTimeout(err):
			l.teardown("heartbeat timeout")
			// The connection is probably dead too; drop it so a re-dial
			// starts fresh instead of reusing a half-open one.
			if t.ctx.Err() == nil {
				_ = t.h.Network().ClosePeer(l.peer)
			}
			return
		case errors.Is(err, io.EOF):
			l.teardown("stream closed")
			return
		default:
			l.teardown("stream error: " + err.Error())
			return
		}
		switch f.Kind {
		case KindPing:
			if len(f.Body) != 8 {
				t.strike(l.peer, "ping of wrong size")
				continue
			}
			pong, _ := AppendFrame(nil, Frame{Kind: KindPong, Body: f.Body})
			_ = l.enqueue(pong)
		case KindPong:
		case KindBye:
			l.teardown("left")
			return
		default:
			if !t.isMember(l.peer) {
				t.strike(l.peer, "application frame from a peer not in the game")
				continue
			}
			if t.IsGuest(l.peer) {
				switch f.Kind {
				case KindGame:
					t.heardGuest(l.peer)
				case KindChat:
				default:
					t.strike(l.peer, "a frame other than a game or chat frame from a newcomer")
					continue
				}
			}
			in := Inbound{From: l.peer, Kind: f.Kind, Data: append([]byte(nil), f.Body...)}
			select {
			case t.inbox <- in:
			case <-l.done:
				return
			case <-t.ctx.Done():
				return
			}
		}
	}
}

func (l *link) writeLoop() {
	defer l.t.wg.Done()
	defer close(l.writerDone)
	t := l.t
	tick := time.NewTicker(t.cfg.Heartbeat)
	defer tick.Stop()
	var seq uint64
	write := func(b []byte) bool {
		_ = l.s.SetWriteDeadline(time.Now().Add(t.cfg.WriteTimeout))
		if _, err := l.s.Write(b); err != nil {
			l.teardown("write failed: " + err.Error())
			return false
		}
		return true
	}
	ping := func() bool {
		seq++
		b, _ := AppendFrame(nil, Frame{Kind: KindPing, Body: binary.BigEndian.AppendUint64(nil, seq)})
		return write(b)
	}
	// Ping at once so the reader on the other side sees traffic before
	// its first deadline.
	if !ping() {
		return
	}
	for {
		select {
		case <-l.done:
			return
		case b := <-l.out:
			if !write(b) {
				return
			}
		case <-tick.C:
			if !ping() {
				return
			}
		case <-l.bye:
			for {
				select {
				case b := <-l.out:
					if !write(b) {
						return
					}
					continue
				default:
				}
				break
			}
			b, _ := AppendFrame(nil, Frame{Kind: KindBye})
			if write(b) {
				_ = l.s.CloseWrite()
			}
			return
		}
	}
}

// isTimeout recognises a read deadline on any transport: yamux (TCP) and
// QUIC streams report it with their own error types.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func short(p peer.ID) string {
	s := p.String()
	if len(s) > 12 {
		return s[len(s)-8:]
	}
	return s
}
