package lockstep

import (
	"fmt"
	"strings"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// EventKind says what an Event reports.
type EventKind uint8

// The events a Node reports, in the order they happen.
const (
	EventSetupConfirmed EventKind = iota + 1 // every player confirmed the Setup
	EventGameStarted                         // roll 0 chose the first player (Colour)
	EventWaiting                             // the game waits for Peers' input for roll Roll (told when that changes, after a restore, and when a paused game goes on)
	EventYourRoll                            // the local player is to roll: call Roll (not sent with AutoRoll)
	EventRolled                              // roll Roll came up Value for Colour
	EventYourMove                            // the local player must Choose one of Moves
	EventMoved                               // Colour played Move with roll Value; Result says what happened
	EventTurnPassed                          // the dice pass to Colour
	EventAbsent                              // Peer is absent: a bot flies its seat (Colour) from Roll on
	EventReturned                            // Peer is back and flies its seat again from Roll on
	EventCheating                            // Peer (the culprit) did Cheat; Detail says what
	EventStateMismatch                       // Peer's state hash for Roll differs from ours
	EventHalted                              // the game cannot go on safely; Detail says why
	EventGameOver                            // Ranking is the finishing order, History the agreed history hash
	EventRolledBack                          // the node undid its tentative steps back to roll Roll (it had gone on while the others voted Peer absent)
	EventRecovered                           // a restored node has its own messages back from the others and signs again; Peers lists the players it gave up waiting for (none: all answered)
	EventLeft                                // Peer left the game (Node.Leave): a bot flies its seat (Colour) from Roll on, for good
	EventAloneDecision                       // every present player voted Peers absent at roll Roll but they are no majority: keep waiting, or call GoOn (Detail says more)
	EventSeatTaken                           // Peer, a newcomer, flies the seat Colour from roll Roll on (Detail: whom it took it from)
	EventSeatRefused                         // Peer's request for the seat Colour from roll Roll is refused (Detail says why)
	EventPeerRestored                        // Peer's program was restored from its log and is catching up (its status frames say so; once per restore)
	EventPauseAsked                          // Peer paused the game from roll Roll and asks the others to pause too (Node.Pause)
	EventPauseLifted                         // Peer lifted its pause (Node.Continue)
	EventPaused                              // every present player (Peers) paused: the game stops at roll Roll until they continue (Detail says so)
)

var eventNames = [...]string{"", "setup-confirmed", "game-started", "waiting", "your-roll", "rolled", "your-move",
	"moved", "turn-passed", "absent", "returned", "cheating", "state-mismatch", "halted", "game-over", "rolled-back", "recovered",
	"left", "alone-decision", "seat-taken", "seat-refused", "peer-restored",
	"pause-asked", "pause-lifted", "paused"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k > 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Cheat names a kind of misbehaviour the protocol detects.
type Cheat uint8

// The detected misbehaviours (PROTOCOL.md, threat table).
const (
	CheatBadReveal    Cheat = iota + 1 // a link that does not hash to the committed chain
	CheatCopiedChain                   // an anchor equal to another player's
	CheatOutOfTurn                     // a move when the sender's seat is not to move
	CheatIllegalMove                   // a move the engine rejects
	CheatWrongSeat                     // a move for a seat the sender does not own
	CheatEquivocation                  // two different signed messages with one sequence number
	CheatBadSignature                  // a frame whose signature does not verify (named: the peer that handed it over)
	CheatBadLink                       // a message whose previous-hash link is wrong
	CheatBadMessage                    // a message out of place (wrong roll, missing move, bad vote)
	CheatStaleMessage                  // a replayed or stale message (ignored)
	CheatBadLeave                      // a leave naming a roll it revealed (or not its next one), a second leave, or any message after leaving
	CheatSeatHeld                      // a take for a seat a person holds
	CheatNoSeat                        // a newcomer flying a seat without an agreed take
	CheatBadTake                       // a take changing its seat or chain, asking twice at once, or too often
)

var cheatNames = [...]string{"", "bad-reveal", "copied-chain", "out-of-turn", "illegal-move", "wrong-seat",
	"equivocation", "bad-signature", "bad-link", "bad-message", "stale-message", "bad-leave", "seat-held", "no-seat", "bad-take"}

func (c Cheat) String() string {
	if int(c) < len(cheatNames) && c > 0 {
		return cheatNames[c]
	}
	return fmt.Sprintf("cheat(%d)", uint8(c))
}

// Event is one thing that happened. Only the fields its Kind documents are set.
type Event struct {
	Kind    EventKind
	Roll    uint64 // roll index (0 chooses the first player)
	Value   int    // die face 1..6
	Colour  engine.Colour
	Peer    peer.ID
	Peers   []peer.ID
	Move    engine.Move
	Moves   []engine.Move
	Result  engine.Result
	Cheat   Cheat
	Detail  string
	Ranking []engine.Colour
	History [32]byte
	Pos     engine.Position // EventMoved: the position after the move
}

// ShortID is the one short form of a peer ID in every log line and event
// text (p2p's ShortID is the same rule): its last 8 characters, which
// tell the players of a table apart and grep across every peer's log.
func ShortID(id peer.ID) string {
	if id == "" {
		return "-"
	}
	s := id.String()
	if len(s) > 12 {
		return s[len(s)-8:]
	}
	return s
}

func short(id peer.ID) string { return ShortID(id) }

// shortList is short of each ID, comma-separated.
func shortList(ids []peer.ID) string {
	ps := make([]string, len(ids))
	for i, id := range ids {
		ps[i] = short(id)
	}
	return strings.Join(ps, ",")
}

// String is a one-line description for logs and headless peers.
func (e Event) String() string {
	switch e.Kind {
	case EventGameStarted:
		return fmt.Sprintf("game-started first=%s", e.Colour)
	case EventWaiting:
		return fmt.Sprintf("waiting roll=%d for=%s", e.Roll, shortList(e.Peers))
	case EventYourRoll:
		return fmt.Sprintf("your-roll roll=%d", e.Roll)
	case EventRolled:
		return fmt.Sprintf("rolled roll=%d colour=%s value=%d", e.Roll, e.Colour, e.Value)
	case EventYourMove:
		return fmt.Sprintf("your-move roll=%d value=%d moves=%v", e.Roll, e.Value, e.Moves)
	case EventMoved:
		return fmt.Sprintf("moved roll=%d colour=%s value=%d move=%s", e.Roll, e.Colour, e.Value, e.Move)
	case EventTurnPassed:
		return fmt.Sprintf("turn-passed to=%s", e.Colour)
	case EventAbsent, EventReturned, EventLeft:
		return fmt.Sprintf("%s peer=%s colour=%s from-roll=%d", e.Kind, short(e.Peer), e.Colour, e.Roll)
	case EventSeatTaken, EventSeatRefused:
		return fmt.Sprintf("%s peer=%s colour=%s from-roll=%d: %s", e.Kind, short(e.Peer), e.Colour, e.Roll, e.Detail)
	case EventCheating:
		return fmt.Sprintf("cheating peer=%s kind=%s: %s", short(e.Peer), e.Cheat, e.Detail)
	case EventStateMismatch:
		return fmt.Sprintf("state-mismatch peer=%s roll=%d: %s", short(e.Peer), e.Roll, e.Detail)
	case EventHalted:
		return "halted: " + e.Detail
	case EventPeerRestored:
		return fmt.Sprintf("peer-restored peer=%s", short(e.Peer))
	case EventPauseAsked, EventPauseLifted:
		return fmt.Sprintf("%s peer=%s roll=%d", e.Kind, short(e.Peer), e.Roll)
	case EventPaused:
		return fmt.Sprintf("paused roll=%d by=%s", e.Roll, shortList(e.Peers))
	case EventAloneDecision:
		return fmt.Sprintf("alone-decision roll=%d missing=%s", e.Roll, shortList(e.Peers))
	case EventGameOver:
		var b []byte
		for _, c := range e.Ranking {
			b = append(b, c.Letter())
		}
		return fmt.Sprintf("game-over ranking=%s history=%x", b, e.History)
	}
	return e.Kind.String()
}
