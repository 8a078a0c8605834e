package p2p

import (
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// What the packages above p2p (the lobby) need of it to speak for the
// network's rules: strikes against a peer, the log a peer's traffic may
// reach, and the address policy every address a peer names goes through.

// MaxAddrs is the most addresses one peer is told or believed about
// another (an advert's, a lobby message's).
const MaxAddrs = maxTXTAddrs

// Strike records a bad application message from p (the lobby's, say):
// strikes past the transport's limit disconnect p and refuse it a while.
func (t *Transport) Strike(p peer.ID, why string) { t.strike(p, why) }

// PeerLog wraps l in the transport's limiter on log lines a remote peer
// can cause (5 of a kind from one peer, then a count).
func (t *Transport) PeerLog(l *slog.Logger) *slog.Logger { return t.peerLog(l) }

// Advertisable is the addresses of addrs worth telling another peer: no
// loopback unless there is nothing else.
func Advertisable(addrs []ma.Multiaddr) []ma.Multiaddr { return advertisable(addrs) }

// PeerAddrs decodes the addresses a peer named for id and keeps those h
// may dial (the LAN filter of lanaddr.go); the others are dropped,
// counted and logged once per peer. where names the message, for the log.
func PeerAddrs(h host.Host, id peer.ID, as []string, where string) []ma.Multiaddr {
	return policyOf(h).parse(id, as, where)
}

// FilterPeerAddrs is PeerAddrs for addresses already decoded (from the
// peerstore, say, which identify may have filled).
func FilterPeerAddrs(h host.Host, id peer.ID, as []ma.Multiaddr, where string) []ma.Multiaddr {
	return policyOf(h).filter(id, as, where)
}

// ValidName reports whether s is a name as CleanName leaves it.
func ValidName(s string) bool { return validName(s) }

// ShortID is the one short form of a peer ID in log lines: its last 8
// characters (lockstep.ShortID is the same rule; p2p imports no game
// package, so it is written twice, one line each).
func ShortID(p peer.ID) string { return short(p) }

// parseAddrs decodes addresses, dropping any that do not parse.
func parseAddrs(as []string) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, a := range as {
		if m, err := ma.NewMultiaddr(a); err == nil {
			out = append(out, m)
		}
	}
	return out
}
