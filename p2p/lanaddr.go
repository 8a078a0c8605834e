package p2p

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Which of the addresses peers give us are dialled.
//
// Every address list a peer can hand us (a lobby join, the roster and
// start a host sends, a redirect, an mDNS advert's a= fields, identify)
// ends in a dial, and the dial is re-tried for the rest of a game. An
// address taken as given lets a stranger on the LAN make every player
// send packets wherever it likes, on the internet included, and resolve
// names it picks. So an address from a peer is dialled only if it is
//
//   - /ip4 or /ip6 (never a name: no /dns, /dns4, /dns6, /dnsaddr) in
//     loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7) or
//     link-local (169.254/16, fe80::/10) space, with /tcp/PORT or
//     /udp/PORT/quic-v1 on top (and nothing else but a trailing /p2p/ID);
//   - or the exact remote address of a live connection from that peer
//     (Noise proved who is there; dialling it back reaches only where
//     that peer already is);
//   - or an address the user typed for that peer (ConnectByHand): the
//     user vouches for it.
//
// The check runs where an address enters (lobby, discovery, re-dials)
// and again in the host's gater for every dial, which also covers
// identify. A dropped address is counted and logged once per peer.
// Names are never resolved at all: the host's resolver refuses every
// lookup (refusingResolver), because libp2p resolves them before the
// gater sees the dial.

// maxVouched bounds the addresses the user typed that are remembered;
// maxWarned the peers named in the log for a dropped address. Past them,
// the oldest vouch is forgotten and new peers are only counted.
const (
	maxVouched = 64
	maxWarned  = 256
)

var lanPrefixes = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("fe80::/10"),
}

// lanIP reports whether ip is in loopback, private or link-local space.
// An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
func lanIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range lanPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// lanDialable reports whether a is an address this host may dial on a
// peer's word alone: a LAN IP, then TCP, or UDP with QUIC v1, then at
// most a /p2p/ID. Anything else (a name, another transport, a relay
// circuit, a zone, garbage) is not.
func lanDialable(a ma.Multiaddr) bool {
	if len(a) < 2 {
		return false
	}
	var ip netip.Addr
	switch a[0].Code() {
	case ma.P_IP4, ma.P_IP6:
		var ok bool
		if ip, ok = netip.AddrFromSlice(a[0].RawValue()); !ok {
			return false
		}
	default:
		return false
	}
	if !lanIP(ip) {
		return false
	}
	rest := a[1:]
	switch rest[0].Code() {
	case ma.P_TCP:
		rest = rest[1:]
	case ma.P_UDP:
		if len(rest) < 2 || rest[1].Code() != ma.P_QUIC_V1 {
			return false
		}
		rest = rest[2:]
	default:
		return false
	}
	return len(rest) == 0 || (len(rest) == 1 && rest[0].Code() == ma.P_P2P)
}

// addrPolicy is one host's judge of peer-given addresses. The zero value
// is not usable; see newAddrPolicy. Safe for concurrent use.
type addrPolicy struct {
	log *slog.Logger
	// net is the host's network once it exists (the gater is built
	// before the host): where the live connections are.
	net atomic.Pointer[network.Network]

	dropped  atomic.Uint64 // addresses refused, ever
	resolves atomic.Uint64 // name lookups refused, ever

	mu      sync.Mutex
	vouched []vouch
	warned  map[peer.ID]bool
}

type vouch struct {
	id   peer.ID
	addr ma.Multiaddr
}

func newAddrPolicy(log *slog.Logger) *addrPolicy {
	return &addrPolicy{log: log, warned: map[peer.ID]bool{}}
}

func (p *addrPolicy) setNetwork(n network.Network) { p.net.Store(&n) }

// withoutP2P strips a trailing /p2p/ID, as the swarm does before dialling.
func withoutP2P(a ma.Multiaddr) ma.Multiaddr {
	if len(a) > 0 && a[len(a)-1].Code() == ma.P_P2P {
		return a[:len(a)-1]
	}
	return a
}

