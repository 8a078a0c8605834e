package p2p

import (
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Keeping room for the table.
//
// The resource manager has room for 64 inbound connections (32 of them
// still in their handshake), at most 8 from one address. Strangers on 8
// or 9 LAN addresses can hold all of it, for as long as they like, and
// the table's own players could then never connect again. So the
// game's players (SetMembers) have room of their own: the resource
// manager's allowlisted scopes, as large again, which a connection enters
// only when the ordinary room is full and it comes from an IP a member has
// (an address it gave that we dial, or one it is connected from), and
// which it keeps past the handshake only if Noise proved it is that
// member. A stranger cannot use it unless it shares a member's IP, and it
// takes nothing from anyone while the ordinary room has space.
//
// Once a game runs, the gater cuts every stranger whose connection Noise
// has named (SetMembers), but a connection still in its handshake names
// no one: strangers can keep all 32 handshake slots with connections
// that never finish (libp2p closes one after 15 s; they open another).
// Against those the room is what lets the players in.
//
// The per-address limits come before the allowlist: a member is counted
// against its own IP only, which strangers on other addresses cannot
// fill. The room is for connections only: libp2p counts every stream,
// and the 256 KiB yamux reserves for each, in the shared transient and
// system scopes whatever the connection's. Streams are kept for the
// players otherwise: while a game runs, the gater admits at most
// MaxWatchers strangers' connections and bounds the streams on each
// (SetMembers, gater.go, watchers.go).

// allowlistOf returns h's resource manager's allowlist, or nil if it has
// none.
func allowlistOf(h host.Host) *rcmgr.Allowlist {
	if g, ok := h.(*gameHost); ok {
		return g.allow
	}
	return rcmgr.GetAllowlist(h.Network().ResourceManager())
}

// reserveMembers makes the allowlist hold exactly /ipN/IP/p2p/ID for every
// member and every IP it has: addresses it gave that we would dial, and
// the remote addresses of its live connections. Called when the members
// change and every heartbeat, as members' addresses are learnt (identify
// after the game starts, a re-dial).
func (t *Transport) reserveMembers() {
	al := allowlistOf(t.h)
	if al == nil {
		return
	}
	t.mu.Lock()
	ids := make([]peer.ID, 0, len(t.members))
	for id := range t.members {
		ids = append(ids, id)
	}
	closed := t.closed
	t.mu.Unlock()
	want := map[string]ma.Multiaddr{}
	if !closed {
		for _, id := range ids {
			addrs := t.rememberedAddrs(id)
			for _, c := range t.h.Network().ConnsToPeer(id) {
				addrs = append(addrs, c.RemoteMultiaddr())
			}
			p2pc, err := ma.NewComponent("p2p", id.String())
			if err != nil {
				continue
			}
			for _, a := range addrs {
				ip, err := manet.ToIP(a)
				if err != nil {
					continue
				}
				ipm, err := manet.FromIP(ip)
				if err != nil {
					continue
				}
				e := append(ipm, *p2pc)
				want[e.String()] = e
			}
		}
	}
	t.resMu.Lock()
	defer t.resMu.Unlock()
	for k, e := range t.reserved {
		if _, ok := want[k]; !ok {
			if err := al.Remove(e); err == nil {
				delete(t.reserved, k)
			}
		}
	}
	for k, e := range want {
		if _, ok := t.reserved[k]; ok {
			continue
		}
		if err := al.Add(e); err != nil {
			t.log.Debug("cannot keep room for a player", "entry", k, "err", err)
			continue
		}
		t.reserved[k] = e
	}
}
