package p2p

import (
	"crypto/rand"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// mdnsFlooder answers for made-up peers: one multicast DNS response per
// fake peer ID, each with the PTR, SRV, TXT and A records discovery
// needs, sent to the mDNS group. It runs only inside a test namespace.
type mdnsFlooder struct {
	tb   testing.TB
	conn *net.UDPConn
	n    int
}

func newMDNSFlooder(tb testing.TB) *mdnsFlooder {
	tb.Helper()
	if !netlab.Inside() {
		tb.Fatal("the mDNS flood runs only inside a private network namespace")
	}
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return &mdnsFlooder{tb: tb, conn: c}
}

// fakePeer is a fresh peer ID nobody holds the key of.
func fakePeer(tb testing.TB) peer.ID {
	var b [32]byte
	_, _ = rand.Read(b[:])
	pub, err := crypto.UnmarshalEd25519PublicKey(b[:])
	if err != nil {
		tb.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// send advertises count made-up peers, pausing every 100 packets so the
// receivers' socket buffers are not simply overrun.
func (f *mdnsFlooder) send(count int) {
	for i := range count {
		f.n++
		id := fakePeer(f.tb)
		ad := Advert{Version: ProtocolVersion, ID: id, Name: fmt.Sprintf("fake%d", f.n),
			Addrs: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", 10000+f.n%50000))}}
		txt, err := EncodeTXT(ad)
		if err != nil {
			f.tb.Fatal(err)
		}
		inst := id.String() + "." + ServiceName + ".local."
		target := fmt.Sprintf("fake%d.local.", f.n)
		hdr := func(name string, t uint16) dns.RR_Header {
			return dns.RR_Header{Name: name, Rrtype: t, Class: dns.ClassINET, Ttl: 120}
		}
		m := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}}
		m.Answer = []dns.RR{&dns.PTR{Hdr: hdr(ServiceName+".local.", dns.TypePTR), Ptr: inst}}
		m.Extra = []dns.RR{
			&dns.SRV{Hdr: hdr(inst, dns.TypeSRV), Target: target, Port: uint16(10000 + f.n%50000)},
			&dns.TXT{Hdr: hdr(inst, dns.TypeTXT), Txt: txt},
			&dns.A{Hdr: hdr(target, dns.TypeA), A: net.IPv4(127, 0, 0, 1)},
		}
		b, err := m.Pack()
		if err != nil {
			f.tb.Fatal(err)
		}
		if _, err := f.conn.Write(b); err != nil {
			f.tb.Fatal(err)
		}
		if i%100 == 99 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestDiscoveryFloodStaysCapped floods a real discovery with 5,000 made-up
// peers' adverts: the list and the peerstore stay under the strangers'
// cap, the honest peer advertising all along stays listed, and once the
// flood is over the strangers' entries and addresses go.
func TestDiscoveryFloodStaysCapped(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	const maxStrangers = 64
	honest, victim := newTestHost(t), newTestHost(t)
	startTestDiscovery(t, honest, Advert{Name: "honest"})
	d, err := StartDiscovery(victim, Advert{Name: "victim"}, DiscoveryConfig{MaxStrangers: maxStrangers, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	waitPeers(t, d, "the honest peer", hasPeer(honest.ID(), nil))
	f := newMDNSFlooder(t)
	// A few own peerstore entries (self) are not strangers.
	limit := maxStrangers + 4
	most := 0
	for range 50 {
		f.send(100)
		ps, stored := d.Peers(), len(victim.Peerstore().Peers())
		most = max(most, len(ps))
		if len(ps) > maxStrangers+1 || stored > limit {
			t.Fatalf("after %d fake adverts: %d listed, %d in the peerstore (cap %d)", f.n, len(ps), stored, maxStrangers)
		}
	}
	if most < maxStrangers/2 {
		t.Fatalf("the flood never reached the table (at most %d listed): the test proves nothing", most)
	}
	waitPeers(t, d, "the honest peer after the flood", hasPeer(honest.ID(), nil))
	// Both at once: adverts still queued in the socket when the list
	// first shrinks (a loaded machine drains the flood late) are listed
	// and stored again, and expire in their turn.
	ps := waitPeers(t, d, "the fakes to expire from the list and the peerstore", func(ps []Advert) bool {
		return len(ps) == 1 && len(victim.Peerstore().Peers()) <= 4
	})
	if ps[0].ID != honest.ID() {
		t.Errorf("left listed: %v", ps)
	}
}

// BenchmarkDiscoveryFlood reports the heap in use after 20,000 made-up
// adverts reached a discovery with the default cap (heap-MB), and how many
// it lists then.
func BenchmarkDiscoveryFlood(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	for range b.N {
		b.StopTimer()
		h := newTestHost(b)
		d, err := StartDiscovery(h, Advert{Name: "victim"}, DiscoveryConfig{})
		if err != nil {
			b.Fatal(err)
		}
		f := newMDNSFlooder(b)
		b.StartTimer()
		f.send(20_000)
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		b.ReportMetric(float64(len(d.Peers())), "listed")
		b.ReportMetric(float64(len(h.Peerstore().Peers())), "peerstore")
		d.Close()
		_ = h.Close()
	}
}
