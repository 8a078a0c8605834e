package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/multiformats/go-multistream"
)

// strangerConn opens, from the local address from, a libp2p connection to
// h as a fresh stranger would (TCP, Noise under a new key, yamux) and
// keeps it open without a word more: it holds one of h's inbound
// connection slots until it is closed.
func strangerConn(ctx context.Context, from net.IP, h host.Host) (network.MuxedConn, error) {
	var to string
	for _, a := range h.Addrs() {
		if na, err := manet.ToNetAddr(a); err == nil {
			if _, ok := na.(*net.TCPAddr); ok {
				to = na.String()
			}
		}
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: from}}
	c, err := d.DialContext(ctx, "tcp4", to)
	if err != nil {
		return nil, err
	}
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		c.Close()
		return nil, err
	}
	tr, err := noise.New(noise.ID, key, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := multistream.SelectProtoOrFail(noise.ID, c); err != nil {
		c.Close()
		return nil, err
	}
	sc, err := tr.SecureOutbound(ctx, c, h.ID())
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := multistream.SelectProtoOrFail(yamux.ID, sc); err != nil {
		sc.Close()
		return nil, err
	}
	return yamux.DefaultTransport.NewConn(sc, false, nil)
}

// inboundConns is how many inbound connections h's resource manager
// counts in its ordinary (not allowlisted) room.
func inboundConns(t *testing.T, h host.Host) int {
	n := 0
	err := h.Network().ResourceManager().ViewSystem(func(s network.ResourceScope) error {
		n = s.Stat().NumConnsInbound
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// tableOnLoopback gives this namespace's loopback two players' addresses
// and 9 strangers' (10.88.1.1-9), and returns the two players, each
// listening on its own address and sending from it.
func tableOnLoopback(t *testing.T) (players []*Transport, strangers []net.IP) {
	t.Helper()
	ips := []string{"10.88.0.1", "10.88.0.2"}
	for i := 1; i <= 9; i++ {
		ips = append(ips, fmt.Sprintf("10.88.1.%d", i))
	}
	ipCmds := [][]string{
		// The two players' own addresses are on this one namespace's
		// loopback, so the kernel would send each from the address it
		// goes to; as on a LAN, each player must come from its own.
		{"route", "replace", "local", ips[0], "dev", "lo", "table", "local", "src", ips[1]},
		{"route", "replace", "local", ips[1], "dev", "lo", "table", "local", "src", ips[0]},
	}
	for _, ip := range ips {
		ipCmds = append([][]string{{"addr", "replace", ip + "/32", "dev", "lo"}}, ipCmds...)
	}
	for _, args := range ipCmds {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	players = []*Transport{
		NewTransport(hostOn(t, net.ParseIP(ips[0])), fastConfig(t)),
		NewTransport(hostOn(t, net.ParseIP(ips[1])), fastConfig(t)),
	}
	for _, p := range players {
		t.Cleanup(func() { p.Close() })
	}
	for _, ip := range ips[2:] {
		strangers = append(strangers, net.ParseIP(ip))
	}
	return players, strangers
}

// playersMeet makes the two players members of one game (as the lobby
// does when it ends: each knows the other's addresses), and waits until
// they are connected and each has had a game frame from the other. It
// fails t if that takes longer than within.
func playersMeet(t *testing.T, players []*Transport, within time.Duration) {
	t.Helper()
	ids := []peer.ID{players[0].Host().ID(), players[1].Host().ID()}
	for i, p := range players {
		o := players[1-i].Host()
		p.Host().Peerstore().AddAddrs(o.ID(), o.Addrs(), peerstore.PermanentAddrTTL)
		p.SetMembers(ids)
	}
	guard := time.After(within)
	for !players[0].Connected(ids[1]) || !players[1].Connected(ids[0]) {
		select {
		case <-guard:
			t.Fatal("the players never connected while strangers held every slot")
		case <-time.After(10 * time.Millisecond):
		}
	}
	for i, p := range players {
		msg := []byte(fmt.Sprintf("frame from player %d", i))
		if err := p.Send(ids[1-i], KindGame, msg); err != nil {
			t.Fatal(err)
		}
		if in := recvInbound(t, players[1-i]); in.From != ids[i] || !bytes.Equal(in.Data, msg) {
			t.Fatalf("player %d got %q from %s, want %q from %s", 1-i, in.Data, in.From, msg, ids[i])
		}
	}
}

// Strangers on 9 LAN addresses, 8 connections each, take every inbound
// connection slot of both players of a table and keep them. The players
// still connect to each other and play frames: the table has room of its
// own. (Before it had, they never connected while the strangers stayed.)
// Once they are members (a game runs), the strangers are cut down to the
// watchers' room: MaxWatchers connections, at most maxWatchersPerIP from
// one address.
func TestMembersConnectWhileStrangersHoldEverySlot(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	players, strangerIPs := tableOnLoopback(t)
	slots := gameLimits().ToPartialLimitConfig().System.ConnsInbound
	strangers := make([][]network.MuxedConn, len(players))
	for i, p := range players {
		held := 0
		for _, ip := range strangerIPs {
			for range 8 {
				c, err := strangerConn(ctx, ip, p.Host())
				if err != nil {
					continue // refused: the slots are taken
				}
				t.Cleanup(func() { c.Close() })
				strangers[i] = append(strangers[i], c)
				held++
			}
		}
		for inboundConns(t, p.Host()) < int(slots) {
			if ctx.Err() != nil {
				t.Fatalf("strangers hold %d of %d slots", inboundConns(t, p.Host()), slots)
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("%s: strangers opened %d connections, hold %d slots of %d", short(p.Host().ID()), held, inboundConns(t, p.Host()), slots)
	}
	// Well inside the 30 s for which the connection manager keeps the
	// strangers' connections: the players must connect past them, not
	// after them.
	playersMeet(t, players, 20*time.Second)
	// And once the game runs, the strangers keep only the watchers' room.
	ids := []peer.ID{players[0].Host().ID(), players[1].Host().ID()}
	guard := time.After(20 * time.Second)
	for i, p := range players {
		for {
			open := 0
			for _, c := range strangers[i] {
				if !c.IsClosed() {
					open++
				}
			}
			perIP := map[string]int{}
			for _, c := range p.Host().Network().Conns() {
				if id := c.RemotePeer(); id != ids[0] && id != ids[1] {
					ip, _ := connIP(c)
					perIP[ip.String()]++
				}
			}
			held := 0
			for ip, n := range perIP {
				held += n
				if n > maxWatchersPerIP {
					t.Errorf("player %d keeps %d connections of strangers from %s during the game: want at most %d", i, n, ip, maxWatchersPerIP)
				}
			}
			if open == MaxWatchers && held == MaxWatchers {
				t.Logf("player %d: strangers keep %d connections of %d during the game", i, held, len(strangers[i]))
				break
			}
			select {
			case <-guard:
				t.Fatalf("player %d: strangers still hold %d connections (%d open on their side) during the game: want %d", i, held, open, MaxWatchers)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}

// halfOpen opens, from from, a TCP connection to h that stops inside the
// handshake where stall says, and keeps it open: the gater's
// InterceptSecured never sees it, so SetMembers cannot cut it.
type halfOpen func(ctx context.Context, from net.IP, h host.Host) (net.Conn, error)

// silentTCP says nothing at all after the TCP handshake.
func silentTCP(ctx context.Context, from net.IP, h host.Host) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: from}}
	return d.DialContext(ctx, "tcp4", tcpAddrOf(h))
}

// stalledNoise picks Noise with multistream, then never sends Noise's
// first message.
func stalledNoise(ctx context.Context, from net.IP, h host.Host) (net.Conn, error) {
	c, err := silentTCP(ctx, from, h)
	if err != nil {
		return nil, err
	}
	if err := multistream.SelectProtoOrFail(noise.ID, c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func tcpAddrOf(h host.Host) string {
	for _, a := range h.Addrs() {
		if na, err := manet.ToNetAddr(a); err == nil {
			if _, ok := na.(*net.TCPAddr); ok {
				return na.String()
			}
		}
	}
	return ""
}

// transientInbound is how many inbound connections h's resource manager
// counts as still in their handshake, in its ordinary room.
func transientInbound(t *testing.T, h host.Host) int {
	n := 0
	err := h.Network().ResourceManager().ViewTransient(func(s network.ResourceScope) error {
		n = s.Stat().NumConnsInbound
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Strangers on 9 LAN addresses hold every handshake slot of both players
// with connections that never finish the handshake (silent after TCP, or
// stalled inside Noise), and open a new one whenever one of theirs is
// closed. The gater never sees such a connection (Noise names no one),
// so SetMembers cannot cut it; the players still connect and exchange
// game frames, at once: the reserved room (reserve.go) takes them in.
func TestMembersConnectWhileStrangersStallInHandshake(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	for _, c := range []struct {
		name  string
		stall halfOpen
	}{
		{"silent after TCP", silentTCP},
		{"stalled in Noise", stalledNoise},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			players, strangerIPs := tableOnLoopback(t)
			slots := int(gameLimits().ToPartialLimitConfig().Transient.ConnsInbound)
			var wg sync.WaitGroup
			t.Cleanup(func() { cancel(); wg.Wait() })
			var opened atomic.Int64
			for _, p := range players {
				for _, ip := range strangerIPs {
					for range 8 {
						wg.Go(func() { holdHalfOpen(ctx, c.stall, ip, p.Host(), &opened) })
					}
				}
				deadline := time.Now().Add(20 * time.Second)
				for transientInbound(t, p.Host()) < slots {
					if time.Now().After(deadline) {
						t.Fatalf("strangers hold %d of %d handshake slots", transientInbound(t, p.Host()), slots)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			for _, p := range players {
				t.Logf("%s: strangers hold %d of %d handshake slots", short(p.Host().ID()), transientInbound(t, p.Host()), slots)
			}
			// Well inside the 15 s libp2p gives an inbound connection to
			// finish its handshake: after it, the strangers' slots come
			// free now and then, and the players could connect after
			// them, not past them (without the room, they took 15 s).
			playersMeet(t, players, 10*time.Second)
			t.Logf("strangers opened %d half-open connections", opened.Load())
		})
	}
}

// holdHalfOpen keeps one half-open connection from ip to h until ctx
// ends, opening a new one (after a short pause) whenever h closes it.
func holdHalfOpen(ctx context.Context, stall halfOpen, ip net.IP, h host.Host, opened *atomic.Int64) {
	for ctx.Err() == nil {
		c, err := stall(ctx, ip, h)
		if err == nil {
			opened.Add(1)
			stop := context.AfterFunc(ctx, func() { c.Close() })
			_, _ = io.Copy(io.Discard, c) // until h closes it
			stop()
			c.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Loopback is not exempt from the per-address limit: connections from
// 127.0.0.1 beyond loopbackConns are refused, though the host has room
// for more from other addresses. (libp2p's default let all 64 in.)
func TestLoopbackConnectionsAreCounted(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	h := newTestHost(t)
	held := 0
	for range loopbackConns + 8 {
		c, err := strangerConn(ctx, net.IPv4(127, 0, 0, 1), h)
		if err != nil {
			continue
		}
		t.Cleanup(func() { c.Close() })
		held++
	}
	// The resource manager refuses before the handshake, so a refused
	// connection fails in strangerConn.
	if n := inboundConns(t, h); n != loopbackConns || held != loopbackConns {
		t.Errorf("opened %d connections from loopback, the host holds %d: want %d", held, n, loopbackConns)
	}
}
