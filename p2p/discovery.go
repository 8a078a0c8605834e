package p2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// ServiceName is the DNS-SD service aeroplane peers advertise: the game
// listens on TCP (and QUIC beside it), and DNS-SD names a service by the
// protocol of the port in its SRV record (RFC 6763 §7).
const ServiceName = "_aeroplane._tcp"

// DiscoveryConfig tunes discovery; zero values pick the defaults.
type DiscoveryConfig struct {
	// Interfaces to advertise and query on. Default: every interface that
	// is up, carries multicast and has an address the host listens on.
	Interfaces []net.Interface
	// Interval is the longest wait between two of our queries, which
	// back off from 1 s by doubling (default 30 s, DefaultQueryCeiling).
	// Expire is the TTL of our records (default 8 s, DefaultTTL): a peer
	// that vanishes without a goodbye leaves the others' lists that long
	// after its last announcement. We announce every quarter of it.
	Interval time.Duration
	Expire   time.Duration
	// MaxStrangers caps the adverts kept from peers never proven by a
	// connection (default DefaultMaxStrangers); their peerstore addresses
	// live only as long as their entries.
	MaxStrangers int
	Logger       *slog.Logger
}

// The defaults, and why (doc.go has the whole protocol).
//
// DefaultTTL, 8 s, is how long a crashed peer (no goodbye) stays listed;
// announcing every quarter of it, 2 s, costs 0.5 packet a second per
// peer, half the budget of one, and a peer stays listed through three
// lost announcements in a row (a refresh query at 6 s and 7.2 s asks
// it before it goes).
//
// DefaultQueryCeiling, 30 s: peers announce themselves, so queries are
// only for what announcements miss (a standard responder that announces
// only when it starts); a query that every listed peer's known answer
// silences costs one packet, and since a peer that hears another's
// equal query counts it as its own (RFC 6762 §7.3), a room sends about
// one query per ceiling, whatever its size.
//
// maxLife, 10 s, is the longest an entry lives unheard, whatever TTL its
// advert gave: a standard responder's 120 s or 75 min TTL is refreshed
// by our queries at 75% and 90% of that (it answers: it stays listed
// while it runs), a hostile one pins nothing.
const (
	DefaultTTL          = 8 * time.Second
	DefaultQueryCeiling = 30 * time.Second
	maxLife             = 10 * time.Second
	firstQueryInterval  = time.Second
	minAnswerInterval   = time.Second // per record, per interface (RFC 6762 §6)
	minUnicastInterval  = 100 * time.Millisecond
	maxKnownAnswers     = 120
	schedulerTick       = 50 * time.Millisecond
)

// Discovery advertises this peer over mDNS and keeps a live list of the
// others. A spoofed record can only waste a dial: the Noise handshake
// checks the peer ID, so nobody can impersonate a peer by advertising.
type Discovery struct {
	h   host.Host
	cfg DiscoveryConfig
	log *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ifs    []*mdnsIface
	closed sync.Once
	// schedDone is closed when the scheduler has stopped, so that no
	// announcement can follow our goodbye.
	schedDone chan struct{}

	mu      sync.Mutex
	seen    *adTable
	warned  map[peer.ID]time.Time // last spoofed advert logged, per claimed ID
	changes chan struct{}
	zone    zone
	q       querier
}

// mdnsIface is one interface's socket and what its rate limits remember.
// Guarded by Discovery.mu, but for conn.
type mdnsIface struct {
	name         string
	conn         *net.UDPConn
	lastAdvert   time.Time // our records last multicast here
	pendingAt    time.Time // an answer or announcement is due then (zero: none)
	pendingEnum  bool      // ... with the service-enumeration PTR
	nextAnnounce time.Time
	announced    int
	lastUnicast  time.Time
	lastQuery    []byte // our last query, to know it when it loops back
}

// querier is when we ask next: the back-off of the periodic query, and
// the refresh queries for entries near the end of their life.
type querier struct {
	interval time.Duration // the next back-off step
	next     time.Time     // the next periodic query
	last     time.Time     // our last query of any kind
	refresh  bool          // an entry is due: ask as soon as allowed
}

