package p2ptest

import (
	"crypto/rand"
	"fmt"
	"net"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// FloodAdverts sends n multicast DNS answers for made-up peers, each
// creating a game (one answer each, every record discovery needs), to
// the mDNS group: one every every (0: as fast as 100 per 10 ms allows).
// Only ever inside a test's private network namespace.
func FloodAdverts(t testing.TB, n int, every time.Duration) {
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
	start := time.Now()
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
		switch {
		case every > 0:
			if d := time.Until(start.Add(time.Duration(i+1) * every)); d > 0 {
				time.Sleep(d)
			}
		case i%100 == 99:
			time.Sleep(10 * time.Millisecond)
		}
	}
}
