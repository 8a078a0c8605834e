//go:build unix

package p2p

import (
	"net"
	"syscall"
)

// mdnsSockopts turns multicast loopback on and the IP TTL to 255 (RFC 6762
// §11), keeps the socket to its own interface's group, and sends from
// ifc's loopback address where it has no other (pinnedSource).
func mdnsSockopts(fd uintptr, ifc *net.Interface) error {
	if err := syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_MULTICAST_LOOP, 1); err != nil {
		return err
	}
	if err := syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_MULTICAST_TTL, 255); err != nil {
		return err
	}
	if err := onlyJoinedInterface(int(fd)); err != nil {
		return err
	}
	return sendFrom(int(fd), ifc)
}
