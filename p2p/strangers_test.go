package p2p

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
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

// floodTally is what one stranger's flood got: connections past the
// handshake, streams whose protocol was agreed, and watch streams
// answered.
type floodTally struct{ dialled, agreed, answered int }

// streamFlood has a stranger open connections (dial) under fresh
// identities, as fast as h lets it, and on each as many streams of proto
// as it can, one after another (a refused one does not stop it), holding
// them all, until ctx ends. On a watch stream it asks and reads the
// answer.
func streamFlood(ctx context.Context, proto string, dial func(context.Context) (network.MuxedConn, error)) floodTally {
	var held []network.MuxedConn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	var n floodTally
	for ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := dial(cctx)
		cancel()
		if err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		held = append(held, c)
		n.dialled++
		for range 256 {
			s, err := c.OpenStream(ctx)
			if err != nil {
				break
			}
			s.SetDeadline(time.Now().Add(time.Second))
			if err := multistream.SelectProtoOrFail(proto, s); err != nil {
				s.Reset() // refused: try again, as a flood would
				continue
			}
			n.agreed++
			if proto != WatchProtocolID {
				continue
			}
			if _, err := s.Write([]byte("what is on?")); err != nil || s.CloseWrite() != nil {
				s.Reset()
				continue
			}
			if b, _ := io.ReadAll(s); len(b) > 0 {
				n.answered++
			}
		}
	}
	return n
}

// While a game runs, strangers on four LAN addresses flood both players
// with connections under fresh identities and every stream each will
// take, two addresses of the game's protocol, two of the watch protocol
// (which the players serve). A stranger connected in the lobby keeps its
// connection (a watcher). The gaters keep the strangers to the watchers'
// room and rules: at most maxWatchersPerIP connections from an address at
// any time, no game stream adopted, and at most strangerBurst watch
// answers per connection. The players' clocks stand still during the
// flood, so no bucket refills and each address has floodLimit attempts in
// all: the bounds hold whatever the machine's speed. Every frame the
// players exchange arrives; their round trips are logged, with and
// without the flood. (Before the gater, the strangers opened 16,722
// streams on 76 connections, and the players' p99 was 44 ms.)
func TestStrangerStreamFloodDuringGame(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ips := []string{"10.88.0.1", "10.88.0.2", "10.88.1.1", "10.88.1.2", "10.88.1.3", "10.88.1.4"}
	lanOnLoopback(t, ips)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	var frozen atomic.Int64 // UnixNano the players' gaters read as now; 0: the clock
	players := make([]*Transport, 2)
	for i := range players {
		h := hostOn(t, net.ParseIP(ips[i]))
		h.(*gameHost).gater.now = func() time.Time {
			if f := frozen.Load(); f != 0 {
				return time.Unix(0, f)
			}
			return time.Now()
		}
		stop := ServeWatch(h, func(context.Context, peer.ID, []byte) []byte { return []byte("the game") })
		t.Cleanup(stop)
		players[i] = NewTransport(h, fastConfig(t))
		t.Cleanup(func() { players[i].Close() })
	}
	// A stranger that connected in the lobby, before the game: a watcher.
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
	time.Sleep(5 * fastConfig(t).Heartbeat) // maintain's ticks, which close strangers beyond the room
	if early.IsClosed() {
		t.Fatal("the watcher connected in the lobby lost its connection when the game began")
	}
	early.Close()

	quiet := roundTrips(t, players, 200)
	frozen.Store(time.Now().UnixNano())
	fctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var game, watch floodTally
	for i, ip := range ips[2:] {
		proto, tally := ProtocolID, &game
		if i >= 2 {
			proto, tally = WatchProtocolID, &watch
		}
		for _, p := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := streamFlood(fctx, proto, func(ctx context.Context) (network.MuxedConn, error) {
					return strangerConn(ctx, net.ParseIP(ip), p.Host())
				})
				mu.Lock()
				tally.dialled, tally.agreed, tally.answered = tally.dialled+n.dialled, tally.agreed+n.agreed, tally.answered+n.answered
				mu.Unlock()
			}()
		}
	}
	// The players' connections from one address, sampled through the flood.
	mostFromIP := 0
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for fctx.Err() == nil {
			for _, p := range players {
				perIP := map[netip.Addr]int{}
				for _, c := range p.Host().Network().Conns() {
					if id := c.RemotePeer(); id != ids[0] && id != ids[1] {
						ip, _ := connIP(c)
						perIP[ip]++
						mostFromIP = max(mostFromIP, perIP[ip])
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	time.Sleep(time.Second) // the flood under way
	flooded := roundTrips(t, players, 200)
	stop()
	wg.Wait()
	<-sampled
	var served, reset, admitted int64
	for _, p := range players {
		st := &p.Host().(*gameHost).gater.strangers
		served, reset, admitted = served+st.served.Load(), reset+st.reset.Load(), admitted+st.admitted.Load()
		for _, id := range p.Peers() {
			if id != ids[0] && id != ids[1] {
				t.Errorf("a stranger has a game stream to a player during the game")
			}
		}
	}
	t.Logf("round trips between the players: quiet p50 %v p99 %v; during the flood p50 %v p99 %v (%d frames each way)",
		quiet.p50, quiet.p99, flooded.p50, flooded.p99, flooded.n)
	t.Logf("strangers: game protocol %d connections, %d streams agreed; watch protocol %d connections, %d streams agreed, %d answered",
		game.dialled, game.agreed, watch.dialled, watch.agreed, watch.answered)
	t.Logf("gaters: %d stranger connections admitted, %d refused after Noise, most from one address %d; streams served %d, reset %d",
		admitted, refusedBy(players[0])+refusedBy(players[1]), mostFromIP, served, reset)
	// With the clock still, each address has floodLimit attempts on each
	// player, and each identity strangerBurst tokens.
	attempts := 4 * len(players) * floodLimit
	if admitted > int64(attempts) {
		t.Errorf("gaters admitted %d stranger connections: want at most %d", admitted, attempts)
	}
	if mostFromIP > maxWatchersPerIP {
		t.Errorf("a player held %d connections from one stranger's address: want at most %d", mostFromIP, maxWatchersPerIP)
	}
	if watch.answered == 0 || watch.answered > watch.dialled*strangerBurst {
		t.Errorf("strangers got %d watch answers on %d connections: want some, at most %d each", watch.answered, watch.dialled, strangerBurst)
	}
	if served > admitted*strangerBurst {
		t.Errorf("gaters served %d strangers' streams on %d connections: want at most %d each", served, admitted, strangerBurst)
	}
	// Each identity's streams reach the gater until its strikes run out
	// (strangerBurst + strangerStrikes + 1), and a few more that were on
	// their way when its ban closed the connection: not twice as many.
	if most := admitted * 2 * (strangerBurst + strangerStrikes + 1); served+reset > most {
		t.Errorf("gaters judged %d strangers' streams on %d connections: want at most %d", served+reset, admitted, most)
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