// spoofWarnEvery rate-limits the warning about spoofed adverts for one
// peer: a spoofer answers every query.
const spoofWarnEvery = 30 * time.Second

// strangerAddrTTLs is how long the peerstore keeps the advertised
// addresses of a peer never proven by a connection, as a multiple of
// the longest life of an entry: its entry's expiry removes them anyway,
// this is the backstop.
const strangerAddrTTLs = 2

// StartDiscovery advertises ad (its ID, Version and Addrs are filled in from
// h), announces it and starts querying.
func StartDiscovery(h host.Host, ad Advert, cfg DiscoveryConfig) (*Discovery, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultQueryCeiling
	}
	if cfg.Expire <= 0 {
		cfg.Expire = DefaultTTL
	}
	cfg.Expire = max(cfg.Expire.Truncate(time.Second), time.Second)
	if cfg.MaxStrangers <= 0 {
		cfg.MaxStrangers = DefaultMaxStrangers
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ifs := cfg.Interfaces
	if len(ifs) == 0 {
		var err error
		if ifs, err = multicastInterfaces(h.Addrs()); err != nil {
			return nil, err
		}
	}
	ips, port := advertIPs(h.Addrs())
	if len(ips) == 0 || port == 0 {
		return nil, errors.New("p2p: discovery needs the host to listen on TCP at an IP address")
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Discovery{
		h: h, cfg: cfg, log: newRateLimiter().logger(cfg.Logger).With("self", short(h.ID())),
		zone:   zone{ips: ips, port: port, instance: h.ID().String()},
		ctx:    ctx,
		cancel: cancel,
		// A stranger not heard for two announcements is stale: a flood's
		// newcomer may take its place.
		seen:    newAdTable(cfg.MaxStrangers, cfg.Expire/2, maxLife),
		warned:  map[peer.ID]time.Time{},
		changes: make(chan struct{}, 1),
	}
	if err := d.Update(ad); err != nil {
		cancel()
		return nil, err
	}
	for i := range ifs {
		c, err := listenMDNS(&ifs[i])
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("p2p: mDNS on %s: %w (is multicast allowed? use --connect otherwise)", ifs[i].Name, err)
		}
		d.ifs = append(d.ifs, &mdnsIface{name: ifs[i].Name, conn: c})
	}
	now := time.Now()
	d.mu.Lock()
	d.q = querier{interval: firstQueryInterval, next: now.Add(firstQueryDelay())}
	for _, ifc := range d.ifs {
		// Announce at once (our names are our keys' hashes: nobody else
		// holds them, so there is nothing to probe for, RFC 6762 §8.1).
		ifc.pendingAt = now
	}
	d.mu.Unlock()
	d.step(now)
	for _, ifc := range d.ifs {
		d.wg.Add(1)
		go d.readLoop(ifc)
	}
	d.schedDone = make(chan struct{})
	go d.scheduler()
	return d, nil
}

// Update changes what this peer advertises (lobby, free seats...): the
// change is announced at once (or a second after the last announcement),
// and the queries start again from 1 s.
func (d *Discovery) Update(ad Advert) error {
	ad.ID = d.h.ID()
	ad.Version = ProtocolVersion
	ad.Addrs = advertisable(d.h.Addrs())
	txt, err := EncodeTXT(ad)
	if err != nil {
		return fmt.Errorf("p2p: advert: %w", err)
	}
	svc, err := d.zone.service(txt)
	if err != nil {
		return fmt.Errorf("p2p: advert: %w", err)
	}
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	same := d.zone.svc != nil && slices.Equal(d.zone.svc.TXT, svc.TXT)
	d.zone.svc = svc
	if same {
		return nil
	}
	for _, ifc := range d.ifs {
		ifc.schedule(now, 0)
	}
	d.q.restart(now)
	return nil
}

