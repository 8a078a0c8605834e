package p2p

import "syscall"

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
