//go:build !unix

package p2p

// mdnsSockopts: Windows loops multicast back by default and sends it
// with TTL 1, which a link-local group needs anyway.
func mdnsSockopts(uintptr) error { return nil }