// Peers returns the adverts of the peers heard recently, by ID.
func (d *Discovery) Peers() []Advert {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen.list()
}

// Changes receives a value (coalesced) whenever Peers may have changed.
func (d *Discovery) Changes() <-chan struct{} { return d.changes }

// Close says goodbye (our records with TTL 0, so the others drop us at
// once) and stops advertising and querying.
func (d *Discovery) Close() error {
	d.closed.Do(func() {
		d.cancel()
		if d.schedDone != nil {
			<-d.schedDone
		}
		d.mu.Lock()
		var bye []byte
		if d.zone.svc != nil {
			bye, _ = response(advertRecords(d.zone.svc, 0, true)).Pack()
		}
		d.mu.Unlock()
		for _, ifc := range d.ifs {
			if bye != nil {
				_, _ = ifc.conn.WriteToUDP(bye, mdnsGroup)
			}
			_ = ifc.conn.Close()
		}
		d.wg.Wait()
	})
	return nil
}

func (d *Discovery) changed() {
	select {
	case d.changes <- struct{}{}:
	default:
	}
}

// firstQueryDelay is the 20-120 ms a querier waits before its first
// query (RFC 6762 §5.2), so peers started together do not ask at once.
func firstQueryDelay() time.Duration {
	return 20*time.Millisecond + rand.N(100*time.Millisecond)
}

// restart starts the back-off again: a burst of queries at 1 s, 2 s, 4 s...
func (q *querier) restart(now time.Time) {
	q.interval = firstQueryInterval
	q.next = now.Add(firstQueryDelay())
}

// schedule makes an answer (or announcement) due on ifc after delay, but
// no sooner than a second after our records were last multicast there.
func (ifc *mdnsIface) schedule(now time.Time, delay time.Duration) {
	at := now.Add(delay)
	if soonest := ifc.lastAdvert.Add(minAnswerInterval); at.Before(soonest) {
		at = soonest
	}
	if ifc.pendingAt.IsZero() || at.Before(ifc.pendingAt) {
		ifc.pendingAt = at
	}
}

func (d *Discovery) scheduler() {
	defer close(d.schedDone)
	tick := time.NewTicker(schedulerTick)
	defer tick.Stop()
	for {
		select {
		case <-d.ctx.Done():
			return
		case now := <-tick.C:
			d.step(now)
		}
	}
}

// outgoing is a packet to send once d.mu is released.
type outgoing struct {
	ifc  *mdnsIface
	to   *net.UDPAddr
	data []byte
}

