package p2p

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// HostConfig says how to build a game host.
type HostConfig struct {
	// Identity is the host's key; see LoadOrCreateIdentity.
	Identity crypto.PrivKey
	// ListenIPs are the interface addresses to listen on. Empty means the
	// machine's LAN addresses (LANAddrs). Never a wildcard: listening on
	// 0.0.0.0 would also advertise addresses of interfaces we did not mean
	// to play on.
	ListenIPs []net.IP
	// Port for both TCP and QUIC; 0 picks a free one.
	Port int
	// Logger receives the host's own events (a connection flood refused,
	// addresses a peer gave that are not dialled); nil discards them.
	Logger *slog.Logger
}

// NewHost builds a libp2p host for a LAN game: TCP and QUIC on the given
// addresses, Noise, yamux; relay, NAT port mapping, AutoNAT, hole punching
// and metrics off; resource limits sized for a handful of players; an IP
// flooding us with connection attempts is refused for a while (gater.go);
// an address a peer gave is dialled only if it is a LAN IP (lanaddr.go),
// and no name is ever resolved.
func NewHost(cfg HostConfig) (host.Host, error) {
	if cfg.Identity == nil {
		return nil, errors.New("p2p: NewHost needs an identity (see LoadOrCreateIdentity)")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	self, err := peer.IDFromPrivateKey(cfg.Identity)
	if err != nil {
		return nil, fmt.Errorf("p2p: NewHost: the identity has no peer ID: %w", err)
	}
	ips := cfg.ListenIPs
	if len(ips) == 0 {
		if ips, err = LANAddrs(); err != nil {
			return nil, err
		}
	}
	var listen []ma.Multiaddr
	for _, ip := range ips {
		for _, l := range listenAddrs(ip, cfg.Port) {
			a, err := ma.NewMultiaddr(l)
			if err != nil {
				return nil, fmt.Errorf("p2p: listen address %s: %w", l, err)
			}
			listen = append(listen, a)
		}
	}
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(gameLimits()), rcmgr.WithMetricsDisabled(),
		rcmgr.WithNetworkPrefixLimit(loopbackConnLimits()), rcmgr.WithConnRateLimiters(connRateLimiter()))
	if err != nil {
		return nil, fmt.Errorf("p2p: resource manager: %w", err)
	}
	// A game has at most 3 other players; a few spare connections cover
	// lobby browsing and a peer that reconnects before the old connection
	// is reaped. Members are protected from trimming by the transport.
	cm, err := connmgr.NewConnManager(16, 32, connmgr.WithGracePeriod(30*time.Second))
	if err != nil {
		return nil, fmt.Errorf("p2p: connection manager: %w", err)
	}
	log := cfg.Logger.With("self", short(self))
	pol := newAddrPolicy(log)
	gater := newFloodGater(log, time.Now)
	gater.pol = pol
	h, err := libp2p.New(
		libp2p.Identity(cfg.Identity),
		libp2p.ListenAddrs(listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.DisableRelay(),
		libp2p.DisableMetrics(),
		libp2p.DisableIdentifyAddressDiscovery(),
		libp2p.ResourceManager(rm),
		libp2p.ConnectionManager(cm),
		libp2p.ConnectionGater(gater),
		// No name a peer gave is ever looked up (lanaddr.go).
		libp2p.MultiaddrResolver(refusingResolver{pol}),
		libp2p.Ping(true),
		libp2p.UserAgent("aeroplane/"+ProtocolVersion),
		libp2p.WithDialTimeout(5*time.Second),
	)
	if err != nil {
		rm.Close()
		cm.Close()
		return nil, fmt.Errorf("p2p: starting the network host on %v: %w (check that the addresses belong to this machine, or pass other ones)", ips, err)
	}
	pol.setNetwork(h.Network())
	gater.net = h.Network()
	gh := &gameHost{Host: h, pol: pol, allow: rcmgr.GetAllowlist(rm), gater: gater}
	gh.guardPing()
	return gh, nil
}

func listenAddrs(ip net.IP, port int) []string {
	p := strconv.Itoa(port)
	if ip4 := ip.To4(); ip4 != nil {
		return []string{"/ip4/" + ip4.String() + "/tcp/" + p, "/ip4/" + ip4.String() + "/udp/" + p + "/quic-v1"}
	}
	return []string{"/ip6/" + ip.String() + "/tcp/" + p, "/ip6/" + ip.String() + "/udp/" + p + "/quic-v1"}
}

// gameLimits scales libp2p's defaults down to a game: a few peers, one
// stream each plus identify/ping, frames of at most MaxFrame bytes. That
// is 64 inbound connections (32 still in their handshake) for everyone
// but the table's players, and as many again kept for the players alone
// (the allowlisted scopes; reserve.go).
func gameLimits() rcmgr.ConcreteLimitConfig {
	return rcmgr.DefaultLimits.Scale(64<<20, 256)
}

// Per-address limits. libp2p counts at most 8 connections at a time and a
// burst of 16 new ones (then one per 5 s) per remote IPv4 address, and
// exempts loopback from both. Here loopback is counted too, against its
// own limits: every peer on this machine shares 127.0.0.1 (a
// single-machine game, the p2p tests, the perf harness), so they are
// sized for a whole table of such peers reconnecting, not for one peer.
// A LAN stranger cannot send from loopback; what the table needs against
// strangers is its reserved room (reserve.go).
const (
	loopbackConns     = 32
	loopbackRateBurst = 128
	loopbackRatePerS  = 4
)

var loopbackPrefixes = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

func loopbackConnLimits() (v4, v6 []rcmgr.NetworkPrefixLimit) {
	return []rcmgr.NetworkPrefixLimit{{Network: loopbackPrefixes[0], ConnCount: loopbackConns}},
		[]rcmgr.NetworkPrefixLimit{{Network: loopbackPrefixes[1], ConnCount: loopbackConns}}
}

// connRateLimiter is libp2p's default rate limiter (per IPv4 address, per
// IPv6 /56 and /48) with loopback limited instead of exempt.
func connRateLimiter() *rate.Limiter {
	lo := rate.Limit{RPS: loopbackRatePerS, Burst: loopbackRateBurst}
	return &rate.Limiter{
		NetworkPrefixLimits: []rate.PrefixLimit{{Prefix: loopbackPrefixes[0], Limit: lo}, {Prefix: loopbackPrefixes[1], Limit: lo}},
		SubnetRateLimiter: rate.SubnetLimiter{
			IPv4SubnetLimits: []rate.SubnetLimit{{PrefixLength: 32, Limit: rate.Limit{RPS: 0.2, Burst: 16}}},
			IPv6SubnetLimits: []rate.SubnetLimit{
				{PrefixLength: 56, Limit: rate.Limit{RPS: 0.2, Burst: 16}},
				{PrefixLength: 48, Limit: rate.Limit{RPS: 0.5, Burst: 80}},
			},
			GracePeriod: time.Minute,
		},
	}
}

// LANAddrs returns the IPv4 addresses of the machine's up, non-loopback
// interfaces, or 127.0.0.1 if there is none (a single-machine game).
func LANAddrs() ([]net.IP, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("p2p: listing network interfaces: %w", err)
	}
	var ips []net.IP
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok || n.IP.To4() == nil || n.IP.IsLinkLocalUnicast() {
				continue
			}
			ips = append(ips, n.IP.To4())
		}
	}
	if len(ips) == 0 {
		ips = []net.IP{net.IPv4(127, 0, 0, 1).To4()}
	}
	return ips, nil
}

