package session

import (
	"crypto/rand"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// floodMDNS sends n multicast DNS answers for made-up peers (one each,
// every record discovery needs) to the mDNS group: only ever inside a
// test's private network namespace.
func floodMDNS(t *testing.T, n int) {
	t.Helper()
	if !netlab.Inside() {
		t.Fatal("the mDNS flood runs only inside a private network namespace")
	}
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	hdr := func(name string, typ uint16) dns.RR_Header {
		return dns.RR_Header{Name: name, Rrtype: typ, Class: dns.ClassINET, Ttl: 120}
	}
	for i := range n {
		var k [32]byte
		_, _ = rand.Read(k[:])
		pub, _ := crypto.UnmarshalEd25519PublicKey(k[:])
		id, _ := peer.IDFromPublicKey(pub)
		port := 10000 + i%50000
		txt, err := p2p.EncodeTXT(p2p.Advert{Version: p2p.ProtocolVersion, ID: id, Name: fmt.Sprintf("fake%d", i),
			Lobby: fmt.Sprintf("game%d", i), Host: true, Free: 3, Taken: 1,
			Addrs: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port))}})
		if err != nil {
			t.Fatal(err)
		}
		inst, target := id.String()+"."+p2p.ServiceName+".local.", fmt.Sprintf("fake%d.local.", i)
		m := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}}
		m.Answer = []dns.RR{&dns.PTR{Hdr: hdr(p2p.ServiceName+".local.", dns.TypePTR), Ptr: inst}}
		m.Extra = []dns.RR{&dns.SRV{Hdr: hdr(inst, dns.TypeSRV), Target: target, Port: uint16(port)},
			&dns.TXT{Hdr: hdr(inst, dns.TypeTXT), Txt: txt}, &dns.A{Hdr: hdr(target, dns.TypeA), A: net.IPv4(127, 0, 0, 1)}}
		b, err := m.Pack()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
		if i%100 == 99 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// A flood of 20,000 forged adverts, each a peer creating a game, reaches
// the screen as a few lobby views (one per 200 ms of flood, not one per
// advert), none listing more than discovery's cap, and the names of the
// fakes are not kept once their adverts go.
func TestNetLobbyFloodFewViews(t *testing.T) {
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
	floodMDNS(t, adverts)
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
