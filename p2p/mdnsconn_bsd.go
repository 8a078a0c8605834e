//go:build unix && !linux

package p2p

import "net"

// onlyJoinedInterface is Linux's fix for a socket hearing groups joined on
// other interfaces; elsewhere a socket hears only what it joined.
func onlyJoinedInterface(int) error { return nil }

// sendFrom: the BSDs name the multicast interface by its address
// (IP_MULTICAST_IF takes an in_addr, as Go sets it), and a packet leaves
// from that address, 127.0.0.1 on lo0 included.
func sendFrom(int, *net.Interface) error { return nil }