// step does what is due at now: announcements and answers, queries, and
// expiry.
func (d *Discovery) step(now time.Time) {
	var out []outgoing
	d.mu.Lock()
	period := d.cfg.Expire / 4
	for _, ifc := range d.ifs {
		if ifc.pendingAt.IsZero() && ifc.announced > 0 && !now.Before(ifc.nextAnnounce) {
			ifc.pendingAt = now
		}
		if ifc.pendingAt.IsZero() || now.Before(ifc.pendingAt) || d.zone.svc == nil {
			continue
		}
		rrs := advertRecords(d.zone.svc, uint32(d.cfg.Expire/time.Second), true)
		if ifc.pendingEnum {
			rrs = append(rrs, &dns.PTR{Hdr: dns.RR_Header{Name: serviceEnum, Rrtype: dns.TypePTR, Class: dns.ClassINET,
				Ttl: uint32(d.cfg.Expire / time.Second)}, Ptr: serviceFQDN})
		}
		b, err := response(rrs).Pack()
		if err != nil {
			d.log.Debug("packing our mDNS records", "err", err)
			ifc.pendingAt = time.Time{}
			continue
		}
		out = append(out, outgoing{ifc: ifc, to: mdnsGroup, data: b})
		ifc.lastAdvert, ifc.pendingAt, ifc.pendingEnum = now, time.Time{}, false
		ifc.announced++
		// The second announcement a second after the first (RFC 6762
		// §8.3), then one every quarter of the TTL, jittered by a tenth so
		// peers started together spread out; an answer counts as one.
		if ifc.announced == 1 {
			ifc.nextAnnounce = now.Add(time.Second)
		} else {
			ifc.nextAnnounce = now.Add(period - period/10 + rand.N(period/5+1))
		}
	}
	if d.seen.due(now) {
		d.q.refresh = true
	}
	ask := !now.Before(d.q.next) || d.q.refresh
	if ask && now.Sub(d.q.last) >= time.Second {
		if !now.Before(d.q.next) {
			d.q.next = now.Add(d.q.interval)
			d.q.interval = min(2*d.q.interval, d.cfg.Interval)
		}
		q := browseQuery(d.knownAnswers(now))
		if d.q.last.IsZero() {
			// Our first query asks for unicast answers (QU, RFC 6762
			// §5.4): they come at once, where a multicast answer from a
			// peer that announced less than a second ago must wait.
			q.Question[0].Qclass |= unicastAnswer
		}
		d.q.refresh, d.q.last = false, now
		if b, err := q.Pack(); err == nil {
			for _, ifc := range d.ifs {
				out = append(out, outgoing{ifc: ifc, to: mdnsGroup, data: b})
				ifc.lastQuery = b
			}
		}
	}
	gone := d.seen.expireAt(now)
	for id, at := range d.warned {
		if now.Sub(at) > spoofWarnEvery {
			delete(d.warned, id)
		}
	}
	if len(gone) > 0 && len(d.seen.seen) == 0 {
		d.q.restart(now) // alone again: look around afresh
	}
	d.mu.Unlock()
	for _, o := range out {
		if _, err := o.ifc.conn.WriteToUDP(o.data, o.to); err != nil && d.ctx.Err() == nil {
			d.log.Debug("mDNS send failed", "iface", o.ifc.name, "err", err)
		}
	}
	for _, s := range gone {
		d.log.Debug("peer advert expired", "peer", short(s.ID))
		if !s.proven {
			d.forget(s.ID)
		}
	}
	if len(gone) > 0 {
		d.changed()
	}
}

// knownAnswers are the PTRs a query names as known, so their owners stay
// silent: ours (so that our own responder, which hears our query come
// back, stays silent too) and those of the entries with more than half
// their life left. Called with d.mu held.
func (d *Discovery) knownAnswers(now time.Time) []dns.RR {
	rrs := []dns.RR{knownPTR(instanceFQDN(d.zone.instance), d.cfg.Expire)}
	for _, s := range d.seen.known(now) {
		if len(rrs) == maxKnownAnswers {
			break
		}
		rrs = append(rrs, knownPTR(instanceFQDN(s.ID.String()), s.ttl))
	}
	return rrs
}

func (d *Discovery) readLoop(ifc *mdnsIface) {
	defer d.wg.Done()
	buf := make([]byte, 65536)
	for {
		n, from, err := ifc.conn.ReadFromUDP(buf)
		if err != nil {
			if d.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			d.log.Debug("mDNS read failed", "iface", ifc.name, "err", err)
			continue
		}
		var m dns.Msg
		if err := m.Unpack(buf[:n]); err != nil {
			continue // not DNS: nothing to say to its sender
		}
		// RFC 6762 §18: a nonzero opcode or rcode is silently ignored.
		if m.Opcode != dns.OpcodeQuery || m.Rcode != 0 {
			continue
		}
		if m.Response {
			d.heard(&m, time.Now())
			continue
		}
		d.mu.Lock()
		own := bytes.Equal(buf[:n], ifc.lastQuery)
		d.mu.Unlock()
		if !own {
			d.asked(ifc, &m, from, time.Now())
		}
	}
}

