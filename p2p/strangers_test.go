package p2p

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multistream"
)

// lanOnLoopback puts ips on this namespace's loopback; the first two are
// two players', each sending from its own address to the other, as on a
// LAN (the kernel would send from the address a packet goes to).
func lanOnLoopback(t *testing.T, ips []string) {
	t.Helper()
	cmds := [][]string{}
	for _, ip := range ips {
		cmds = append(cmds, []string{"addr", "add", ip + "/32", "dev", "lo"})
	}
	cmds = append(cmds,
		[]string{"route", "replace", "local", ips[0], "dev", "lo", "table", "local", "src", ips[1]},
		[]string{"route", "replace", "local", ips[1], "dev", "lo", "table", "local", "src", ips[0]})
	for _, args := range cmds {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
}

// streamFlood has a stranger open connections (dial) under fresh
// identities, as fast as h lets it, and on each as many streams of the
// game's protocol as it can, holding them all, until ctx ends. It
// returns the connections that got past the handshake and the streams
// that got the protocol agreed.
func streamFlood(ctx context.Context, dial func(context.Context) (network.MuxedConn, error)) (conns, streams int) {
	var held []network.MuxedConn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := dial(cctx)
		cancel()
		if err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		held = append(held, c)
		agreed := 0
		for range 256 {
			s, err := c.OpenStream(ctx)
			if err != nil {
				break
			}
			s.SetDeadline(time.Now().Add(time.Second))
			if err := multistream.SelectProtoOrFail(ProtocolID, s); err != nil {
				s.Reset()
				break
			}
			agreed++
		}
		if agreed > 0 {
			conns++
			streams += agreed
		}
	}
	return conns, streams
}

// While a game runs, strangers on four LAN addresses flood both players
// with connections under fresh identities and every stream each will
// take. The players' gaters refuse them once Noise names them (and a
// stranger connected before the game is cut off when it starts), so no
// stranger gets a single stream of the game's protocol, and every frame
// the players exchange arrives. Before, the strangers opened thousands
// of streams on the players, counted in the scopes the players' own
// streams share. The frames' round trips are logged, with and without
// the flood.
func TestStrangerStreamFloodDuringGame(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	ips := []string{"10.88.0.1", "10.88.0.2", "10.88.1.1", "10.88.1.2", "10.88.1.3", "10.88.1.4"}
	lanOnLoopback(t, ips)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	players := []*Transport{
		NewTransport(hostOn(t, net.ParseIP(ips[0])), fastConfig(t)),
		NewTransport(hostOn(t, net.ParseIP(ips[1])), fastConfig(t)),
	}
	for _, p := range players {
		t.Cleanup(func() { p.Close() })
	}
	// A stranger that connected in the lobby, before the game.
	early, err := strangerConn(ctx, net.ParseIP(ips[2]), players[0].Host())
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()
	connectPair(t, players[0], players[1])
	ids := []peer.ID{players[0].Host().ID(), players[1].Host().ID()}
	for _, p := range players {
		p.SetMembers(ids)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !early.IsClosed() {
		if time.Now().After(deadline) {
			t.Fatal("the stranger connected before the game still has its connection during it")
		}
		time.Sleep(10 * time.Millisecond)
	}

	quiet := roundTrips(t, players, 200)
	fctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var conns, streams atomic.Int64
	for _, ip := range ips[2:] {
		for _, p := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, s := streamFlood(fctx, func(ctx context.Context) (network.MuxedConn, error) {
					return strangerConn(ctx, net.ParseIP(ip), p.Host())
				})
				conns.Add(int64(c))
				streams.Add(int64(s))
			}()
		}
	}
	time.Sleep(time.Second) // the flood under way
	flooded := roundTrips(t, players, 200)
	stop()
	wg.Wait()
	t.Logf("round trips between the players: quiet p50 %v p99 %v; during the flood p50 %v p99 %v (%d frames each way)",
		quiet.p50, quiet.p99, flooded.p50, flooded.p99, flooded.n)
	t.Logf("strangers: %d connections with a stream, %d streams of %s; gaters refused %d connections after Noise",
		conns.Load(), streams.Load(), ProtocolID, refusedBy(players[0])+refusedBy(players[1]))
	if conns.Load() != 0 || streams.Load() != 0 {
		t.Errorf("strangers opened %d streams on %d connections to the players during the game: want none", streams.Load(), conns.Load())
	}
}

func refusedBy(p *Transport) int64 { return p.Host().(*gameHost).gater.strangersRefused.Load() }

type tripStats struct {
	n        int
	p50, p99 time.Duration
}

// roundTrips has player 0 send n numbered game frames to player 1, which
// echoes each; all must come back, in order. It returns their round
// trips.
func roundTrips(t *testing.T, players []*Transport, n int) tripStats {
	t.Helper()
	a, b := players[0], players[1]
	done := make(chan error, 1)
	go func() {
		for i := range n {
			select {
			case in := <-b.Inbox():
				if got := binary.BigEndian.Uint32(in.Data); int(got) != i {
					done <- fmt.Errorf("player 1 got frame %d, want %d", got, i)
					return
				}
				if err := b.Send(in.From, KindGame, in.Data); err != nil {
					done <- err
					return
				}
			case <-time.After(10 * time.Second):
				done <- fmt.Errorf("player 1 got %d frames of %d", i, n)
				return
			}
		}
		done <- nil
	}()
	trips := make([]time.Duration, 0, n)
	for i := range n {
		msg := binary.BigEndian.AppendUint32(nil, uint32(i))
		sent := time.Now()
		if err := a.Send(b.Host().ID(), KindGame, msg); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		in := recvInbound(t, a)
		if got := binary.BigEndian.Uint32(in.Data); int(got) != i {
			t.Fatalf("player 0 got echo %d, want %d", got, i)
		}
		trips = append(trips, time.Since(sent))
		time.Sleep(2 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	slices.Sort(trips)
	return tripStats{n: n, p50: trips[n/2], p99: trips[n*99/100]}
}
