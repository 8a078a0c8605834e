//go:build unix

package p2p

import "syscall"

// mdnsSockopts turns multicast loopback on and the IP TTL to 255 (RFC 6762
// §11), and keeps the socket to its own interface's group.
func mdnsSockopts(fd uintptr) error {
	if err := syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_MULTICAST_LOOP, 1); err != nil {
		return err
	}
	if err := syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_MULTICAST_TTL, 255); err != nil {
		return err
	}
	return onlyJoinedInterface(int(fd))
}
