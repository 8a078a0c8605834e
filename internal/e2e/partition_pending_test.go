//go:build e2epending

package e2e

// This scenario fails today and is kept out of the default run with a build
// tag (not a skip): after a 10 s cable cut the cut peer logs the others down
// and never reconnects, so it never finishes; the other three vote it absent
// and go on. Suspected cause, not yet proven: libp2p's dial backoff on the
// addresses that failed during the cut, or the peer's addresses leaving the
// peerstore while mDNS adverts expire (p2p/transport.go maintain). Run it
// with: go test -tags e2epending ./internal/e2e -run TestPartitionLinkDown10s

import (
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// One peer's cable is pulled for 10 s mid-game and plugged back: the game
// goes on without it, it comes back, and all four finish with one history.
func TestPartitionLinkDown10s(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 4)
	ps := startGame(t, lan, 4, "partition", "--think", "20ms")
	cut := ps[2]
	short := shortID(cut.id())
	cut.mustLog(midGame, 2*time.Minute)
	lan.LinkDown(cut.i)
	time.Sleep(10 * time.Second)
	lan.LinkUp(cut.i)
	if _, err := ps[0].waitLog(absentLine(short), 0); err == nil {
		t.Logf("peer 0 voted the cut peer absent while its cable was out")
	} else {
		t.Logf("peer 0 waited for the cut peer without voting it absent (it was choosing a move: %v)", isChoosing(cut.stderr.String()))
	}
	finishEqual(t, ps, 4, 3*time.Minute)
	for _, p := range ps {
		t.Logf("peer %d: %s", p.i, summary(p.stderr.String()))
	}
}
