// Package cheat is a modified aeroplane client for tests only: it joins a
// game like any peer, plays honestly through a real lockstep.Node, and at
// chosen moments does what a friend with a patched binary could do over
// the network: sign inputs the protocol forbids (a bad reveal, a copied
// chain, a move out of turn, an illegal move, a move for another seat, two
// different moves for one step, replays) and abuse the transport (garbage
// bytes, oversized and never-ending frames, chat and connection floods, a
// spoofed mDNS record).
//
// Its honest node is run by lockstep.Driver, like every peer's; the
// cheating happens in forgeLink, the driver's Link, which renumbers the
// node's messages onto the cheater's own wire chain, puts forged ones
// beside them, and rewrites what arrives so the node never notices.
//
// It re-implements lockstep's wire format on purpose, the way a real
// cheater would, so that nothing in lockstep has to export a way to forge
// messages. It must never be imported by the release binary: only the
// end-to-end tests build cmd/cheatpeer.
package cheat
