package p2p

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Re-dialling a game member that went away (a pulled cable, a crash).
//
// libp2p alone does not bring such a peer back soon enough. Its swarm puts
// every address that failed during the outage on a quadratic backoff (5 s,
// 6 s, 9 s, 14 s... up to 5 min, counted per failure), so after a cable
// is plugged back the next real dial can be tens of seconds away, while
// lockstep has already voted the player absent and the others are playing
// on. And the addresses themselves may leave the peerstore: discovery
// stops refreshing them while the peer is unreachable. So the transport
// keeps each member's last good addresses itself and re-dials them on its
// own short, capped backoff, bypassing the swarm's (ForceDirectDial): on a
// LAN a failed dial costs one SYN or one QUIC Initial.

// redialTTL is how long the remembered addresses are put back into the
// peerstore before each dial (and kept there if the dial succeeds).
const redialTTL = 10 * time.Minute

// maxRemembered bounds the addresses kept per member: a peer with a few
// interfaces has a handful; more means someone feeds us junk.
const maxRemembered = 16

// redialState is one away member's re-dial schedule.
type redialState struct {
	fails   int
	next    time.Time
	dialing bool
}

// redialDelay is the wait after fails failed dials: one heartbeat, doubled
// per failure, at most four heartbeats, so a returning peer is found
// within a few seconds of its cable going back in.
func (t *Transport) redialDelay(fails int) time.Duration {
	d := t.cfg.Heartbeat
	for i := 1; i < fails && d < 4*t.cfg.Heartbeat; i++ {
		d *= 2
	}
	return min(d, 4*t.cfg.Heartbeat)
}

// remember records the addresses p was reached at: the remote address of
// the connection we dialled (an inbound connection's remote port is an
// ephemeral one for TCP, not worth dialling) and what the peerstore knows.
// Called when p's stream comes up, so these are addresses that worked.
func (t *Transport) remember(p peer.ID, c network.Conn) {
	var addrs []ma.Multiaddr
	if c.Stat().Direction == network.DirOutbound {
		addrs = append(addrs, c.RemoteMultiaddr())
	}
	t.note(p, addrs)
	t.mu.Lock()
	delete(t.redial, p)
	t.mu.Unlock()
}

// note adds extra and p's addresses in the peerstore to the remembered
// ones. maintain calls it for every live link too: on the side that
// accepted the connection, identify fills the peerstore only after the
// stream came up.
func (t *Transport) note(p peer.ID, extra []ma.Multiaddr) {
	addrs := append(extra, t.h.Peerstore().Addrs(p)...)
	t.mu.Lock()
	defer t.mu.Unlock()
	addrs = ma.Unique(policyOf(t.h).filter(p, advertisable(append(addrs, t.known[p]...)), "peerstore"))
	if len(addrs) > maxRemembered {
		addrs = addrs[:maxRemembered]
	}
	if len(addrs) > 0 {
		t.known[p] = addrs
	}
}

// rememberedAddrs returns the addresses to dial p at: the ones remembered
// and whatever the peerstore learnt since (a new advert after a restart on
// another port), less any a peer gave that we must not dial (lanaddr.go):
// a re-dial every few seconds is the last place a stranger's address
// may go.
func (t *Transport) rememberedAddrs(p peer.ID) []ma.Multiaddr {
	t.mu.Lock()
	known := append([]ma.Multiaddr(nil), t.known[p]...)
	t.mu.Unlock()
	return ma.Unique(policyOf(t.h).filter(p, append(t.h.Peerstore().Addrs(p), known...), "re-dial"))
}

// redialAway dials, each on its own schedule, the members in away that
// have no connection at all. A member that is connected but has no stream
// is maybeOpen's business, not ours.
func (t *Transport) redialAway(away []peer.ID, now time.Time) {
	for _, id := range away {
		if t.h.Network().Connectedness(id) == network.Connected {
			continue
		}
		addrs := t.rememberedAddrs(id)
		if len(addrs) == 0 {
			continue
		}
		t.mu.Lock()
		st := t.redial[id]
		if st == nil {
			st = &redialState{}
			t.redial[id] = st
		}
		if st.dialing || now.Before(st.next) || t.closed {
			t.mu.Unlock()
			continue
		}
		st.dialing = true
		t.mu.Unlock()
		t.wg.Add(1)
		go t.redialOne(id, addrs)
	}
}

func (t *Transport) redialOne(id peer.ID, addrs []ma.Multiaddr) {
	defer t.wg.Done()
	// The peerstore may have dropped them (expired adverts); the swarm
	// dials only what the peerstore holds.
	t.h.Peerstore().AddAddrs(id, addrs, redialTTL)
	ctx, cancel := context.WithTimeout(t.ctx, 3*t.cfg.Heartbeat)
	defer cancel()
	ctx = network.WithForceDirectDial(ctx, "aeroplane: re-dialling a game member")
	err := t.h.Connect(ctx, peer.AddrInfo{ID: id, Addrs: addrs})
	t.mu.Lock()
	st := t.redial[id]
	if st != nil {
		st.dialing = false
		if err != nil {
			st.fails++
			st.next = time.Now().Add(t.redialDelay(st.fails))
		} else {
			st.fails = 0
		}
	}
	t.mu.Unlock()
	if err != nil {
		if st != nil && st.fails == 1 {
			t.log.Info("re-dialling a player who went away", "peer", short(id), "addrs", len(addrs), "err", err)
		} else {
			t.log.Debug("re-dial failed", "peer", short(id), "err", err)
		}
		return
	}
	t.log.Info("re-dialled a player who went away", "peer", short(id))
	t.maybeOpen(id)
}
