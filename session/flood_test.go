package session

import (
	"runtime"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"
	"aeroplane/ui"
)

// A flood of 20,000 forged adverts, each a peer creating a game, reaches
// the screen as a few lobby views (one per 200 ms of flood, not one per
// advert), none listing more than discovery's cap, and the names of the
// fakes are not kept once their adverts go.
func TestNetLobbyFloodFewViews(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	s := newNetTest(t, "victim")
	views, most := 0, 0
	read := make(chan struct{})
	stop := make(chan struct{})
	go func() {
		defer close(read)
		for {
			select {
			case e := <-s.Events():
				if u, ok := e.(ui.LobbyUpdate); ok {
					views++
					most = max(most, len(u.Players))
				}
			case <-stop:
				return
			}
		}
	}()
	const adverts = 20_000
	start := time.Now()
	p2ptest.FloodAdverts(t, adverts, 0)
	time.Sleep(time.Second) // the last views come out
	close(stop)
	<-read
	// Views come at most one per lobbyEvery, plus the one before the
	// flood and those of the expiry (a property of the pacing, measured
	// against the flood's length, whatever the machine's speed).
	limit := int(time.Since(start)/lobbyEvery) + 5
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d adverts: %d lobby views, at most %d players listed, heap in use %.1f MB", adverts, views, most, float64(ms.HeapInuse)/(1<<20))
	if most > p2p.DefaultMaxStrangers {
		t.Errorf("a view listed %d players (cap %d)", most, p2p.DefaultMaxStrangers)
	}
	if views > limit {
		t.Errorf("%d lobby views for %d adverts (at most %d)", views, adverts, limit)
	}
	s.mu.Lock()
	names := len(s.names) + len(s.heard)
	s.mu.Unlock()
	if names > p2p.DefaultMaxStrangers+1 {
		t.Errorf("%d names kept after the flood", names)
	}
}