// DialableAddrs returns the host's addresses as full multiaddrs ending in
// /p2p/ID, LAN addresses first; what a user types into --connect elsewhere.
// Loopback addresses are listed only when there is nothing else.
func DialableAddrs(h host.Host) []string {
	var lan, loop []string
	for _, a := range h.Addrs() {
		full := a.Encapsulate(ma.StringCast("/p2p/" + h.ID().String())).String()
		if manet.IsIPLoopback(a) {
			loop = append(loop, full)
		} else {
			lan = append(lan, full)
		}
	}
	if len(lan) == 0 {
		return loop
	}
	return lan
}

// advertisable filters addresses to those worth telling another host about:
// no loopback unless there is nothing else (then the other "host" can only be
// on this machine anyway).
func advertisable(addrs []ma.Multiaddr) []ma.Multiaddr {
	var lan, loop []ma.Multiaddr
	for _, a := range addrs {
		if manet.IsIPLoopback(a) {
			loop = append(loop, a)
		} else {
			lan = append(lan, a)
		}
	}
	if len(lan) == 0 {
		return loop
	}
	return lan
}

// gameHost is the host NewHost returns: libp2p's, with the game's address
// policy beside it, so the lobby, discovery and transport that are handed
// the host judge addresses as its gater does, and its resource manager's
// allowlist, where the transport keeps room for the players.
type gameHost struct {
	host.Host
	pol   *addrPolicy
	allow *rcmgr.Allowlist // the resource manager's: the players' reserved room
	gater *floodGater      // refuses strangers while a game runs (SetMembers)
}

// fallbackPolicy judges addresses for a host NewHost did not build: the
// same ranges, but no live connections known, nothing vouched, one shared
// log budget.
var fallbackPolicy = newAddrPolicy(slog.New(slog.DiscardHandler))

// policyOf returns h's address policy.
func policyOf(h host.Host) *addrPolicy {
	if g, ok := h.(*gameHost); ok {
		return g.pol
	}
	return fallbackPolicy
}

// AddrInfo is a convenience for tests and the UI.
func AddrInfo(h host.Host) peer.AddrInfo { return peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()} }
