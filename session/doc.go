// Package session is a game's lifecycle (lobby → game → rematch, LAN and
// local) between the protocol and whoever plays: it implements ui.Session
// over a lockstep.Node, for the screen and for `aeroplane --headless`
// alike, so every game, even one person against bots, is played through
// the real commit-reveal protocol and leaves a log that `aeroplane verify`
// accepts.
//
// Every game's files (its log, the dice secret, finding the game a crash
// cut short, marking games closed) are package savegame's: LocalSession
// and NetSession write their logs with the same savegame.Log and the same
// policy (each Ready's entries written at once, fsynced lazily, the
// Setup's at once), and NetSession's start takes up the game
// savegame.Find finds, beside the lobby.
//
// Pieces, bottom up:
//
//	translate.go  lockstep Ready (Events + State) → ui events, and ui
//	              commands (Roll, Choose) → node intents; no IO, no driver;
//	              History: a resumed game's past, replayed from its log
//	replay.go     ReplayOf: a verified log as ui.RunReplay steps through it
//	explain.go    what the lobby, the game log and the protocol refuse, in
//	              the player's words (ui.Error keys, translated by ui)
//	queue.go      a never-blocking event channel, optionally paced; a
//	              queued LobbyUpdate gives way to a newer one
//	locallog.go   a local game's log: one that fails is reported once and
//	              the game goes on
//	local.go      LocalSession: one person + bot seats, lockstep.Driver over
//	              a link to nobody: no network at all
//	net.go        NetSession: commands over p2p (lobby, chat, moves)
//	link.go       TransportLink: a p2p.Transport as a lockstep.Link (game
//	              frames to the driver, chat to the chat, the lobby's
//	              leftovers first); Game: a lockstep.Driver over it, for
//	              NetSession and `aeroplane --headless`
//	netgame.go    NetSession: lobby.Run, then a Game with a Translator;
//	              the one rematch rule: the creator reopens the table with
//	              the same seats, bots and rules, the others look for it
//	              asking for their colour
//	observe.go    Observer (every game's raw lockstep Readies, its start
//	              and end) and Enter/Resume: what `--headless` drives the
//	              same NetSession with, a bot answering its choices
//	setupwait.go  NetSession: a game whose setup is not confirmed within
//	              SetupWait is abandoned and everyone goes back to the table
//	netleave.go   NetSession: Leave (ui.Leaver: sign it and return; the
//	              game lingers until the others hold it, then LeaveDone), GoOn and EndGame (ui.GoOner: the lone
//	              player's answers)
//	netchat.go    NetSession: the game's chat saved beside its log and
//	              shown again on resume; a player back on the network
//	              mid-game is catching up (ui.CatchingUp)
//	netlobby.go   NetSession: LobbyUpdates from mDNS adverts and manual connects,
//	              one per 200 ms at most; advertised names last as the adverts
//	takeseat.go   NetSession.TakeSeat: a late arrival reads a player's log
//	              (checked), picks a seat a bot flies, is admitted to the
//	              game protocol by a take request (takewire.go; the players'
//	              watch server admits it as a p2p guest) and plays the seat
//	              as lockstep's newcomer; the players name it once seated
//	resumeseats.go  a game taken up from its log (after a crash, or
//	              continued another day) shows, names and admits the
//	              newcomers its log seats (savegame.Saved.Seats)
//	webseat.go    NetSession.ServeWeb: the browsers of package web sit at
//	              this program's table as people of their own (their lobby
//	              commands said through lobby.Control's *Via calls), and in
//	              the game a Hub relays each one's signed frames: as its
//	              seat's to the other programs (KindSeat), and every frame
//	              for it to the browser (GameConfig.SeatHosts, Relay)
//	netpeople.go  NetSession.AddPerson: more people of this program at a LAN
//	              table (hot seat), each a seat it hosts as a web player's
//	              (the lobby's *Via calls, SeatHosts), its node run here over
//	              the game's Hub with its own log and secret (savegame
//	              CreateSeat, ResumeSeat); the screen's keys go to the node
//	              of the person whose turn it is (actSeats, hotseat.go)
//
// session must never open a network listener itself (only p2p does, and
// only NetSession asks it to), touch the terminal, decide game rules
// (engine and lockstep do), or let a command that makes no sense now change
// anything: such a command returns an error and the node is left untouched.
package session
