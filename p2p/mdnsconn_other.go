//go:build !unix

package p2p

import "net"

// mdnsSockopts: Windows loops multicast back by default and sends it
// with TTL 1, which a link-local group needs anyway, and takes the
// source from the interface named by address.
func mdnsSockopts(uintptr, *net.Interface) error { return nil }
