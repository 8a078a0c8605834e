package lockstep

// NewObserver starts a node that plays no seat of setup's game and only
// checks what it is fed: a spectator's referee (and aeroplane verify's).
// Feed it, with Step, the records of a player's log in that log's order
// (Record.Data of each RecordMessage), from the first one on: it checks
// every signature, hash link, reveal against its chain, roll derivation,
// move and state hash as a player does, buffers what comes early, ignores
// what it holds already (so records fetched again from another player's
// log change nothing), and names what is wrong (an error from Step, or
// EventCheating for the evidence a log may hold). Its Ready's LogEntries
// are a log exactly like a player's, which Verify accepts; its Messages
// are always empty: an observer never sends, and Tick does nothing.
func NewObserver(setup Setup) (*Node, error) { return NewNode(Config{Setup: setup}) }

// Observing reports whether the node plays no seat (NewObserver).
func (n *Node) Observing() bool { return n.self < 0 }
