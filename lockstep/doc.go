// Package lockstep is the game protocol of aeroplane: cheat-resistant dice
// among friends and a turn order every peer agrees on, as a pure state
// machine in the style of etcd raft's RawNode. PROTOCOL.md in this
// directory describes the messages, the states, the failure handling, why it
// is safe and the threat table.
//
// It must never touch the network, a file, a clock, a goroutine or a random
// source: inputs are peer messages (Step), local intents (Roll, Choose,
// Leave, GoOn) and abstract time (Tick); everything it wants done comes out
// of Ready. The caller supplies the entropy of the player's hash chain.
//
// # Driving a Node (what p2p does)
//
//	setup := lockstep.Setup{Version: lockstep.Version, Name: lobby,
//		Seats: []lockstep.Seat{{Colour: engine.Red, Player: idA}, {Colour: engine.Yellow, Player: idB},
//			{Colour: engine.Blue, Bot: "random"}},
//		Rules: rules, Nonce: nonce}           // identical bytes on every peer: Setup.Encode / DecodeSetup
//	var ent [32]byte; crypto/rand.Read(ent[:])  // keep it PRIVATE (0600 file): Restore needs it, the log never holds it
//	n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: myID, Key: myPrivKey, Entropy: ent, AutoRoll: true})
//	f.Write(lockstep.LogHeader())                // a new log file
//	loop {
//		select { case m := <-net: n.Step(m.From, m.Data)      // every received frame (errors: log and drop)
//		         case <-ticker(100ms): n.Tick()               // resends and absence count ticks
//		         case ui intent: n.Roll() / n.Choose(move)    // Choose on EventYourMove
//		                         / n.Leave() / n.GoOn() }     // quit for good / go on without the missing
//		for n.HasReady() {
//			rd := n.Ready()
//			f.Write(lockstep.EncodeRecords(rd.LogEntries...))  // written BEFORE sending; fsync lazily (once a tick)
//			for _, e := range rd.Messages { send(e.To, e.Data) }  // To == "": every other player
//			show(rd.Events, rd.State)
//			n.Advance(rd)
//		}
//	}
//
// After a crash: records, err := lockstep.ReadLog(f); if errors.Is(err,
// lockstep.ErrTornTail), keep the records and truncate the file at the
// *LogError's Offset; any other error means the log is corrupt. Then
// n, err := lockstep.Restore(cfg, records) with the same Config (same Key
// and Entropy) and go on driving it: it fetches back from the others the
// messages of its own that a machine crash took from the log (signing
// nothing new until it has them: EventRecovered), re-sends what others
// lack, catches up, and if it was voted absent meanwhile it asks for its
// seat back by itself. lockstep.Verify(data) re-checks a whole log file.
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
// EventLeft, EventAloneDecision, EventHalted and
// EventGameOver (ranking and the history hash, equal on every honest peer:
// print it as the game's final hash).
package lockstep