// asked answers a query: by multicast, after 20-120 ms and at most once a
// second per interface, unless every record it asks for is among its known
// answers with half its TTL left; by unicast to a QU question or a legacy
// querier (source port not 5353, RFC 6762 §6.7). A query that asks what we
// would ask, knowing no more than we do, counts as ours (§7.3).
func (d *Discovery) asked(ifc *mdnsIface, m *dns.Msg, from *net.UDPAddr, now time.Time) {
	legacy := from.Port != mdnsGroup.Port
	d.mu.Lock()
	svc := d.zone.svc
	ttl := uint32(d.cfg.Expire / time.Second)
	if !legacy && len(m.Question) == 1 && strings.EqualFold(m.Question[0].Name, serviceFQDN) &&
		m.Question[0].Qtype == dns.TypePTR && m.Question[0].Qclass&unicastAnswer == 0 && d.coversOurs(m.Answer, now) {
		if later := now.Add(d.q.interval); d.q.next.Before(later) {
			d.q.next = later
		}
	}
	d.mu.Unlock()
	if svc == nil {
		return
	}
	var multicast, unicast []dns.RR
	enum := false
	for _, q := range m.Question {
		// The records that answer q itself (those beside them, a PTR's
		// SRV, TXT and A, come only with them) that the querier lacks.
		rrs := slices.DeleteFunc(answersFor(svc, q, ttl), func(rr dns.RR) bool {
			h := rr.Header()
			direct := strings.EqualFold(h.Name, q.Name) && (q.Qtype == dns.TypeANY || q.Qtype == h.Rrtype)
			return !direct || knownAnswer(m.Answer, rr)
		})
		if len(rrs) == 0 {
			continue
		}
		if legacy || q.Qclass&unicastAnswer != 0 {
			rrs = answersFor(svc, q, ttl) // all of them: there is no later announcement for a unicast querier
		}
		if legacy || q.Qclass&unicastAnswer != 0 {
			unicast = append(unicast, rrs...)
			continue
		}
		multicast = append(multicast, rrs...)
		enum = enum || strings.EqualFold(q.Name, serviceEnum)
	}
	if len(multicast) > 0 {
		d.mu.Lock()
		// Shared records (the PTRs) are answered after a random 20-120 ms
		// (RFC 6762 §6), so that the answers of a room spread out.
		ifc.schedule(now, 20*time.Millisecond+rand.N(100*time.Millisecond))
		ifc.pendingEnum = ifc.pendingEnum || enum
		d.mu.Unlock()
	}
	if len(unicast) == 0 {
		return
	}
	d.mu.Lock()
	// A unicast answer goes wherever the query claims to come from: at
	// most ten a second, so we are no reflector for a forged flood.
	if now.Sub(ifc.lastUnicast) < minUnicastInterval {
		d.mu.Unlock()
		return
	}
	ifc.lastUnicast = now
	d.mu.Unlock()
	r := response(unicast)
	if legacy {
		// §6.7: the query's ID and question, no cache-flush bits, a TTL of
		// at most 10 s.
		r.Id, r.Question = m.Id, m.Question
		for _, rr := range r.Answer {
			rr.Header().Ttl = min(rr.Header().Ttl, legacyTTL)
		}
	}
	if b, err := r.Pack(); err == nil {
		_, _ = ifc.conn.WriteToUDP(b, from)
	}
}

// coversOurs reports whether known, a query's known answers, holds nothing
// we would not name ourselves: then its answers tell us all ours would.
// Called with d.mu held.
func (d *Discovery) coversOurs(known []dns.RR, now time.Time) bool {
	ours := d.knownAnswers(now)
	for _, k := range known {
		if !knownAnswer(ours, k) && !slices.ContainsFunc(ours, func(o dns.RR) bool { return dns.IsDuplicate(o, k) }) {
			return false
		}
	}
	return true
}

