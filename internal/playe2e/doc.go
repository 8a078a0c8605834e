// Package playe2e is the end-to-end test of the product a person runs:
// `aeroplane` (play) in a real terminal (tmux), built once from this tree,
// against real headless peers on a private LAN (internal/netlab). The test
// reads the screen and presses keys like a player: it sees the peers in the
// lobby, joins their game, moves with keys, chats, reaches the end screen,
// and then checks that the player's saved log verifies to the same history
// the peers printed. Another test plays --offline with keys and quits;
// another opens a table, reads the phone page's address and QR code off
// the screen and fetches the page from another machine of the LAN (the
// test binary as the phone, fetchEnv).
//
// The package has no code outside its tests. Its tests must never touch
// the host's network: every process that could open a socket runs inside
// a namespace netlab made. In CI a missing namespace or tmux fails them.
package playe2e
