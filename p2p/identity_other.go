//go:build !unix

package p2p

// identityOpenFlags: without O_NOFOLLOW and O_NONBLOCK, the Lstat and the
// Stat of the open file are what refuse anything but a regular file.
const identityOpenFlags = 0
