// Package lobby is the table before a game: who sits where, which seats
// bots fly, the rules, who is ready, and when the game may start; and the
// loop that runs it over p2p, from finding the table by name to handing
// the game's lockstep.Setup to every player.
//
// Table is its pure core: a value that the creator's loop changes in
// answer to its own player's keys and to its guests' requests, and from
// which it builds the Setup that every player then confirms. A Table
// decides; it never waits, sends, logs or reads a clock. Every method
// either changes the table and bumps its Version (which clears every
// ready: a ready is for one version of the table, so any change of seats
// or rules asks everyone again) or returns an error that says what the
// player can do, and leaves the table as it was. One setting is no
// change of the game: the bots' pace (Pace, SetPace: how long every
// screen waits before a bot's roll; each player's own, or the creator's
// 0-5 s) clears no ready; the roster and the start carry it to everyone,
// and Result.Pace hands it to the game's screen. Its rules are the
// lobby's whole policy, so they are tested without a network.
//
// # The loop
//
//	res, err := lobby.Run(ctx, t, d, chat, lobby.Config{Player: name, Lobby: game, Players: 2})
//
// Run owns the transport's inbox until it returns. A joiner that cannot
// see mDNS lists the creator in Config.Connect: the creator's answer to
// its join makes it the lobby's host. The creator's Table is the
// authority on the table: it seats each joiner at the first free colour
// of the layout, takes colour requests in the order they arrive (the
// first wins) and sends every member the table with its version. The
// game starts when every seat is taken and every seated player is ready,
// or when the creator starts it (Control.Start, or closing
// Config.StartNow) with the seats taken, all ready; the open ones are
// left out. Without Config.ManualReady a player is ready by itself
// (headless peers); with it, Control.SetReady says so. A player that
// leaves a lobby while staying connected says so, and its seat is free at
// once; a creator that leaves tells its players the lobby is gone. The
// creator may take back the seat of a guest who has not said ready
// (Control.Remove): the guest is told, and its joins are refused for
// five minutes (at most 64 such peers are remembered).
//
// A seat may sit at the table through a program other than its own: a
// web player, whose key lives in its browser, is seated by the program
// serving it (Control.SeatVia, ColourVia, ReadyVia, LeaveVia; on the
// wire the join, colour, ready and leave naming the seat). The roster
// lists it with that program (Member.Via); the creator takes its
// requests only from that program, it leaves with that program, and the
// Result names its program to every player (Result.SeatHosts).
//
// An mDNS advert is a hint, never an authority (find.go): a table is
// joined only once a libp2p connection to its host's peer ID has been
// made and the host has answered Query; a ghost advert is never joined,
// and a table's host is chosen by seats taken, then by a draw each
// creator states, never by peer ID. A creator with guests never moves; a
// creator still alone moves to a proven table that outranks its own,
// which is how peers started at once with one name end at one table.
//
// The wire: lobby messages are KindLobby frames of JSON (msg.go), each
// checked by decodeLobbyMsg before anything reads it; a malformed one,
// and joins and leaves past a burst of 8 then 2 a second, are transport
// strikes. Every address a peer names goes through p2p.PeerAddrs (the LAN
// filter) before it is dialled, stored or relayed.
//
//	table.go   the seat table: join, leave, remove, colour, ready, bots, rules, start
//	layout.go  where seats sit on the board: two players opposite
//	run.go     Run: its config, the loop, frames in
//	find.go    which table to sit at: hosts proven before they are joined; a lone creator gathers
//	host.go    the creator's side: the Table's decisions relayed to guests and the screen
//	member.go  the guest's side: join, roster, start, the game's result
//	control.go Control: the player's changes while the lobby runs
//	pace.go    Pace: the bots' pace at the table and its wire form
//	info.go    Query and Info: a creator names its table on p2p's info stream
//	listing.go the lobby's list of games from adverts: unverified until a connection proves the host
//	msg.go     lobby messages and their parser
//	churn.go   a peer's joins and leaves, rate-limited; the peers the creator removed
//
// lobby must never: open a socket or listen itself (p2p does, on the LAN
// only), trust a peer's request or advert (every request is checked
// against the table as it is; every advert is proven by a connection
// before it counts), join or hand a table over because of a peer ID, let
// a peer's traffic grow its memory without bound (joins, probes, proven
// tables, removed peers are all capped), or let the table grow past four
// seats and the few fields each holds. Table never touches the network,
// a file or a clock.
package lobby
