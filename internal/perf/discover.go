package perf

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"sync"
	"time"

	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// DiscoveryReport is how long a new peer took to show up in the lists of
// the peers already there, from the moment it started advertising.
type DiscoveryReport struct {
	First []time.Duration // the first existing peer to list it
	All   []time.Duration // every existing peer lists it
}

// MeasureDiscovery runs existing peers with mDNS discovery on 127.0.0.1 and
// then, trials times, a new peer (a fresh identity, so it is new to them
// even while they still remember the previous one) until each of them
// lists it. Its host is built before the clock starts; the clock runs
// from p2p.StartDiscovery. It starts hosts and mDNS: call it only inside a
// private namespace (netlab.Enter).
func MeasureDiscovery(ctx context.Context, existing, trials int, cfg p2p.DiscoveryConfig) (DiscoveryReport, error) {
	var rep DiscoveryReport
	var olds []*p2p.Discovery
	defer func() {
		for _, d := range olds {
			d.Close()
		}
	}()
	for i := range existing {
		h, err := labHost()
		if err != nil {
			return rep, err
		}
		defer h.Close()
		d, err := p2p.StartDiscovery(h, p2p.Advert{Name: fmt.Sprintf("old%d", i)}, cfg)
		if err != nil {
			return rep, err
		}
		olds = append(olds, d)
	}
	for t := range trials {
		// Start at a random point of the others' announcement cycle.
		time.Sleep(time.Duration(mrand.Int64N(int64(400 * time.Millisecond))))
		h, err := labHost()
		if err != nil {
			return rep, err
		}
		start := time.Now()
		d, err := p2p.StartDiscovery(h, p2p.Advert{Name: fmt.Sprintf("new%d", t)}, cfg)
		if err != nil {
			h.Close()
			return rep, err
		}
		seen, err := waitListed(ctx, olds, h.ID(), start)
		d.Close()
		h.Close()
		if err != nil {
			return rep, err
		}
		first, all := seen[0], seen[0]
		for _, s := range seen {
			first, all = min(first, s), max(all, s)
		}
		rep.First = append(rep.First, first)
		rep.All = append(rep.All, all)
	}
	return rep, nil
}

// waitListed waits until every discovery lists id and returns when each did.
func waitListed(ctx context.Context, ds []*p2p.Discovery, id peer.ID, start time.Time) ([]time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out := make([]time.Duration, len(ds))
	errs := make([]error, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				for _, a := range d.Peers() {
					if a.ID == id {
						out[i] = time.Since(start)
						return
					}
				}
				select {
				case <-d.Changes():
				case <-ctx.Done():
					errs[i] = fmt.Errorf("perf: peer %d never listed the new peer: %w", i, ctx.Err())
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func labHost() (host.Host, error) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, err
	}
	return p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
}
