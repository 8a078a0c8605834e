package p2p

import (
	"net"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

func startTestDiscovery(t testing.TB, h host.Host, ad Advert) *Discovery {
	t.Helper()
	d, err := StartDiscovery(h, ad, DiscoveryConfig{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// waitPeers waits until cond holds for d's peer list.
func waitPeers(t testing.TB, d *Discovery, what string, cond func([]Advert) bool) []Advert {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		if ps := d.Peers(); cond(ps) {
			return ps
		}
		select {
		case <-d.Changes():
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s; peers: %v", what, d.Peers())
		}
	}
}

func hasPeer(id peer.ID, pred func(Advert) bool) func([]Advert) bool {
	return func(ps []Advert) bool {
		for _, p := range ps {
			if p.ID == id && (pred == nil || pred(p)) {
				return true
			}
		}
		return false
	}
}

func TestDiscoveryFindsUpdatesExpires(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	hs := []host.Host{newTestHost(t), newTestHost(t), newTestHost(t)}
	var ds []*Discovery
	for i, h := range hs {
		ds = append(ds, startTestDiscovery(t, h, Advert{Name: string(rune('A' + i))}))
	}
	for i, d := range ds {
		waitPeers(t, d, "both others", func(ps []Advert) bool { return len(ps) == 2 })
		for _, p := range d.Peers() {
			if p.ID == hs[i].ID() {
				t.Errorf("peer %d lists itself", i)
			}
			if len(p.Addrs) == 0 {
				t.Errorf("peer %d: advert of %s without addresses", i, p.ID)
			}
		}
	}
	if err := ds[0].Update(Advert{Name: "A", Lobby: "game one", Host: true, Free: 3}); err != nil {
		t.Fatal(err)
	}
	waitPeers(t, ds[1], "the new lobby", hasPeer(hs[0].ID(), func(a Advert) bool {
		return a.Lobby == "game one" && a.Host && a.Free == 3
	}))
	ds[2].Close()
	start := time.Now()
	waitPeers(t, ds[0], "peer 2 to expire", func(ps []Advert) bool { return !hasPeer(hs[2].ID(), nil)(ps) })
	t.Logf("expired after %v", time.Since(start))
}

// announceFake multicasts svc's records (an announcement) every 500 ms
// until the test ends, from an ephemeral port: a forger needs no more.
func announceFake(t testing.TB, svc *mdns.MDNSService) {
	t.Helper()
	if !netlab.Inside() {
		t.Fatal("fake adverts go out only inside a private network namespace")
	}
	c, err := net.DialUDP("udp4", nil, mdnsGroup)
	if err != nil {
		t.Fatal(err)
	}
	b, err := response(advertRecords(svc, 8, true)).Pack()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	t.Cleanup(func() { close(done); <-stopped; c.Close() })
	go func() {
		defer close(stopped)
		for {
			_, _ = c.Write(b)
			select {
			case <-done:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
}
