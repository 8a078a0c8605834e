package e2e

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// soakPeer is one long-lived peer: host and transport stay up across games.
type soakPeer struct {
	key crypto.PrivKey
	t   *p2p.Transport
	dir string
}

// playSoakGame plays one 4-player bot game over the peers' transports,
// each peer driving its own p2p.Session with a durable log, and returns
// the history hash every peer agreed on.
func playSoakGame(t *testing.T, ps []*soakPeer, g int) ([32]byte, error) {
	var seats []lockstep.Seat
	for i, p := range ps {
		seats = append(seats, lockstep.Seat{Colour: engine.Colour(i), Player: p.t.Host().ID()})
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "soak", Seats: seats, Rules: engine.DefaultRules()}
	setup.Nonce[0], setup.Nonce[1] = byte(g), byte(g>>8)
	hashes := make([][32]byte, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for i, p := range ps {
		var ent [32]byte
		_, _ = rand.Read(ent[:])
		glog, _, err := p2p.OpenGameLog(filepath.Join(p.dir, fmt.Sprintf("game-%d.log", g)))
		if err != nil {
			return [32]byte{}, err
		}
		var sess *p2p.Session
		last := int64(-1)
		sess, err = p2p.NewSession(p.t, p2p.SessionConfig{Setup: setup, Key: p.key, Entropy: ent, Log: glog,
			Linger: 300 * time.Millisecond,
			OnReady: func(rd lockstep.Ready) {
				for _, ev := range rd.Events {
					if ev.Kind == lockstep.EventGameOver {
						hashes[i] = ev.History
					}
				}
				st := rd.State
				if st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 && int64(st.Roll) != last {
					last = int64(st.Roll)
					m := st.Moves[int(st.Roll)%len(st.Moves)]
					go sess.Do(func(n *lockstep.Node) error { return n.Choose(m) })
				}
			}})
		if err != nil {
			glog.Close()
			return [32]byte{}, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer glog.Close()
			st, err := sess.Run(ctx)
			if err == nil && st.Phase != lockstep.PhaseOver {
				err = fmt.Errorf("peer %d ended in phase %s", i, st.Phase)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i := range ps {
		if errs[i] != nil {
			return [32]byte{}, errs[i]
		}
		if hashes[i] != hashes[0] {
			return [32]byte{}, fmt.Errorf("game %d: peer %d history %x, peer 0 %x", g, i, hashes[i][:6], hashes[0][:6])
		}
	}
	return hashes[0], nil
}

// Four peers over real libp2p (loopback, inside the test's own namespace)
// play bot game after bot game without restarting: every game ends with
// one history, and goroutines and live heap stay flat. CI plays 3 games;
// -e2e.soak plays 300 and prints the series.
func TestSoakGamesInARow(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	games := 3
	if soak() {
		games = 300
	}
	var ps []*soakPeer
	for range 4 {
		key, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		h, err := p2p.NewHost(p2p.HostConfig{Identity: key, ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}})
		if err != nil {
			t.Fatal(err)
		}
		tr := p2p.NewTransport(h, p2p.TransportConfig{})
		t.Cleanup(func() { tr.Close(); h.Close() })
		ps = append(ps, &soakPeer{key: key, t: tr, dir: t.TempDir()})
	}
	for i, a := range ps {
		for _, b := range ps[i+1:] {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := a.t.Connect(ctx, p2p.AddrInfo(b.t.Host()))
			cancel()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	type sample struct {
		goroutines int
		heap       uint64
	}
	var series []sample
	start := time.Now()
	for g := range games {
		if _, err := playSoakGame(t, ps, g); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s := sample{runtime.NumGoroutine(), ms.HeapInuse}
		series = append(series, s)
		line := fmt.Sprintf("game %3d: goroutines=%d heap-in-use=%.1f MiB", g+1, s.goroutines, float64(s.heap)/(1<<20))
		if path := os.Getenv("AEROPLANE_E2E_SERIES"); path != "" {
			// The inner run's output shows only at its end: keep the series
			// readable while a long soak runs.
			if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintf(f, "%s %.1fs\n", line, time.Since(start).Seconds())
				f.Close()
			}
		}
		if g%10 == 0 || g == games-1 {
			t.Logf("game %3d: goroutines=%d heap-in-use=%.1f MiB (%.1fs per game)", g+1, s.goroutines, float64(s.heap)/(1<<20), time.Since(start).Seconds()/float64(g+1))
		}
	}
	// Flat: the last third is no higher than the first third, give or take
	// what a game in flight holds.
	third := max(1, games/3)
	maxG := func(ss []sample) (m int) {
		for _, s := range ss {
			m = max(m, s.goroutines)
		}
		return m
	}
	avgH := func(ss []sample) (sum uint64) {
		for _, s := range ss {
			sum += s.heap
		}
		return sum / uint64(len(ss))
	}
	early, late := series[:third], series[len(series)-third:]
	if maxG(late) > maxG(early)+8 {
		t.Errorf("goroutines grow: first games up to %d, last games up to %d", maxG(early), maxG(late))
	}
	if avgH(late) > avgH(early)*3/2+4<<20 {
		t.Errorf("live heap grows: %.1f MiB early, %.1f MiB late", float64(avgH(early))/(1<<20), float64(avgH(late))/(1<<20))
	}
}
