package cheat

import (
	"context"
	"io"
	"log"
	"net"
	"slices"
	"time"

	"aeroplane/p2p"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

// spoof answers mDNS for every honest peer's ID with this peer's own
// address, and announces those adverts every second (discovery asks
// rarely once it knows the room, so a forger must not wait to be asked),
// until ctx ends. Only the Noise handshake stands between an honest peer
// that believes it and a connection to the wrong host.
func (p *Peer) spoof(ctx context.Context) int {
	ip, addrs := p.ipOf()
	if ip == nil {
		p.say("spoof-mdns: no address")
		return 0
	}
	ifc := ifaceOf(ip)
	if ifc == nil {
		p.say("spoof-mdns: no interface for %s", ip)
		return 0
	}
	quiet := log.New(io.Discard, "", 0)
	n := 0
	for _, id := range p.others() {
		txt, err := p2p.EncodeTXT(p2p.Advert{Version: p2p.ProtocolVersion, ID: id, Name: "spoof", Lobby: p.cfg.Lobby, Addrs: addrs})
		if err != nil {
			p.say("spoof-mdns: %v", err)
			continue
		}
		inst := id.String()
		svc, err := mdns.NewMDNSService(inst, p2p.ServiceName, "local.", "spoof-"+inst[len(inst)-8:]+".local.", 4001, []net.IP{ip}, txt)
		if err != nil {
			p.say("spoof-mdns: %v", err)
			continue
		}
		s, err := mdns.NewServer(&mdns.Config{Zone: svc, Iface: ifc, Logger: quiet})
		if err != nil {
			p.say("spoof-mdns: %v", err)
			continue
		}
		n++
		go func() {
			<-ctx.Done()
			_ = s.Shutdown()
		}()
		go announce(ctx, ip, svc)
	}
	return n
}

func ifaceOf(ip net.IP) *net.Interface {
	ifs, _ := net.Interfaces()
	for i := range ifs {
		as, _ := ifs[i].Addrs()
		if slices.ContainsFunc(as, func(a net.Addr) bool {
			n, ok := a.(*net.IPNet)
			return ok && n.IP.Equal(ip)
		}) {
			return &ifs[i]
		}
	}
	return nil
}

// announce multicasts svc's records, as an unsolicited response, every
// second from ip until ctx ends.
func announce(ctx context.Context, ip net.IP, svc *mdns.MDNSService) {
	c, err := net.DialUDP("udp4", &net.UDPAddr{IP: ip}, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353})
	if err != nil {
		return
	}
	defer c.Close()
	m := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true,
		Answer: svc.Records(dns.Question{Name: p2p.ServiceName + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET})}
	b, err := m.Pack()
	if err != nil {
		return
	}
	for {
		_, _ = c.Write(b)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}
