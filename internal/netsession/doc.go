// Package netsession is the glue between the protocol and the screen: it
// implements ui.Session over a lockstep.Node, so every game the interface
// shows, even one person against bots, is played through the real
// commit-reveal protocol and leaves a log that `aeroplane verify` accepts.
//
// Pieces, bottom up:
//
//	translate.go  lockstep Ready (Events + State) → ui events, and ui
//	              commands (Roll, Choose) → node intents; no IO, no driver
//	queue.go      a never-blocking event channel, optionally paced
//	gamelog.go    a local game's durable log: header, records, fsync; one
//	              that fails is reported once and the game goes on
//	local.go      LocalSession: one person + bot seats, lockstep.Driver over
//	              a link to nobody: no network at all
//	net.go        NetSession: commands over p2p (lobby, chat, moves)
//	link.go       TransportLink: a p2p.Transport as a lockstep.Link (game
//	              frames to the driver, chat to the chat, the lobby's
//	              leftovers first); Game: a lockstep.Driver over it, for
//	              NetSession and `aeroplane --headless`
//	netgame.go    NetSession: p2p.RunLobby, then a Game with a Translator
//	netlobby.go   NetSession: LobbyUpdates from mDNS adverts and manual connects
//	resume.go     NetSession: at start, the game a crash cut short, taken up again
//
// netsession must never open a network listener itself (only p2p does, and
// only NetSession asks it to), touch the terminal, decide game rules
// (engine and lockstep do), or let a command that makes no sense now change
// anything: such a command returns an error and the node is left untouched.
package netsession
