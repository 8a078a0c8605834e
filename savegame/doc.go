// Package savegame is where games are saved and found again: the data
// directory and every file in it. It is the one place a file name under
// the data directory is made, the one log type games are written with,
// and the one way a restarted program finds the game to take back.
//
// # What is in the directory
//
//	game-ID.log        the game's log in lockstep's format (public: verify, replay)
//	game-ID.secret     this player's dice entropy, 32 bytes, mode 0600
//	game-ID.closed     the game is not to be resumed, and why ("over", "left on purpose")
//	game-DATE-TIME-ID.log  a game alone with bots (no secret: never resumed)
//	game-take-DATE-TIME-ID.log     a running game this program took a seat in (a newcomer)
//	game-take-DATE-TIME-ID.secret  that newcomer's dice entropy, 32 bytes, mode 0600
//	game-watch-DATE-TIME-ID.log    a game this program watched (no secret: never resumed)
//	current-HEX        a headless --games run: which game of the run is on
//	seat-HEX.key       the seat key of a person playing at this program beside
//	                   its owner (hot seat), a 32-byte Ed25519 seed, mode 0600;
//	                   HEX is the person's name in hex
//	game-ID-seat-PEER.log, .secret  the log and dice entropy of such a person's
//	                   node in a LAN game (PEER its seat's peer ID): resumed with the game
//	.lock              held (flock) by the one running program using the directory
//
// ID is lockstep.GameID.String() (16 hex digits) and HEX the lobby name in
// hex, so no name a peer or a user chooses can reach outside the directory.
//
// # Promises
//
//   - Log: Write appends without waiting for the disk, Sync makes it durable
//     (fsync), lazily; a torn tail (a crash inside an append, or the zeros a
//     machine crash leaves after the file grew) is cut off when the log is
//     reopened, corruption anywhere else is an error. A log is fsynced when
//     opened, so what a killed process left in the page cache is on disk
//     before a restored node takes it as sent.
//   - One running program at a time: Open locks the directory for the
//     process's life, and a second program's Open fails with ErrInUse
//     (two programs on one directory are one player twice, who would
//     never see itself on the LAN).
//   - The directory is fsynced after every file is created, linked, renamed
//     or removed in it, so a machine crash cannot take the name of a file
//     whose contents survived (a log without its secret).
//   - Create checks a game completely before it writes anything: a game ID
//     whose log already holds a record, or that was closed, is refused, and
//     an existing secret is never overwritten (it is kept when the log holds
//     no record, since nothing was committed with it yet). So a creator who
//     replays an old game's Setup cannot make a player lose that game's
//     secret, nor restore the old log with new dice.
//   - Find is the one way to the game to resume (the interactive client and
//     headless both use it): the newest game of this player, not closed,
//     with at least one record, written to within ResumeWithin; logs it
//     cannot use are skipped and said why. A newcomer's log counts when its
//     own account seats this player (lockstep's Seats): it resumes the seat
//     it took (Saved.Take) with the secret beside that log.
//   - Paused lists every unfinished game of this player's to continue
//     another day, its take logs among them on the same terms as Find's
//     (the log seats this player; the secret beside it), each game once;
//     Saved.Players are who held a seat when the log stopped (a newcomer
//     in place of the bot or the player who left), Saved.Members the
//     peers a game taken up admits.
//   - CreateTaken writes the newcomer's secret before its log, as Create
//     does a player's: a newcomer killed mid-game resumes its seat.
//
// # What it must never do
//
// It never touches the network, never imports p2p, session, ui or cli,
// never writes outside its directory, never deletes a log or a secret, and
// never panics on a damaged or hostile file: such a file is skipped or
// refused with an error that says what the user can do.
//
// # Files
//
//	dir.go      Dir: open or create the directory, file names, directory fsync
//	log.go      Log: the append-only game log, torn-tail repair, lazy fsync
//	secret.go   the 0600 dice secret, created exclusively (write, fsync, link)
//	game.go     Create (a new game) and Resume (a saved one); MarkClosed
//	find.go     Find: the game to resume; Saved, its players and members
//	paused.go   Paused: the games to continue another day
//	seatgame.go CreateSeat, ResumeSeat: a hot-seat person's own log and secret
//	playernames.go  the players' names beside the log (game-ID.names), so a
//	            resumed game shows people by name; read bounded, bad lines skipped
//	run.go      the headless --games run pointer and its parser
package savegame
