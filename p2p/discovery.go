package p2p

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
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

// ServiceName is the DNS-SD service aeroplane peers advertise.
const ServiceName = "_aeroplane._udp"

// DiscoveryConfig tunes discovery; zero values pick the defaults.
type DiscoveryConfig struct {
	// Interfaces to advertise and query on. Default: every interface that
	// is up, carries multicast and has an address the host listens on.
	Interfaces []net.Interface
	// Interval between queries (default 400 ms) and Expire, after which a
	// peer not heard from is dropped (default 3 s). A new peer shows up
	// within about one Interval.
	Interval time.Duration
	Expire   time.Duration
	// MaxStrangers caps the adverts kept from peers never proven by a
	// connection (default DefaultMaxStrangers); their peerstore addresses
	// live only as long as their entries.
	MaxStrangers int
	Logger       *slog.Logger
}

// Discovery advertises this peer over mDNS and keeps a live list of the
// others. A spoofed record can only waste a dial: the Noise handshake
// checks the peer ID, so nobody can impersonate a peer by advertising.
type Discovery struct {
	h    host.Host
	cfg  DiscoveryConfig
	log  *slog.Logger
	zone *zone

	servers []*mdns.Server
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu      sync.Mutex
	seen    *adTable
	warned  map[peer.ID]time.Time // last spoofed advert logged, per claimed ID
	changes chan struct{}
}

// spoofWarnEvery rate-limits the warning about spoofed adverts for one
// peer: a spoofer answers every query.
const spoofWarnEvery = 30 * time.Second

// strangerAddrTTLs is how long the peerstore keeps the advertised
// addresses of a peer never proven by a connection, as a multiple of
// Expire: its entry's expiry removes them anyway, this is the backstop.
const strangerAddrTTLs = 2

// StartDiscovery advertises ad (its ID, Version and Addrs are filled in from
// h) and starts querying.
func StartDiscovery(h host.Host, ad Advert, cfg DiscoveryConfig) (*Discovery, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = 400 * time.Millisecond
	}
	if cfg.Expire <= 0 {
		cfg.Expire = 3 * time.Second
	}
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
		zone:    &zone{ips: ips, port: port, instance: h.ID().String()},
		ctx:     ctx,
		cancel:  cancel,
		seen:    newAdTable(cfg.MaxStrangers, cfg.Expire/3, cfg.Expire),
		warned:  map[peer.ID]time.Time{},
		changes: make(chan struct{}, 1),
	}
	if err := d.Update(ad); err != nil {
		cancel()
		return nil, err
	}
	mlog := log.New(slogWriter{d.log}, "", 0)
	for i := range ifs {
		s, err := mdns.NewServer(&mdns.Config{Zone: d.zone, Iface: &ifs[i], Logger: mlog})
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("p2p: mDNS on %s: %w (is multicast allowed? use --connect otherwise)", ifs[i].Name, err)
		}
		d.servers = append(d.servers, s)
	}
	for i := range ifs {
		d.wg.Add(1)
		go d.queryLoop(ifs[i], mlog)
	}
	d.wg.Add(1)
	go d.expireLoop()
	return d, nil
}

// Update changes what this peer advertises (lobby, free seats...).
func (d *Discovery) Update(ad Advert) error {
	ad.ID = d.h.ID()
	ad.Version = ProtocolVersion
	ad.Addrs = advertisable(d.h.Addrs())
	txt, err := EncodeTXT(ad)
	if err != nil {
		return fmt.Errorf("p2p: advert: %w", err)
	}
	return d.zone.setTXT(txt)
}

// Peers returns the adverts of the peers heard from recently, by ID.
func (d *Discovery) Peers() []Advert {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen.list()
}

// Changes receives a value (coalesced) whenever Peers may have changed.
func (d *Discovery) Changes() <-chan struct{} { return d.changes }

// Close stops advertising and querying.
func (d *Discovery) Close() error {
	d.cancel()
	for _, s := range d.servers {
		_ = s.Shutdown()
	}
	d.wg.Wait()
	return nil
}

func (d *Discovery) changed() {
	select {
	case d.changes <- struct{}{}:
	default:
	}
}

func (d *Discovery) queryLoop(ifc net.Interface, mlog *log.Logger) {
	defer d.wg.Done()
	for d.ctx.Err() == nil {
		// Buffered: the library drops entries it cannot send at once.
		entries := make(chan *mdns.ServiceEntry, 64)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for e := range entries {
				d.saw(e)
			}
		}()
		// Query blocks for its whole timeout, so it is the loop's pacing.
		// IPv6 is off: one unroutable IPv6 socket aborts the whole query,
		// and peers advertise IPv4 addresses.
		err := mdns.QueryContext(d.ctx, &mdns.QueryParam{
			Service: ServiceName, Domain: "local", Timeout: d.cfg.Interval,
			Interface: &ifc, Entries: entries, DisableIPv6: true, Logger: mlog,
		})
		close(entries)
		<-done
		if err != nil && d.ctx.Err() == nil {
			d.log.Debug("mDNS query failed", "iface", ifc.Name, "err", err)
			select {
			case <-d.ctx.Done():
			case <-time.After(d.cfg.Interval):
			}
		}
	}
}

func (d *Discovery) saw(e *mdns.ServiceEntry) {
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
	room := d.seen.admits(ad.ID, proven, time.Now())
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
	old, had, ok, evicted := d.seen.put(ad, proven, time.Now())
	d.mu.Unlock()
	if evicted != "" {
		d.forget(evicted)
	}
	if !ok {
		d.forget(ad.ID) // another interface's answer took the last place
		return
	}
	if !proven {
		d.h.Peerstore().UpdateAddrs(ad.ID, peerstore.RecentlyConnectedAddrTTL, strangerAddrTTLs*d.cfg.Expire)
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

func (d *Discovery) expireLoop() {
	defer d.wg.Done()
	tick := time.NewTicker(d.cfg.Interval / 2)
	defer tick.Stop()
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		d.mu.Lock()
		gone := d.seen.expireAt(now)
		for id, at := range d.warned {
			if now.Sub(at) > spoofWarnEvery {
				delete(d.warned, id)
			}
		}
		d.mu.Unlock()
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
}

// zone answers mDNS questions with the current advert; the TXT can change
// while the server runs.
type zone struct {
	ips      []net.IP
	port     int
	instance string

	mu  sync.Mutex
	svc *mdns.MDNSService
}

func (z *zone) setTXT(txt []string) error {
	host := "aeroplane-" + z.instance[len(z.instance)-12:] + ".local."
	svc, err := mdns.NewMDNSService(z.instance, ServiceName, "local.", host, z.port, z.ips, txt)
	if err != nil {
		return err
	}
	z.mu.Lock()
	z.svc = svc
	z.mu.Unlock()
	return nil
}

func (z *zone) Records(q dns.Question) []dns.RR {
	z.mu.Lock()
	svc := z.svc
	z.mu.Unlock()
	return svc.Records(q)
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

// slogWriter turns hashicorp/mdns's log.Logger lines into debug records,
// so they never reach the terminal.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Debug(strings.TrimSpace(string(p)), "from", "mdns")
	return len(p), nil
}
