package p2p

import (
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Refusing connection floods.
//
// The resource manager caps how many connections are open at once, but a
// peer that opens and drops connections in a loop (or leaves bare TCP
// connections that never speak) still costs us a handshake attempt each,
// and nobody would ever hear of it. So the host's connection gater counts
// inbound connection attempts per remote IP, before any handshake, and
// refuses an IP for a while once it goes past floodLimit attempts in
// floodWindow, saying so once in the log.
//
// The limits are generous: a LAN game sees a few connections per peer per
// minute (TCP and QUIC may race, discovery may dial as manual connect
// does), and a legitimate reconnect after a pulled cable, or a restarted
// client, must never be refused.
const (
	floodLimit  = 20
	floodWindow = 10 * time.Second
	floodBan    = 30 * time.Second
	// floodTracked bounds the IPs remembered; past it, idle ones are
	// forgotten first (a LAN has a handful of peers).
	floodTracked = 256
	// floodLoopbackLimit is loopback's limit in floodWindow: every peer
	// on this machine shares 127.0.0.1, so it is sized for a table of
	// them (a single-machine game, the p2p tests, the perf harness).
	floodLoopbackLimit = 8 * floodLimit
)

// floodGater is the host's connmgr.ConnectionGater. Accepts are judged
// by their IP's rate, dials by their address (lanaddr.go); peer-level
// misbehaviour is the transport's business (strikes).
//
// Loopback is counted against a limit of its own. InterceptAccept runs
// before the handshake, so the only name a connection has is its
// address, and every peer on this machine shares 127.0.0.1: a
// single-machine game, the p2p tests and the perf harness run many hosts
// there. Test LANs give each peer its own namespace and address, so they
// are counted like a real LAN.
type floodGater struct {
	log *slog.Logger
	now func() time.Time
	// pol judges every address the swarm is about to dial (nil: all
	// allowed), the second line of defence behind the checks where
	// addresses enter, and the only one for identify's.
	pol *addrPolicy

	limit, loopbackLimit int
	window               time.Duration
	ban                  time.Duration

	mu  sync.Mutex
	ips map[netip.Addr]*floodRecord

	// only, while a game runs, holds its players (SetMembers): an inbound
	// connection Noise names as anyone else is kept only under the
	// watchers' caps (InterceptSecured, watchers.go). nil: everyone
	// (lobby browsing).
	only atomic.Pointer[map[peer.ID]bool]
	// strangerLog is log limited per remote IP (ratelog.go): a flood of
	// fresh identities from one address writes a few lines, not one each.
	strangerLog *slog.Logger
	// strangersRefused counts the connections InterceptSecured refused.
	strangersRefused atomic.Int64
	// net is the host's network (set once, before it listens): the
	// watchers' caps count its connections (watchers.go).
	net network.Network
	// strangers judges non-members' streams during a game (watchers.go).
	strangers strangers
}

type floodRecord struct {
	attempts    []time.Time // within the window, oldest first
	bannedUntil time.Time
	refused     int // attempts refused during the current ban
}

func newFloodGater(log *slog.Logger, now func() time.Time) *floodGater {
	return &floodGater{log: log, now: now, limit: floodLimit, loopbackLimit: floodLoopbackLimit, window: floodWindow, ban: floodBan,
		ips: map[netip.Addr]*floodRecord{}, strangerLog: newRateLimiter().logger(log)}
}

// admitOnly makes ids the only peers whose inbound connections are kept
// (nil: all). The set is replaced whole, so InterceptSecured reads it
// without a lock.
func (g *floodGater) admitOnly(ids map[peer.ID]bool) {
	if ids == nil {
		g.only.Store(nil)
		return
	}
	g.only.Store(&ids)
}

// admits says whether an inbound connection from id may stay.
func (g *floodGater) admits(id peer.ID) bool {
	only := g.only.Load()
	return only == nil || (*only)[id]
}

// allow records one inbound attempt from ip and says whether to take it.
func (g *floodGater) allow(ip netip.Addr) bool {
	ip = ip.Unmap()
	limit := g.limit
	if ip.IsLoopback() {
		limit = g.loopbackLimit
	}
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.ips[ip]
	if r == nil {
		g.forgetIdle(now)
		r = &floodRecord{}
		g.ips[ip] = r
	}
	if now.Before(r.bannedUntil) {
		r.refused++
		return false
	}
	if !r.bannedUntil.IsZero() {
		// The ban is over: start counting afresh, so that one more attempt
		// does not ban again at once.
		g.log.Info("connection flood over: accepting again", "ip", ip.String(), "refused", r.refused)
		r.bannedUntil, r.refused, r.attempts = time.Time{}, 0, r.attempts[:0]
	}
	i := 0
	for i < len(r.attempts) && now.Sub(r.attempts[i]) >= g.window {
		i++
	}
	r.attempts = append(r.attempts[:0], r.attempts[i:]...)
	if len(r.attempts) >= limit {
		r.bannedUntil, r.refused, r.attempts = now.Add(g.ban), 1, r.attempts[:0]
		// One warning per ban: a flood of thousands must not flood the log.
		g.log.Warn(fmt.Sprintf("connection flood from %s: refusing for %d s", ip, int(g.ban/time.Second)),
			"ip", ip.String(), "attempts", limit+1, "window", g.window)
		return false
	}
	r.attempts = append(r.attempts, now)
	return true
}

// forgetIdle drops records that can no longer matter once too many are
// kept: not banned and no attempt within the window. Called with g.mu held.
func (g *floodGater) forgetIdle(now time.Time) {
	if len(g.ips) < floodTracked {
		return
	}
	for ip, r := range g.ips {
		if !now.Before(r.bannedUntil) && (len(r.attempts) == 0 || now.Sub(r.attempts[len(r.attempts)-1]) >= g.window) {
			delete(g.ips, ip)
		}
	}
}

// InterceptAccept judges an inbound connection by its remote IP. An
// address without an IP (none on a LAN host) is let through.
func (g *floodGater) InterceptAccept(c network.ConnMultiaddrs) bool {
	ip, err := manet.ToIP(c.RemoteMultiaddr())
	if err != nil {
		return true
	}
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return true
	}
	return g.allow(a)
}

func (g *floodGater) InterceptPeerDial(peer.ID) bool { return true }
func (g *floodGater) InterceptAddrDial(id peer.ID, a ma.Multiaddr) bool {
	if g.pol == nil || g.pol.allowed(id, a) {
		return true
	}
	g.pol.refused(id, []ma.Multiaddr{a}, "dial")
	return false
}

// InterceptSecured refuses, while a game runs, an inbound connection from
// a peer that is not one of its players once the watchers' caps are full
// (or the peer is refused for its streams): the handshake has just proved
// who it is, and no stream can be opened on it yet. So strangers hold at
// most MaxWatchers connections during a game, whose streams the watchers'
// rules bound (watchers.go). Our own dials are ours to judge and pass.
func (g *floodGater) InterceptSecured(dir network.Direction, id peer.ID, c network.ConnMultiaddrs) bool {
	if dir != network.DirInbound || g.admits(id) {
		return true
	}
	ip, _ := connIP(c)
	if g.roomForStranger(id, ip) {
		g.strangers.admitted.Add(1)
		return true
	}
	n := g.strangersRefused.Add(1)
	g.strangerLog.Info("connection from a stranger refused: a game is running and its watchers' room is full", "peer", ip.String(), "id", short(id), "refused", n)
	return false
}
func (g *floodGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) {
	return true, 0
}