// heard reads a response: each advert of the service it carries is saw's
// to judge, each goodbye removes its entry at once, and a record in our
// own name that is not ours (a goodbye someone sent for us, or a forger's
// advert) is answered by announcing ours at once.
func (d *Discovery) heard(m *dns.Msg, now time.Time) {
	own := instanceFQDN(d.zone.instance)
	for _, r := range readResponse(m) {
		if r.instance == own {
			d.mu.Lock()
			svc := d.zone.svc
			if svc != nil && (r.txt == nil || !slices.Equal(r.txt, svc.TXT)) {
				for _, ifc := range d.ifs {
					ifc.schedule(now, 0)
				}
			}
			d.mu.Unlock()
			continue
		}
		if r.txt == nil {
			d.goodbye(r.instance)
			continue
		}
		d.sawTTL(&mdns.ServiceEntry{Name: r.instance, InfoFields: r.txt}, r.ttl, now)
	}
}

// goodbye drops the entry a TTL-0 record withdraws.
func (d *Discovery) goodbye(instance string) {
	label, _, _ := strings.Cut(instance, ".")
	id, err := peer.Decode(label)
	if err != nil {
		return
	}
	d.mu.Lock()
	s, ok := d.seen.goodbye(id)
	d.mu.Unlock()
	if !ok {
		return
	}
	d.log.Debug("peer said goodbye", "peer", short(id))
	if !s.proven {
		d.forget(id)
	}
	d.changed()
}

// saw takes an advert heard with our own TTL.
func (d *Discovery) saw(e *mdns.ServiceEntry) { d.sawTTL(e, d.cfg.Expire, time.Now()) }

// sawTTL judges an advert heard at now with ttl: an advert is a hint, so
// it is listed only if it names its sender, there is room for it, and it
// does not contradict a connection; its addresses pass the LAN filter.
func (d *Discovery) sawTTL(e *mdns.ServiceEntry, ttl time.Duration, now time.Time) {
	ad, err := ParseTXT(e.InfoFields)
	if err != nil {
		d.log.Debug("ignoring mDNS answer", "name", e.Name, "err", err)
		return
	}
	// The instance name is the peer ID; a record that disagrees is bogus.
	if !strings.HasPrefix(e.Name, ad.ID.String()+".") || ad.ID == d.h.ID() || ad.Version != ProtocolVersion {
		return
	}
	proven := d.proven(ad.ID)
	d.mu.Lock()
	room := d.seen.admits(ad.ID, proven, now)
	d.mu.Unlock()
	if !room {
		return // a flood: the listed peers keep their places
	}
	// Anyone on the LAN can answer in any peer's name: only addresses we
	// would dial on a peer's word are kept (lanaddr.go).
	ad.Addrs = policyOf(d.h).filter(ad.ID, advertisable(ad.Addrs), "mDNS advert")
	if from := d.contradicts(ad); from != nil {
		d.mu.Lock()
		warn := time.Since(d.warned[ad.ID]) > spoofWarnEvery
		if warn {
			d.warned[ad.ID] = time.Now()
		}
		d.mu.Unlock()
		if warn {
			d.log.Warn("spoofed mDNS advert ignored: it puts a connected peer at an address it is not connected from",
				"peer", short(ad.ID), "advertised", ad.Addrs, "connected-from", from)
		}
		return
	}
	d.h.Peerstore().AddAddrs(ad.ID, ad.Addrs, peerstore.RecentlyConnectedAddrTTL)
	d.mu.Lock()
	old, had, ok, evicted := d.seen.putTTL(ad, proven, now, ttl)
	d.mu.Unlock()
	if evicted != "" {
		d.forget(evicted)
	}
	if !ok {
		d.forget(ad.ID) // another interface's answer took the last place
		return
	}
	if !proven {
		d.h.Peerstore().UpdateAddrs(ad.ID, peerstore.RecentlyConnectedAddrTTL, strangerAddrTTLs*maxLife)
	}
	if !had || !sameAdvert(old, ad) {
		d.log.Debug("peer advert", "peer", short(ad.ID), "name", ad.Name, "lobby", ad.Lobby, "free", ad.Free)
		d.changed()
	}
}

