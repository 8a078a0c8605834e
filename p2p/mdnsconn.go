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
// a known answer, and our adverts name us, so both are ignored).
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
	err = raw.Control(func(fd uintptr) { serr = mdnsSockopts(fd) })
	if err == nil {
		err = serr
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("setting up the mDNS socket: %w", err)
	}
	return c, nil
}
