// Package lobby is the table before a game: who sits where, which seats
// bots fly, the rules, who is ready, and when the game may start. Table
// is its pure core: a value that the creator's program changes in
// answer to its own player's keys and to its guests' requests, and from
// which it builds the lockstep.Setup that every player then confirms.
//
// A Table decides; it never waits, sends, logs or reads a clock. Every
// method either changes the table and bumps its Version (which clears
// every ready: a ready is for one version of the table, so any change of
// seats or rules asks everyone again) or returns an error that says what
// the player can do, and leaves the table as it was. Its rules are the
// lobby's whole policy, so they are tested here without a network.
//
//	table.go   the seat table: join, leave, colour, ready, bots, rules, start
//	layout.go  where seats sit on the board: two players opposite
//
// lobby must never: touch the network, a file or a clock; trust a peer's
// request (every request is checked against the table as it is); or let
// the table grow past four seats and the few fields each holds.
package lobby
