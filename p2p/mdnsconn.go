package p2p

import (
	"fmt"
	"net"
)

// mdnsGroup is where every mDNS message goes (RFC 6762 §3).
var mdnsGroup = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}

// listenMDNS opens the one socket discovery uses on ifc: bound to port
// 5353 (so queries come from 5353 and responders multicast their answers,
// RFC 6762 §6), joined to the group on ifc, sending there with IP TTL 255
// (§11), and with multicast loopback on, so that peers on one machine hear
// each other (our own packets come back too: a query carries our own PTR as
// a known answer, and our adverts name us, so both are ignored), and
// from an address of ifc's own where the kernel would pick none
// (pinnedSource).
func listenMDNS(ifc *net.Interface) (*net.UDPConn, error) {
	c, err := net.ListenMulticastUDP("udp4", ifc, mdnsGroup)
	if err != nil {
		return nil, err
	}
	raw, err := c.SyscallConn()
	if err != nil {
		c.Close()
		return nil, err
	}
	var serr error
	err = raw.Control(func(fd uintptr) { serr = mdnsSockopts(fd, ifc) })
	if err == nil {
		err = serr
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("setting up the mDNS socket: %w", err)
	}
	return c, nil
}

// pinnedSource is the source address our multicast on ifc must carry
// explicitly, or nil to leave the choice to the kernel: an interface
// whose only IPv4 addresses are loopback ones (lo in a namespace or on a
// machine with no network) gets its first. Linux gives a multicast
// packet a source of link scope or wider, which 127/8 is not (host
// scope): without it, our packets on lo leave from 0.0.0.0 (or from some
// other interface's address), and a standard responder such as avahi
// drops a query from 0.0.0.0 unanswered. An interface with any other
// IPv4 address is left to the kernel, which then picks one of its own
// and follows it if it changes.
func pinnedSource(ifc *net.Interface) net.IP {
	addrs, err := ifc.Addrs()
	if err != nil {
		return nil
	}
	var first net.IP
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.To4() == nil {
			continue
		}
		if !n.IP.IsLoopback() {
			return nil
		}
		if first == nil {
			first = n.IP.To4()
		}
	}
	return first
}