// contradicts returns the IPs we are connected to ad.ID from when ad puts
// that peer at none of them, and nil otherwise. Anyone can answer mDNS in
// any peer's name, but a connection's peer ID was proven by the Noise
// handshake: on a LAN (no NAT) an advert that disagrees with it is forged,
// and believing it would send our re-dials to the forger. A loopback
// connection proves nothing about LAN addresses, so it contradicts nothing.
func (d *Discovery) contradicts(ad Advert) []net.IP {
	var from []net.IP
	for _, c := range d.h.Network().ConnsToPeer(ad.ID) {
		ip, err := manet.ToIP(c.RemoteMultiaddr())
		if err != nil || ip.IsLoopback() {
			return nil
		}
		for _, a := range ad.Addrs {
			if aip, err := manet.ToIP(a); err == nil && aip.Equal(ip) {
				return nil
			}
		}
		from = append(from, ip)
	}
	return from
}

// Proven reports whether an authenticated connection has vouched for id,
// so that an advert in its name is more than a hint (package lobby's
// listing marks the others unverified).
func (d *Discovery) Proven(id peer.ID) bool { return d.proven(id) }

// proven reports whether an authenticated connection vouches for id: it is
// connected now, or identify ran on a connection to it once (identify is
// what records a peer's protocols).
func (d *Discovery) proven(id peer.ID) bool {
	if d.h.Network().Connectedness(id) == network.Connected {
		return true
	}
	protos, err := d.h.Peerstore().GetProtocols(id)
	return err == nil && len(protos) > 0
}

// forget drops a stranger's advertised addresses from the peerstore when
// its entry goes, unless a connection proved it meanwhile.
func (d *Discovery) forget(id peer.ID) {
	if d.proven(id) {
		return
	}
	d.h.Peerstore().ClearAddrs(id)
	d.h.Peerstore().RemovePeer(id)
}

func sameAdvert(a, b Advert) bool {
	if a.Name != b.Name || a.Lobby != b.Lobby || a.Host != b.Host || a.Free != b.Free || a.Taken != b.Taken || a.Rules != b.Rules || len(a.Addrs) != len(b.Addrs) {
		return false
	}
	for i := range a.Addrs {
		if !a.Addrs[i].Equal(b.Addrs[i]) {
			return false
		}
	}
	return true
}

// zone is what we advertise: our addresses, port and instance name, and
// the records built from them with the current TXT.
type zone struct {
	ips      []net.IP
	port     int
	instance string
	svc      *mdns.MDNSService // guarded by Discovery.mu
}

// service builds the records of an advert with txt.
func (z *zone) service(txt []string) (*mdns.MDNSService, error) {
	host := "aeroplane-" + z.instance[len(z.instance)-12:] + ".local."
	return mdns.NewMDNSService(z.instance, ServiceName, "local.", host, z.port, z.ips, txt)
}

// advertIPs returns the IPv4 addresses h listens on (loopback only if
// nothing else) and its TCP port, for the SRV and A records.
func advertIPs(addrs []ma.Multiaddr) ([]net.IP, int) {
	var ips []net.IP
	port := 0
	for _, a := range advertisable(addrs) {
		na, err := manet.ToNetAddr(a)
		if err != nil {
			continue
		}
		tcp, ok := na.(*net.TCPAddr)
		if !ok || tcp.IP.To4() == nil {
			continue
		}
		ips = append(ips, tcp.IP)
		port = tcp.Port
	}
	return ips, port
}

// multicastInterfaces returns the up, multicast-capable interfaces that
// carry one of the host's listen addresses.
func multicastInterfaces(addrs []ma.Multiaddr) ([]net.Interface, error) {
	ips, _ := advertIPs(addrs)
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("p2p: listing interfaces: %w", err)
	}
	var out []net.Interface
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 {
			continue
		}
		ifAddrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		if slices.ContainsFunc(ifAddrs, func(a net.Addr) bool {
			n, ok := a.(*net.IPNet)
			return ok && slices.ContainsFunc(ips, n.IP.Equal)
		}) {
			out = append(out, ifc)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("p2p: no multicast-capable interface carries the game's addresses; use --connect ADDR instead")
	}
	return out, nil
}
