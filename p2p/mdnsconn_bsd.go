//go:build unix && !linux

package p2p

// onlyJoinedInterface is Linux's fix for a socket hearing groups joined on
// other interfaces; elsewhere a socket hears only what it joined.
func onlyJoinedInterface(int) error { return nil }
