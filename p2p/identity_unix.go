//go:build unix

package p2p

import "syscall"

// identityOpenFlags make opening the identity refuse a symbolic link and
// return at once on a FIFO, so that nothing swapped in at the path after
// its Lstat can be followed or block the start.
const identityOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
