package cheat

import (
	"context"
	"io"
	"log"
	"net"
	"slices"

	"aeroplane/p2p"

	"github.com/hashicorp/mdns"
)

// spoof answers mDNS for every honest peer's ID with this peer's own
// address, until ctx ends. Only the Noise handshake stands between an
// honest peer that believes it and a connection to the wrong host.
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