// allowed reports whether a, given for peer id, may be dialled.
func (p *addrPolicy) allowed(id peer.ID, a ma.Multiaddr) bool {
	if lanDialable(a) {
		return true
	}
	a = withoutP2P(a)
	if n := p.net.Load(); n != nil {
		for _, c := range (*n).ConnsToPeer(id) {
			if c.RemoteMultiaddr().Equal(a) {
				return true
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, v := range p.vouched {
		if v.id == id && v.addr.Equal(a) {
			return true
		}
	}
	return false
}

// vouch lets the addresses of info be dialled whatever they are: the user
// typed them.
func (p *addrPolicy) vouch(info peer.AddrInfo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range info.Addrs {
		v := vouch{info.ID, withoutP2P(a)}
		if !slices.ContainsFunc(p.vouched, func(w vouch) bool { return w.id == v.id && w.addr.Equal(v.addr) }) {
			p.vouched = append(p.vouched, v)
		}
	}
	if n := len(p.vouched) - maxVouched; n > 0 {
		p.vouched = append(p.vouched[:0], p.vouched[n:]...)
	}
}

// filter returns the addresses of as that may be dialled for id, in order;
// the others are counted, and named in the log the first time id gives
// one. where says where the addresses came from, for the log.
func (p *addrPolicy) filter(id peer.ID, as []ma.Multiaddr, where string) []ma.Multiaddr {
	var out []ma.Multiaddr
	var bad []ma.Multiaddr
	for _, a := range as {
		if p.allowed(id, a) {
			out = append(out, a)
		} else {
			bad = append(bad, a)
		}
	}
	p.refused(id, bad, where)
	return out
}

// refused counts addresses dropped for id and logs the first time id
// gives one (a stranger repeating itself must not flood the log).
func (p *addrPolicy) refused(id peer.ID, bad []ma.Multiaddr, where string) {
	if len(bad) == 0 {
		return
	}
	p.dropped.Add(uint64(len(bad)))
	p.mu.Lock()
	first := !p.warned[id] && len(p.warned) < maxWarned
	if first {
		p.warned[id] = true
	}
	p.mu.Unlock()
	if first {
		p.log.Warn("not dialling addresses a peer gave outside the LAN (only private, loopback and link-local IPs are dialled; further ones from this peer are dropped silently)",
			"peer", short(id), "from", where, "addrs", bad)
	}
}

// parse decodes addresses a peer sent for id (bad syntax is dropped: the
// decoders already refused messages that have any) and filters them.
func (p *addrPolicy) parse(id peer.ID, as []string, where string) []ma.Multiaddr {
	return p.filter(id, parseAddrs(as), where)
}

// errNoLookups is what the host's resolver answers every name with.
var errNoLookups = errors.New("p2p: not resolving a name a peer gave (only LAN IP addresses are dialled)")

// refusingResolver is the host's multiaddr resolver. libp2p's swarm
// resolves /dnsaddr and /dns* addresses of a peer before any gater sees
// the dial (swarm.addrsForDial, go-libp2p v0.52), so the only way to
// never look up a name a peer picked is to have nothing that looks up.
// What the user types is resolved by ResolveAddr before it reaches the
// host.
type refusingResolver struct{ pol *addrPolicy }

var _ network.MultiaddrDNSResolver = refusingResolver{}

func (r refusingResolver) ResolveDNSAddr(context.Context, peer.ID, ma.Multiaddr, int, int) ([]ma.Multiaddr, error) {
	r.pol.resolves.Add(1)
	return nil, errNoLookups
}

func (r refusingResolver) ResolveDNSComponent(context.Context, ma.Multiaddr, int) ([]ma.Multiaddr, error) {
	r.pol.resolves.Add(1)
	return nil, errNoLookups
}
