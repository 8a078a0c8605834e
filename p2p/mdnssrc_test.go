package p2p

import (
	"net"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// Our mDNS packets on loopback carry 127.0.0.1 as their source. Linux
// picks a multicast packet's source among the interface's addresses of
// link scope or wider, and 127.0.0.1 has host scope: left to the kernel,
// every packet on lo leaves from 0.0.0.0, and a standard responder
// (avahi) drops such a packet, so peers and responders on one machine
// never heard each other's queries.
func TestMDNSOnLoopbackComesFrom127(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	sn := newSniffer(t)
	h := newTestHost(t)
	inst := instanceFQDN(h.ID().String())
	start := time.Now()
	startTestDiscovery(t, h, Advert{Name: "A"})
	for _, m := range append(sn.waitMsgs(t, "announcement", start, 1, about(inst, false)),
		sn.waitMsgs(t, "query", start, 1, isQuery)...) {
		if !m.from.IP.Equal(net.IPv4(127, 0, 0, 1)) || m.from.Port != mdnsGroup.Port {
			t.Errorf("our mDNS message on lo came from %v, want 127.0.0.1:%d", m.from, mdnsGroup.Port)
		}
	}
}
