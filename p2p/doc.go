// Package p2p is the only part of aeroplane that touches the network.
//
// It builds a libp2p host for a LAN game (TCP and QUIC, Noise, yamux, a
// persistent Ed25519 identity; relay, NAT port mapping, AutoNAT, hole
// punching and metrics off), finds other peers with multicast DNS
// (hashicorp/mdns), lets a user connect by address when multicast is
// blocked, and moves opaque, length-delimited frames between peer IDs over
// one long-lived stream per peer pair (protocol /aeroplane/1.0.0) with an
// application heartbeat. On top of the frames sit the lobby, the chat and
// the session driver that feeds a lockstep.Node.
//
// Layers, bottom up:
//
//	identity.go   Ed25519 key on disk (mode 0600)
//	host.go       libp2p host with the game's options
//	frame.go      frame codec: 4-byte length, 1-byte kind, body; 64 KiB cap
//	transport.go  one stream per peer, heartbeat, deadlines, strikes
//	connect.go    manual connect: multiaddr, or host:port + Noise probe
//	txt.go        mDNS TXT record encoding and its parser
//	discovery.go  mDNS advertise + continuous query with expiry
//	chat.go       rate- and length-limited chat, ordered per sender
//	lobby.go      create/join a game by name, seats, start
//	session.go    drives a lockstep.Node from frames and a ticker
//
// p2p must never: send a packet anywhere but the LAN (no relays, no public
// bootstrap peers, no UPnP/NAT-PMP, no AutoNAT), panic or corrupt state on
// bad input from a peer, write to the terminal (it logs through log/slog),
// or decide game rules (that is engine's and lockstep's job).
package p2p
