// Package p2p is the only part of aeroplane that touches the network.
//
// It builds a libp2p host for a LAN game (TCP and QUIC, Noise, yamux, a
// persistent Ed25519 identity; relay, NAT port mapping, AutoNAT, hole
// punching and metrics off), finds other peers with multicast DNS
// (hashicorp/mdns and miekg/dns), lets a user connect by address when multicast is
// blocked, and moves opaque, length-delimited frames between peer IDs over
// one long-lived stream per peer pair (protocol /aeroplane/1.0.0) with an
// application heartbeat. On top of the frames sit the chat; the lobby,
// which decides the table, is package lobby's, above p2p: p2p carries its
// frames (KindLobby), its info answers (ServeInfo, QueryInfo: opaque
// bytes), judges the addresses it relays (PeerAddrs) and strikes the peers
// it names (Transport.Strike). p2p drives no game: lockstep.Driver does,
// over a lockstep.Link that the application layer (package session's
// TransportLink) makes of a Transport.
//
// # Using it
//
//	key, _ := p2p.LoadOrCreateIdentity(path)           // DefaultIdentityPath() or --identity
//	h, _ := p2p.NewHost(p2p.HostConfig{Identity: key}) // LAN addresses by default
//	t := p2p.NewTransport(h, p2p.TransportConfig{})    // Inbox(), Events(), Send, Broadcast
//	d, _ := p2p.StartDiscovery(h, p2p.Advert{Name: name}, p2p.DiscoveryConfig{})
//	chat := p2p.NewChat(t)
//	res, _ := lobby.Run(ctx, t, d, chat, lobby.Config{Player: name, Lobby: game, Players: 2})
//	g, _ := dir.Create(res.Setup, self, nil)           // savegame: the secret and the log (Resume after a crash)
//	s, _ := session.NewGame(t, session.GameConfig{Setup: res.Setup, Key: key, Entropy: g.Entropy,
//		Log: g.Log, Records: g.Records, Pending: res.Pending, Chat: chat, OnReady: show})
//	state, _ := s.Run(ctx)                             // s.Do(func(n *lockstep.Node) error {...}) for intents
//
// lobby.Run owns the transport's inbox until it returns, the game's
// TransportLink after (see package lobby for how a table is found,
// decided and started).
// p2p.DialableAddrs(h) is what a player reads out to another whose
// multicast is blocked; p2p.ResolveAddr turns what that one typed (a full
// /p2p/ multiaddr, a multiaddr without it, or HOST:PORT) into a peer:
// without a peer ID it learns the ID with a Noise handshake at that
// address (Noise proves the key; the user vouches for the address).
// Transport.ConnectByHand dials what the user typed, wherever it is.
//
// # What is dialled
//
// An address a peer gives (its lobby join, a host's roster, start or
// redirect, which package lobby passes through PeerAddrs, an mDNS
// advert's a0..a7 fields, identify) is dialled only if it is
// /ip4 or /ip6 in loopback (127/8, ::1), private (10/8, 172.16/12,
// 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10) space with
// /tcp or /udp/quic-v1 on top, or is exactly the remote address of a live,
// authenticated connection from that peer, or was typed by the user for
// that peer. Others are dropped where they enter (the lobby, discovery,
// the re-dials) and again by the host's gater, counted, and logged once
// per peer. No name is ever resolved for a peer: not /dns, /dns4, /dns6
// nor /dnsaddr (the host's resolver refuses every lookup). The only names
// looked up are those the user types into ResolveAddr (HOST:PORT or a
// /dns* multiaddr). A LAN numbered with public addresses is therefore
// reached only by hand (or by the peer that dials us).
//
// # The wire
//
// A frame is a 4-byte big-endian length (at most MaxFrame, 64 KiB), a kind
// byte and the body. Ping/pong frames go every second on every stream; a
// stream silent for 4 s is dead (its peer is reported down and its
// connection closed, so a re-dial starts afresh). The peer with the smaller
// ID opens the stream, so two peers dialling each other end up with one; a
// newer stream from the same peer replaces the old (it restarted). A frame
// of unknown kind, an application frame from a peer outside SetMembers, or
// an undecodable chat message is dropped, logged and counted, and so is a
// chat line over the rate limit; the lobby strikes (Transport.Strike) an
// undecodable lobby message and a peer's joins and leaves past its limit;
// 8 such strikes in 10 s disconnect
// the peer and refuse it for 30 s. A frame too
// large resets the stream at once (it cannot be resynchronised). Below
// the streams, more than 20 inbound connection attempts from one IP in
// 10 s get that IP refused for 30 s, named once in the log given as
// HostConfig.Logger. The host holds at most 64 inbound connections (32
// of them in their handshake), 8 per IP; loopback, which every peer on
// one machine shares, is counted too, against limits sized for a table of
// such peers (32 connections, 160 attempts in 10 s). The players of the
// game (SetMembers) have room of their own as large again, which a
// connection gets only from a member's IP and keeps only if Noise proves
// it is that member: strangers holding every other slot cannot keep the
// table apart, nor can strangers holding every handshake slot with
// connections that never finish Noise (which no gater sees; libp2p ends
// each after 15 s). While a game runs (members set) the host admits others
// only as watchers: MaxWatchers connections in all, 2 from one IP (past
// that a stranger's connection is closed as soon as Noise names it, the
// gater's InterceptSecured, and those open when the game starts are kept
// only up to the cap); on them only the watch and info protocols are
// served, each stream from a token bucket, and a peer that opens too many
// or others is cut off and refused for a minute (watchers.go). So the
// streams a stranger opens during a game, which libp2p counts in scopes
// every connection shares, are few and bounded. A late arrival asking for
// a seat is let onto the game protocol by the layer above (AdmitGuest, at
// most MaxGuests at once, forgotten after a minute without a stream):
// game and chat frames only, every other kind a strike as a stranger's
// frame is (guests.go); AddMember makes it a player once it is seated.
//
// What a stranger can grow is bounded. Discovery lists at most
// DiscoveryConfig.MaxStrangers (256) peers never proven by a connection
// (proven ones are never refused or evicted); when it is full a new
// stranger takes the place of one not heard for half of Expire, or is
// refused, so the peers already listed keep theirs through a flood, and a
// stranger's advertised addresses leave the peerstore with its entry. The
// log lines a peer's traffic can cause go through a limiter: 5 of one kind
// from one peer, then one line counting the rest when the burst ends (and
// each minute while it goes on), at most 256 (peer, kind) pairs tracked.
//
// # Discovery
//
// Discovery follows RFC 6762 (mDNS) and 6763 (DNS-SD) closely enough to
// share a crowded room with standard responders. The service is
// _aeroplane._tcp (the SRV's port is the TCP one); the instance is the
// peer ID, the TXT one key per field, the addresses a0..a7 (DNS-SD keeps
// only the first of a repeated key). A peer announces its records on
// start, a second later, on every change of advert, and every quarter of
// their TTL (8 s): half a packet a second per peer, so a crashed peer
// leaves the lists within 8 s while a live one survives three lost
// announcements (and a refresh query asks it at 75% and 90% of its life).
// On Close it multicasts them with TTL 0, a goodbye, which removes it at
// once. Every packet leaves from an address of its interface: on a
// loopback with only 127/8 addresses, 127.0.0.1 is named explicitly
// (Linux would send from 0.0.0.0, which avahi ignores), so peers and a
// standard responder on one machine answer each other. Its queries (from
// port 5353, answers multicast) back off from 1 s
// by doubling to 30 s, start again on Update or when the list empties,
// and name as known answers its own record and every entry with more than
// half its life left, so that in a settled room nobody answers; a query
// another peer sends that knows no more than ours counts as ours (§7.3),
// so a room sends about one query per 30 s. It answers a query after
// 20-120 ms, by multicast at most once a second per interface, not at all
// when the query's known answers hold its record with half its TTL left;
// to a QU question or a legacy querier (source port not 5353) by unicast,
// at most ten a second. An entry lives the TTL its advert gave, held to
// 1-10 s: a standard responder's 120 s is refreshed by asking it before
// 10 s, so it stays listed while it runs, and a hostile TTL pins nothing.
// hashicorp/mdns builds the records (MDNSService) and carries what was
// heard (ServiceEntry); its Server (which answers every query by unicast,
// with no known-answer suppression) and Query (no known answers, no TTLs)
// lack the rest, which mdnswire.go builds with github.com/miekg/dns, the
// DNS library hashicorp/mdns uses, on one socket per interface
// (mdnsconn.go). An advert stays a hint: see "What is dialled" and the
// caps below.
//
// # Layers, bottom up
//
//	identity.go   Ed25519 key on disk (mode 0600; a regular file, never a link or FIFO)
//	ratelog.go    the limit on log lines a remote peer can cause
//	host.go       libp2p host with the game's options
//	gater.go      the host's gater: an IP flooding us with connections is refused a while
//	lanaddr.go    which peer-given addresses are dialled; the resolver that refuses names
//	reserve.go    the players' connection room that strangers cannot take
//	frame.go      frame codec
//	transport.go  one stream per peer, heartbeat, deadlines, strikes
//	redial.go     re-dial away members past libp2p's backoff
//	connect.go    manual connect: multiaddr, or host:port + Noise probe
//	txt.go        mDNS TXT record encoding and its parser
//	discovery.go  mDNS: announce, answer, query with back-off, expire by TTL
//	mdnswire.go   discovery's messages: records, known answers, goodbyes
//	mdnsconn.go   discovery's socket per interface (port 5353, loopback on, source address)
//	adtable.go    discovery's list: strangers capped, proven peers kept, TTLs
//	chat.go       rate- and length-limited chat, ordered per sender
//	info.go       the info stream: a peer's answer (opaque bytes) to "what do you offer?"
//	above.go      what the lobby above needs: Strike, PeerLog, Advertisable, PeerAddrs
//
// p2p must never: send a packet anywhere but the LAN (no relays, no public
// bootstrap peers, no UPnP/NAT-PMP, no AutoNAT, no dial or name lookup a
// peer asked for outside the ranges above), panic or corrupt state on
// bad input from a peer, write to the terminal (it logs through log/slog),
// decide game rules (that is engine's and lockstep's job) or who sits at a
// table (package lobby's), or import a game package (engine, lockstep,
// lobby, savegame: TestNoGamePackages).
package p2p
