package p2p

import (
	"net"
	"syscall"
)

// onlyJoinedInterface makes the socket hear the group only on the
// interface it joined it on: Linux otherwise delivers to a socket bound to
// 0.0.0.0:5353 every group any socket joined, on any interface, and the
// rate limits and the answers are per interface.
func onlyJoinedInterface(fd int) error {
	return syscall.SetsockoptInt(fd, syscall.IPPROTO_IP, ipMulticastAll, 0)
}

// ipMulticastAll is IP_MULTICAST_ALL from linux/in.h (the syscall
// package does not name it).
const ipMulticastAll = 49

// sendFrom names ifc's source address (pinnedSource), if it needs one,
// with the multicast interface: Linux takes a multicast packet's source
// from ip_mreqn's address when the socket is bound to none. Go's
// ListenMulticastUDP set only the index.
func sendFrom(fd int, ifc *net.Interface) error {
	src := pinnedSource(ifc)
	if src == nil {
		return nil
	}
	mreq := &syscall.IPMreqn{Ifindex: int32(ifc.Index)}
	copy(mreq.Address[:], src)
	return syscall.SetsockoptIPMreqn(fd, syscall.IPPROTO_IP, syscall.IP_MULTICAST_IF, mreq)
}
