package p2p

import (
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Watchers during a game.
//
// A game's watchers are by design not its members, so while a game runs
// the gater admits a few connections from non-members: MaxWatchers in
// all, at most maxWatchersPerIP from one address (TCP and QUIC may race),
// beyond that refused after Noise as every stranger used to be. They are
// ordinary connections, so they never take the players' reserved room
// (reserve.go), which only members' IPs enter.
//
// On such a connection only the watch and info protocols are served; a
// stream of any other protocol is reset at once. Every stream a
// non-member opens takes a token from its own bucket (strangerBurst, then
// one per strangerEvery); a stream without a token, or of a protocol
// other than the game's own, is a strike, and a strike beyond
// strangerStrikes (refilled one per strangerStrikeEvery) closes the
// peer's connections and refuses it for strangerBan. The game's protocol
// is the exception that takes a token without a strike: a watcher's own
// transport opens it once a heartbeat to every peer it is connected to,
// and a reset costs us nothing more.
//
// So a stranger's streams are bounded per connection by strangerBurst +
// strangerStrikes + 1 plus what the buckets refill, and its connections
// by the caps here and the per-IP attempt limit (gater.go).
const (
	MaxWatchers      = 12
	maxWatchersPerIP = 2

	strangerBurst       = 20
	strangerEvery       = 250 * time.Millisecond
	strangerStrikes     = 4
	strangerStrikeEvery = 10 * time.Second
	strangerBan         = time.Minute
	// strangersTracked bounds the non-members remembered; past it, those
	// neither banned nor recently active are forgotten first.
	strangersTracked = 256
)

type strangerRecord struct {
	streams, strikes Bucket
	bannedUntil      time.Time
}

// strangers is the gater's book of non-members during a game.
type strangers struct {
	mu  sync.Mutex
	ids map[peer.ID]*strangerRecord

	// admitted counts the non-member connections admitted during games,
	// served the streams passed to a handler, reset those refused.
	admitted, served, reset atomic.Int64
}

// record returns id's record, making room for it. Called with s.mu held.
func (s *strangers) record(id peer.ID, now time.Time) *strangerRecord {
	if s.ids == nil {
		s.ids = map[peer.ID]*strangerRecord{}
	}
	r := s.ids[id]
	if r != nil {
		return r
	}
	if len(s.ids) >= strangersTracked {
		for k, o := range s.ids {
			if !now.Before(o.bannedUntil) && now.Sub(o.streams.Last()) > strangerBurst*strangerEvery {
				delete(s.ids, k)
			}
		}
		for k := range s.ids { // all banned or busy: forget one (its connections are capped anyway)
			if len(s.ids) < strangersTracked {
				break
			}
			delete(s.ids, k)
		}
	}
	r = &strangerRecord{}
	s.ids[id] = r
	return r
}

func (s *strangers) banned(id peer.ID, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.ids[id]
	return r != nil && now.Before(r.bannedUntil)
}

// stream judges a stream of pid a non-member opened during a game: serve
// it, or reset it; ban says the peer is to be cut off now.
func (s *strangers) stream(id peer.ID, pid protocol.ID, now time.Time) (serve, ban bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.record(id, now)
	if now.Before(r.bannedUntil) {
		return false, true
	}
	token := r.streams.TakeAt(now, strangerBurst, strangerEvery)
	watch := pid == WatchProtocolID || pid == InfoProtocolID
	if token && watch {
		return true, false
	}
	if token && pid == ProtocolID {
		return false, false
	}
	if r.strikes.TakeAt(now, strangerStrikes, strangerStrikeEvery) {
		return false, false
	}
	r.bannedUntil = now.Add(strangerBan)
	return false, true
}

// admitStream says whether a stream may reach its handler: always, but
// from a non-member while a game runs (see above).
func (g *floodGater) admitStream(st network.Stream) bool {
	id := st.Conn().RemotePeer()
	if g.admits(id) {
		return true
	}
	serve, ban := g.strangers.stream(id, st.Protocol(), g.now())
	if serve {
		g.strangers.served.Add(1)
		return true
	}
	g.strangers.reset.Add(1)
	from, _ := connIP(st.Conn())
	if !ban {
		g.strangerLog.Info("stream of a non-member reset: a game is running", "peer", from.String(), "id", short(id), "protocol", string(st.Protocol()))
	}
	if ban {
		if g.net != nil {
			_ = g.net.ClosePeer(id)
		} else {
			_ = st.Conn().Close()
		}
		g.strangerLog.Info("a non-member opening too many streams during the game: refused for a minute",
			"peer", from.String(), "id", short(id), "protocol", string(st.Protocol()))
	}
	return false
}

// roomForStranger says whether a non-member's new connection from ip
// fits under the watchers' caps while a game runs.
func (g *floodGater) roomForStranger(id peer.ID, ip netip.Addr) bool {
	if g.strangers.banned(id, g.now()) {
		return false
	}
	if g.net == nil {
		return false
	}
	all, fromIP := 0, 0
	for _, c := range g.net.Conns() {
		if g.admits(c.RemotePeer()) {
			continue
		}
		all++
		if a, ok := connIP(c); ok && a == ip {
			fromIP++
		}
	}
	return all < MaxWatchers && (!ip.IsValid() || fromIP < maxWatchersPerIP)
}

// excessStrangers returns the non-members' connections beyond the
// watchers' caps, the newest first to go, and those of banned peers.
func (g *floodGater) excessStrangers(conns []network.Conn) []network.Conn {
	if g.only.Load() == nil {
		return nil
	}
	var theirs []network.Conn
	for _, c := range conns {
		if !g.admits(c.RemotePeer()) {
			theirs = append(theirs, c)
		}
	}
	slices.SortFunc(theirs, func(a, b network.Conn) int { return a.Stat().Opened.Compare(b.Stat().Opened) })
	now := g.now()
	var out []network.Conn
	perIP := map[netip.Addr]int{}
	kept := 0
	for _, c := range theirs {
		ip, _ := connIP(c)
		if kept >= MaxWatchers || perIP[ip] >= maxWatchersPerIP || g.strangers.banned(c.RemotePeer(), now) {
			out = append(out, c)
			continue
		}
		kept++
		perIP[ip]++
	}
	return out
}

func connIP(c network.ConnMultiaddrs) (netip.Addr, bool) {
	ip, err := manet.ToIP(c.RemoteMultiaddr())
	if err != nil {
		return netip.Addr{}, false
	}
	a, ok := netip.AddrFromSlice(ip)
	return a.Unmap(), ok
}

// SetStreamHandler serves pid with handler, behind the gater's judgement
// of non-members' streams during a game.
func (g *gameHost) SetStreamHandler(pid protocol.ID, handler network.StreamHandler) {
	if g.gater == nil {
		g.Host.SetStreamHandler(pid, handler)
		return
	}
	g.Host.SetStreamHandler(pid, func(s network.Stream) {
		if !g.gater.admitStream(s) {
			_ = s.Reset()
			return
		}
		handler(s)
	})
}

// guardPing puts libp2p's ping handler behind SetStreamHandler's check.
func (g *gameHost) guardPing() {
	ps := &ping.PingService{Host: g.Host}
	g.SetStreamHandler(ping.ID, ps.PingHandler)
}
