// Package lockstep is the game protocol of aeroplane: cheat-resistant dice
// among friends and a turn order every peer agrees on, as a pure state
// machine in the style of etcd raft's RawNode. PROTOCOL.md in this
// directory describes the messages, the states, the failure handling, why it
// is safe and the threat table.
//
// The Node must never touch the network, a file, a clock, a goroutine or a
// random source: inputs are peer messages (Step), local intents (Roll,
// Choose, Leave, GoOn) and abstract time (Tick); everything it wants done
// comes out of Ready. The caller supplies the entropy of the player's hash
// chain.
//
// # The driver (driver.go, driver_lanes.go, driver_clock.go)
//
// Driver is the one loop that runs a Node, beside it as etcd raft's node.go
// sits beside rawnode.go; every program (the libp2p game, the local game,
// the cheating test client, the benchmarks) drives its Node through it and
// no other code calls Advance. It reaches the world only through two small
// interfaces it defines, Link (send a frame to one player or all, receive
// frames, hear of reachability) and Log (write records, sync them), and
// keeps its one clock behind DriverConfig.Clock:
//
//	n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: myID, Key: myPrivKey, Entropy: ent, AutoRoll: true})
//	// or lockstep.Restore(cfg, records) after a crash
//	d, err := lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: glog, OnReady: show})
//	go func() { _ = d.Do(func(n *lockstep.Node) error { return n.Choose(m) }) }() // intents, from any goroutine
//	state, err := d.Run(ctx) // until the end (and Linger after it) or ctx
//
// Each turn of its loop: every Ready's LogEntries are written to the Log
// before any of its Messages goes to the Link, then OnReady sees it, then
// Advance; frames from the Link are checked for signatures on
// VerifyLanes goroutines (one lane per sender, so each sender's order is
// kept) before Step; ticks go to Tick; Do runs actions on the loop's
// goroutine. The log is synced as DriverConfig.Sync says: SyncLazy (the
// product: the Setup record at once, the rest once a tick and at the end;
// what a machine crash takes from the tail the restored node fetches back
// before it signs anything new), SyncEveryMessage, or SyncNone
// (benchmarks). After the end it lingers, answering a peer that is still
// catching up.
//
// The driver must never: send a Ready's messages before its records are
// written, go on after a failed write or sync, hand the Node a frame
// whose signature nobody checked (a frame the Verifier cannot vouch for
// goes to Step, which checks it and names the cheat), block a Do for ever
// once it has stopped, or own a socket or a file (its Link and Log do).
//
// # Setting a game up
//
// ExampleNewNode (example_test.go) steps two Nodes by hand, as the Node's
// own tests do; programs use a Driver.
//
//	setup := lockstep.Setup{Version: lockstep.Version, Name: lobby,
//		Seats: []lockstep.Seat{{Colour: engine.Red, Player: idA}, {Colour: engine.Yellow, Player: idB},
//			{Colour: engine.Blue, Bot: "random"}},
//		Rules: rules, Nonce: nonce}           // identical bytes on every peer: Setup.Encode / DecodeSetup
//	var ent [32]byte; crypto/rand.Read(ent[:])  // keep it PRIVATE (0600 file): Restore needs it, the log never holds it
//
// After a crash: records, err := lockstep.ReadLog(f); if errors.Is(err,
// lockstep.ErrTornTail), keep the records and truncate the file at the
// *LogError's Offset; any other error means the log is corrupt. Then
// n, err := lockstep.Restore(cfg, records) with the same Config (same Key
// and Entropy) and go on driving it (Driver): it fetches back from the others the
// messages of its own that a machine crash took from the log (signing
// nothing new until it has them: EventRecovered), re-sends what others
// lack, catches up, and if it was voted absent meanwhile it asks for its
// seat back by itself. lockstep.Verify(data) re-checks a whole log file:
// it rejects a log with records missing (ErrLogGap) and accepts a log cut
// by a crash as an unfinished game (Verification.Torn, Awaiting).
// TornTail is the one rule telling a torn tail from corruption.
//
// # Nobody is ever stuck: leaving and going on alone
//
// What a client wires (PROTOCOL.md, "Leaving" and "Alone at the table"):
//
//   - Node.Leave() error: the local player quits for good (a key like q, a
//     window closed). Its seat is flown by its bot from its next
//     unrevealed roll on every peer, with no vote and no wait. Afterwards
//     the node signs nothing (Roll, Choose, GoOn return ErrLeft) but must
//     keep running a little, answering status frames, so the others get
//     the message: keep driving it until Node.LeaveDelivered() (every
//     other player's status frame counts the Leave), or a few seconds
//     (a player that is gone never says so). Every peer reports EventLeft (Peer,
//     Colour, Roll): "bob left: a bot flies Blue".
//   - Node.Pause() error: the local player asks to stop the game for
//     everyone (PROTOCOL.md, "Pausing together"); the others get
//     EventPauseAsked (Peer, Roll): "ann asks to pause". A player that
//     pauses alone is voted absent as usual. When every present player
//     paused, EventPaused once and State.Paused: nothing moves, and the
//     driver may stop, keeping the log unfinished. Node.Continue() error
//     lifts the pause (after a restore too: a node restored from a log
//     with its own unlifted pause stays paused); EventPauseLifted on the
//     others. While paused, Roll and Choose return ErrPaused.
//   - EventAloneDecision (Peers: the missing players, Roll): every present
//     player voted them absent but they are no majority (two at the table,
//     one gone; two of four gone). State.Missing lists them while the
//     decision is open. Offer "keep waiting / go on": doing nothing waits;
//     Node.GoOn() error goes on (ErrNoDecision when nothing is open any
//     more). Config.GoOnAlone decides "go on" by itself (headless peers).
//     The missing players come back with the usual readmission
//     (EventReturned).
//   - State.SoloDice: one player's link alone makes the rolls, so that
//     player can foresee them until another player is back; show it.
//   - EventGameOver.Detail is set when the game ended while going on
//     without someone: if the other half of a split went on too, the
//     result is settled when they meet (one side gets EventRolledBack and
//     plays on), so a driver should show it as provisional and may linger.
//   - Cheats: CheatBadLeave (a leave naming a wrong roll, a second leave,
//     anything signed after leaving); a leave for another's seat is
//     CheatWrongSeat.
//
// # A late arrival takes a seat
//
// A peer in no seat of the Setup runs a Node with Config.Take (the colour
// of a seat a bot flies: a bot seat or a left player's) and Self its own
// ID, driven like any other (Driver): it says hello (a Take for roll 0
// committing its chain), catches up from the players' answers to its
// status frames, checking everything as it goes, and asks for the seat a
// few rolls ahead. The players vote on it by themselves (binding seat
// votes, like a return); from the agreed roll on the newcomer is a
// player: EventSeatTaken on every peer (EventSeatRefused when a vote
// said no or the seat is a person's), its own node then signs and
// chooses like any player's. Node.Seats and Verification.Seats say who
// flew each seat from which roll. Cheats: CheatNoSeat, CheatSeatHeld,
// CheatBadTake, CheatCopiedChain (PROTOCOL.md, "Taking a seat").
//
// # Identity and setup
//
// Players are libp2p peers: Ed25519 keys (core/crypto) and peer IDs
// (core/peer). A Setup lists the seats (colour, owning peer or bot kind), the
// rules, the protocol version, the lobby name and a nonce; GameID is SHA-256
// over a domain tag and Setup.Encode. Every message carries the GameID, so a
// confirmation is a signature over exactly that setup. The game starts when
// every player has confirmed; the first player is chosen by roll 0 of the
// shared dice.
//
// # Dice
//
// Each player commits in its Confirm to the anchor of a hash chain bound to
// the game ID and its peer ID, and reveals one link per roll, only after the
// move before that roll has been applied. A roll is SHA-256 over every
// present player's link in seat order, sampled into 1..6 by rejection
// (DeriveRoll). Bot seats roll the same shared dice and choose with a seed
// derived from the roll, identically on every peer.
//
// # Events
//
// Ready.Events tell the driver what happened, in order: EventSetupConfirmed,
// EventGameStarted (first player), EventWaiting (whose input is awaited),
// EventYourRoll (without AutoRoll the local player must Roll: every roll of
// its own, the extra roll after its own 6 too), EventRolled, EventYourMove (the local player must Choose), EventMoved (with
// engine.Result), EventTurnPassed, EventAbsent (a bot plays the seat from a
// roll on), EventReturned, EventCheating (culprit, kind, detail),
// EventStateMismatch, EventRolledBack (this node had gone on alone while the
// others voted it absent, or the halves of a split met and its branch was
// the one undone, and undid those tentative steps), EventRecovered,
// EventLeft, EventAloneDecision, EventSeatTaken, EventSeatRefused,
// EventPeerRestored (another player's program restarted and catches up),
// EventHalted and
// EventGameOver (ranking and the history hash, equal on every honest peer:
// print it as the game's final hash).
package lockstep
