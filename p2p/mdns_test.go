package p2p

import (
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// heardMsg is one mDNS message a sniffer caught.
type heardMsg struct {
	at   time.Time
	from *net.UDPAddr
	msg  *dns.Msg
}

// sniffer listens to the mDNS group on lo (the test namespace's only
// interface) and keeps every message; it can also send, from port 5353.
type sniffer struct {
	conn *net.UDPConn
	mu   sync.Mutex
	msgs []heardMsg
}

func newSniffer(t testing.TB) *sniffer {
	t.Helper()
	if !netlab.Inside() {
		t.Fatal("the mDNS sniffer runs only inside a private network namespace")
	}
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	c, err := listenMDNS(lo)
	if err != nil {
		t.Fatal(err)
	}
	s := &sniffer{conn: c}
	done := make(chan struct{})
	t.Cleanup(func() { c.Close(); <-done })
	go func() {
		defer close(done)
		buf := make([]byte, 65536)
		for {
			n, from, err := c.ReadFromUDP(buf)
			if err != nil {
				return
			}
			m := new(dns.Msg)
			if m.Unpack(buf[:n]) != nil {
				continue
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, heardMsg{at: time.Now(), from: from, msg: m})
			s.mu.Unlock()
		}
	}()
	return s
}

// since returns the messages caught after t that match.
func (s *sniffer) since(t time.Time, match func(*dns.Msg) bool) []heardMsg {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []heardMsg
	for _, h := range s.msgs {
		if h.at.After(t) && match(h.msg) {
			out = append(out, h)
		}
	}
	return out
}

func (s *sniffer) send(t testing.TB, m *dns.Msg) {
	t.Helper()
	b, err := m.Pack()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.conn.WriteToUDP(b, mdnsGroup); err != nil {
		t.Fatal(err)
	}
}

// isQuery, and about: a response carrying records of instance, with
// TTL 0 (goodbye) or not.
func isQuery(m *dns.Msg) bool { return !m.Response }

func about(instance string, goodbye bool) func(*dns.Msg) bool {
	return func(m *dns.Msg) bool {
		if !m.Response {
			return false
		}
		for _, rr := range m.Answer {
			if p, ok := rr.(*dns.PTR); ok && p.Ptr == instance && (rr.Header().Ttl == 0) == goodbye {
				return true
			}
		}
		return false
	}
}

// waitMsgs waits until the sniffer has caught n messages after t that
// match, and returns them.
func (s *sniffer) waitMsgs(t testing.TB, what string, after time.Time, n int, match func(*dns.Msg) bool) []heardMsg {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if got := s.since(after, match); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s: caught %d", what, len(s.since(after, match)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDiscoveryAnnouncesAndSaysGoodbye: a peer announces its records on
// start (no query needed to find it), again on a change of advert, and
// multicasts them with TTL 0 when it closes, so the others drop it at once
// (RFC 6762 §8.3, §8.4, §10.1).
func TestDiscoveryAnnouncesAndSaysGoodbye(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	sn := newSniffer(t)
	h := newTestHost(t)
	inst := instanceFQDN(h.ID().String())
	start := time.Now()
	d := startTestDiscovery(t, h, Advert{Name: "A"})
	first := sn.waitMsgs(t, "announcement on start", start, 1, about(inst, false))[0]
	if q := sn.since(start, isQuery); len(q) > 0 && q[0].at.Before(first.at) {
		t.Log("the first query went before the announcement")
	}
	if err := d.Update(Advert{Name: "A", Lobby: "new game", Host: true, Free: 3}); err != nil {
		t.Fatal(err)
	}
	changed := time.Now()
	sn.waitMsgs(t, "announcement of the change", changed, 1, func(m *dns.Msg) bool {
		return about(inst, false)(m) && slices.ContainsFunc(m.Answer, func(rr dns.RR) bool {
			txt, ok := rr.(*dns.TXT)
			return ok && slices.Contains(txt.Txt, "l=new game")
		})
	})
	closed := time.Now()
	d.Close()
	bye := sn.waitMsgs(t, "goodbye", closed, 1, about(inst, true))[0]
	for _, rr := range bye.msg.Answer {
		if rr.Header().Ttl != 0 {
			t.Errorf("goodbye with a record of TTL %d: %v", rr.Header().Ttl, rr)
		}
	}
}

// TestDiscoveryQueriesBackOff: one peer alone asks at about 1 s, 2 s, 4 s
// (RFC 6762 §5.2), never twice within a second, and each query names its
// own record as a known answer (so it does not answer itself).
func TestDiscoveryQueriesBackOff(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	sn := newSniffer(t)
	h := newTestHost(t)
	start := time.Now()
	// A TTL of a minute: after the two on start, the next announcement
	// is 15 s away, so any response in between would be an answer.
	d, err := StartDiscovery(h, Advert{Name: "alone"}, DiscoveryConfig{Expire: time.Minute, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	sn.waitMsgs(t, "four queries", start, 4, isQuery)
	time.Sleep(2 * time.Second)
	qs := sn.since(start, isQuery)
	if len(qs) > 5 {
		t.Errorf("%d queries in %v alone", len(qs), time.Since(start))
	}
	for i := 2; i < len(qs); i++ {
		prev, gap := qs[i-1].at.Sub(qs[i-2].at), qs[i].at.Sub(qs[i-1].at)
		if gap < 900*time.Millisecond || gap < prev*3/2 {
			t.Errorf("query %d came %v after the one before, which came %v after its own: no back-off", i, gap, prev)
		}
	}
	for _, q := range qs {
		if !knownAnswer(q.msg.Answer, knownPTR(instanceFQDN(h.ID().String()), time.Minute)) {
			t.Errorf("a query without our own record as a known answer: %v", q.msg)
		}
	}
	if n := len(sn.since(start, about(instanceFQDN(h.ID().String()), false))); n > 2 {
		t.Errorf("the peer answered its own queries: %d responses beside its two announcements", n-2)
	}
}

// TestDiscoveryKnownAnswerAndRateLimit: a query naming our record as a
// known answer with most of its TTL left gets no answer (RFC 6762 §7.1);
// one that does not gets a multicast answer; a burst of such queries gets
// at most one answer a second (§6).
func TestDiscoveryKnownAnswerAndRateLimit(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	sn := newSniffer(t)
	h := newTestHost(t)
	inst := instanceFQDN(h.ID().String())
	// A TTL of 10 minutes: the periodic announcements (every 150 s) stay
	// out of the way.
	d, err := StartDiscovery(h, Advert{Name: "A"}, DiscoveryConfig{Expire: 10 * time.Minute, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	sn.waitMsgs(t, "the second announcement", time.Time{}, 2, about(inst, false))
	time.Sleep(1100 * time.Millisecond)
	cases := []struct {
		name    string
		known   []dns.RR
		queries int
		least   int
		most    int
	}{
		{"known answer with its whole TTL", []dns.RR{knownPTR(inst, 10*time.Minute)}, 1, 0, 0},
		{"known answer with more than half left", []dns.RR{knownPTR(inst, 301*time.Second)}, 1, 0, 0},
		{"known answer with less than half left", []dns.RR{knownPTR(inst, 200*time.Second)}, 1, 1, 1},
		{"no known answer", nil, 1, 1, 1},
		{"a burst of 20 queries in 2 s", nil, 20, 1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			time.Sleep(1100 * time.Millisecond) // past the last answer's second
			from := time.Now()
			for i := range c.queries {
				if i > 0 {
					time.Sleep(100 * time.Millisecond)
				}
				sn.send(t, browseQuery(c.known))
			}
			time.Sleep(time.Second)
			answers := sn.since(from, about(inst, false))
			if n := len(answers); n < c.least || n > c.most+1 {
				t.Errorf("%d answers to %d queries, want %d to %d", n, c.queries, c.least, c.most)
			}
			for i := 1; i < len(answers); i++ {
				if gap := answers[i].at.Sub(answers[i-1].at); gap < 950*time.Millisecond {
					t.Errorf("two answers %v apart", gap)
				}
			}
		})
	}
}

// TestDiscoveryQuietRoom: six peers that all know each other send at most
// one packet a second each, all told (the 4 peers sent 35 a
// second): no peer answers a query that names it, and the queries back
// off.
func TestDiscoveryQuietRoom(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	const peers = 6
	sn := newSniffer(t)
	var ds []*Discovery
	for i := range peers {
		ds = append(ds, startTestDiscovery(t, newTestHost(t), Advert{Name: string(rune('A' + i))}))
	}
	for _, d := range ds {
		waitPeers(t, d, "all the others", func(ps []Advert) bool { return len(ps) == peers-1 })
	}
	time.Sleep(4 * time.Second) // past the start's bursts
	from := time.Now()
	time.Sleep(8 * time.Second)
	all := sn.since(from, func(*dns.Msg) bool { return true })
	secs := time.Since(from).Seconds()
	t.Logf("%d packets in %.1f s from %d peers (%d queries)", len(all), secs, peers, len(sn.since(from, isQuery)))
	if rate := float64(len(all)) / secs / peers; rate > 1 {
		t.Errorf("%.2f packets a second per peer", rate)
	}
	for _, d := range ds {
		if n := len(d.Peers()); n != peers-1 {
			t.Errorf("a peer lists %d of the %d others", n, peers-1)
		}
	}
}

// standardResponder is a DNS-SD responder as RFC 6762 describes one, not
// aeroplane's: records with a TTL of 120 s (python-zeroconf's for SRV and
// A), announced twice on start, answers by multicast at most once a
// second, none to a query whose known answers hold its PTR with half its
// TTL left. Like many embedded responders it answers only standard
// queries, from port 5353, not legacy unicast ones (§6.7): what the old
// querier, asking every 400 ms from a fresh port and forgetting a peer
// unheard for 3 s, relied on. A querier that honours the TTL keeps it.
type standardResponder struct {
	conn       *net.UDPConn
	svc        *mdns.MDNSService
	mu         sync.Mutex
	lastAnswer time.Time
}

func startStandardResponder(t *testing.T, svc *mdns.MDNSService) {
	t.Helper()
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	c, err := listenMDNS(lo)
	if err != nil {
		t.Fatal(err)
	}
	r := &standardResponder{conn: c, svc: svc}
	done := make(chan struct{})
	t.Cleanup(func() { c.Close(); <-done })
	r.multicast()
	go func() {
		time.Sleep(time.Second)
		r.multicast()
	}()
	go func() {
		defer close(done)
		buf := make([]byte, 65536)
		for {
			n, from, err := c.ReadFromUDP(buf)
			if err != nil {
				return
			}
			r.handle(buf[:n], from)
		}
	}()
}

func (r *standardResponder) records() []dns.RR { return advertRecords(r.svc, 120, true) }

func (r *standardResponder) multicast() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.multicastLocked()
}

func (r *standardResponder) multicastLocked() {
	b, _ := response(r.records()).Pack()
	_, _ = r.conn.WriteToUDP(b, mdnsGroup)
	r.lastAnswer = time.Now()
}

func (r *standardResponder) handle(b []byte, from *net.UDPAddr) {
	m := new(dns.Msg)
	if m.Unpack(b) != nil || m.Response {
		return
	}
	asked := slices.ContainsFunc(m.Question, func(q dns.Question) bool {
		return strings.EqualFold(q.Name, serviceFQDN) && q.Qtype == dns.TypePTR
	})
	if !asked || from.Port != 5353 || knownAnswer(m.Answer, r.records()[0]) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.lastAnswer) >= time.Second {
		r.multicastLocked()
	}
}

// TestDiscoveryListsStandardResponder: a standard responder with a TTL of
// 120 s stays listed for as long as it runs (it was listed 3.5 s and then
// dropped while still registered): our queries carry it as a known answer
// until its entry needs a refresh, then ask it, and it answers.
func TestDiscoveryListsStandardResponder(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	d := startTestDiscovery(t, newTestHost(t), Advert{Name: "us"})
	other := testID(t)
	txt, err := EncodeTXT(Advert{Version: ProtocolVersion, ID: other, Name: "standard",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/4001")}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := mdns.NewMDNSService(other.String(), "_aeroplane._tcp", "local.", "standard.local.", 4001, []net.IP{net.IPv4(127, 0, 0, 1)}, txt)
	if err != nil {
		t.Fatal(err)
	}
	startStandardResponder(t, svc)
	waitPeers(t, d, "the standard responder", hasPeer(other, nil))
	// Watched for longer than an entry lives unheard (maxLife): it must
	// have been refreshed, not merely not yet expired.
	until := time.Now().Add(maxLife + 4*time.Second)
	for time.Now().Before(until) {
		if !hasPeer(other, nil)(d.Peers()) {
			t.Fatalf("the standard responder was dropped while it runs")
		}
		select {
		case <-d.Changes():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestStandardClientFindsUs: hashicorp/mdns's own client, browsing the
// _tcp service, finds a peer with its TCP port and every address of its
// advert.
func TestStandardClientFindsUs(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	h := newTestHost(t)
	startTestDiscovery(t, h, Advert{Name: "us"})
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	entries := make(chan *mdns.ServiceEntry, 16)
	if err := mdns.Query(&mdns.QueryParam{Service: "_aeroplane._tcp", Domain: "local", Timeout: 2 * time.Second,
		Interface: lo, Entries: entries, DisableIPv6: true}); err != nil {
		t.Fatal(err)
	}
	close(entries)
	_, port := advertIPs(h.Addrs())
	for e := range entries {
		if !strings.HasPrefix(e.Name, h.ID().String()+".") {
			continue
		}
		if e.Port != port {
			t.Errorf("SRV port %d, the host listens on TCP %d", e.Port, port)
		}
		// A DNS-SD client keeps the first of a repeated key (RFC 6763
		// §6.4): the advert's addresses must survive that.
		first := map[string]string{}
		for _, f := range e.InfoFields {
			k, v, _ := strings.Cut(f, "=")
			if _, ok := first[k]; !ok {
				first[k] = v
			}
		}
		var kept []string
		for _, f := range e.InfoFields {
			if k, v, _ := strings.Cut(f, "="); first[k] == v {
				kept = append(kept, k+"="+v)
			}
		}
		ad, err := ParseTXT(kept)
		if err != nil {
			t.Fatal(err)
		}
		if want := advertisable(h.Addrs()); len(ad.Addrs) != len(want) || len(want) < 2 {
			t.Errorf("a standard client reads %d addresses of %d: %q", len(ad.Addrs), len(want), e.InfoFields)
		}
		return
	}
	t.Fatal("the standard client did not find us")
}
