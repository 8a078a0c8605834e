package lockstep

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Verification is what re-checking a game log found.
type Verification struct {
	Setup   Setup
	GameID  GameID
	Records int
	Phase   Phase           // PhaseOver for a finished game
	Pos     engine.Position // the final (or latest) position
	Rolls   uint64          // rolls played after the first-player roll
	Ranking []engine.Colour // the finishing order of a finished game
	History [32]byte        // the agreed history hash, equal on every honest peer's log
	// Events is the game as an observer replays it: every roll, move (with
	// the position after it), absence and detected misbehaviour.
	Events []Event
	// Cheats lists the misbehaviour the log holds evidence of; such inputs
	// were never applied.
	Cheats []Event
	// Seats lists who flew each seat from which roll: the setup's owners
	// (or bots) from roll 0, then every seat a newcomer took (takeseat.go).
	Seats []SeatOwner
	// Awaiting are the players whose input an unfinished game (PhaseSetup,
	// PhaseReveal, PhaseMove) waits for at the end of the log.
	Awaiting []peer.ID
	// Paused: the game is unfinished because every present player paused
	// it (pause.go) at roll PausedAt; their programs may continue it.
	Paused   bool
	PausedAt uint64
	// Torn is the torn tail the file ends in (TornTail), nil for none:
	// the records before it are the ones checked, as the game keeps them
	// when it resumes.
	Torn *LogError
	// TailAltered is set when the torn tail is a record whose every byte
	// was written (it runs exactly to the end of the file, not ending in
	// zeros) and still fails its checksum: a crash cuts a record short or
	// leaves zeros, it does not rewrite whole bytes, so the file was
	// changed after it was written. The game still drops it as torn on
	// resuming (TornTail is the one rule); verify reports it as damage.
	TailAltered bool
}

// Verify re-checks a whole game log: every record's checksum, every
// signature and hash link, every reveal against its chain, every roll
// derivation, every move against the engine and every state hash. A log
// that does not pass is rejected with the byte offset and the reason.
//
// A log is accepted when it is whole: a finished game, a halted one, or
// an unfinished game that is what a crash or a game still in play leaves,
// that is every record applies in order, the file ends cleanly or in a
// torn tail (Verification.Torn), and the end is a point some player's own
// log could have stopped at (see endGap). Records missing from the middle
// are rejected (wrapping ErrLogGap). A log cut cleanly after any record
// is a crash's log and is accepted as unfinished: no check can tell it
// from one, which is why an unfinished game is reported as such.
func Verify(data []byte) (*Verification, error) {
	recs, err := ParseLog(data)
	var torn *LogError
	if err != nil && (!errors.As(err, &torn) || !torn.Torn || len(recs) == 0) {
		return nil, err
	}
	v, err := VerifyRecords(recs)
	if err != nil {
		return nil, err
	}
	v.Torn = torn
	v.TailAltered = torn != nil && wholeRecord(data, torn.Offset)
	return v, nil
}

// wholeRecord reports whether the record framed at byte off runs exactly
// to the end of data and its last byte is not zero: every byte of it was
// written.
func wholeRecord(data []byte, off int64) bool {
	if off < logHeaderSize || off+8 > int64(len(data)) {
		return false
	}
	n := int64(binary.BigEndian.Uint32(data[off:]))
	return n >= 1 && n <= MaxRecordSize && off+8+n == int64(len(data)) && data[len(data)-1] != 0
}

// Damage locates, for a person, where a log that Verify rejected with err
// goes bad: the byte offset and the roll in play there (the records
// before it replayed as far as they go). ok is false for an error that
// is about no one spot (no setup, records missing at the end).
func Damage(data []byte, err error) (offset int64, roll uint64, ok bool) {
	var re *RecordError
	if errors.As(err, &re) {
		return re.Offset, re.Roll, true
	}
	var le *LogError
	if !errors.As(err, &le) {
		return 0, 0, false
	}
	recs, _ := ParseLog(data)
	return le.Offset, rollAfter(recs), true
}

// rollAfter is the roll in play after the good records recs (0 when there
// is no valid setup among them, or none replays).
func rollAfter(recs []Record) uint64 {
	if len(recs) == 0 || recs[0].Type != RecordSetup {
		return 0
	}
	setup, err := decodeSetup(recs[0].Data, true)
	if err != nil {
		return 0
	}
	n, err := newNode(Config{Setup: setup})
	if err != nil {
		return 0
	}
	_ = n.replay(recs[1:]) // as far as it goes: the damage is reported by the caller
	return n.g.k
}

// VerifyRecords is Verify over records already read.
func VerifyRecords(recs []Record) (*Verification, error) { return verifyRecords(recs, nil) }

// verifyRecords takes the signature check of simulations (nil: Ed25519).
func verifyRecords(recs []Record, verify func(peer.ID, []byte, []byte) bool) (*Verification, error) {
	if len(recs) == 0 || recs[0].Type != RecordSetup {
		return nil, fmt.Errorf("log: no setup record")
	}
	setup, err := decodeSetup(recs[0].Data, verify == nil)
	if err != nil {
		return nil, fmt.Errorf("log: setup record at byte %d: %w", recs[0].Offset, err)
	}
	n, err := newNode(Config{Setup: setup, verify: verify})
	if err != nil {
		return nil, err
	}
	if err := n.replay(recs[1:]); err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	if err := n.endGap(); err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	v := &Verification{Setup: setup, GameID: n.gid, Records: len(recs), Phase: n.g.phase, Pos: n.g.pos,
		History: n.g.hist, Events: n.events, Seats: n.Seats()}
	if n.g.phase != PhaseOver && n.g.phase != PhaseHalted {
		v.Awaiting = n.ids(n.g.awaiting())
		v.Paused = n.g.gamePaused()
		if v.Paused {
			v.PausedAt = n.g.k
		}
	}
	if n.g.k > 0 {
		v.Rolls = n.g.k - 1
	}
	for _, e := range n.events {
		switch e.Kind {
		case EventCheating, EventStateMismatch:
			v.Cheats = append(v.Cheats, e)
		case EventGameOver:
			v.Ranking = e.Ranking
		}
	}
	return v, nil
}

// endGap rejects an unfinished game whose log ends where no player's log
// could have: after records that needed an input the log lacks. A player
// writes every message it accepts before it sends anything that depends
// on it, so its own log holds what its own messages needed, and the game
// replayed from it reaches about the step of its latest message. So a log
// that stops at step s waiting for the players W can be player o's when
//   - o is not in W and its messages go at most maxLead steps past s (a
//     player that has sent its input for s stands at s; the lead allows
//     for a node restored after a machine crash, which fetches its own
//     lost messages back before the others' that they answered), or
//   - o is in W (it crashed before sending its input) and every player
//     whose messages go past step s voted o absent (the only way past s
//     without o's input; that vote precedes, in its sender's sequence,
//     the later messages that are here);
//   - or bots fly o's seat (its messages since are stale and not applied).
//
// If no player can be the log's writer, records were removed: typically
// one sender's later messages, which leave no hole in its sequence but
// stop the game while the others' messages go on. A tail of fewer than
// maxLead steps removed from one sender is not told from a crash.
func (n *Node) endGap() error {
	g := &n.g
	if g.phase == PhaseOver || g.phase == PhaseHalted || len(n.players) == 0 {
		return nil
	}
	s, w := g.step(), g.awaiting()
	var ahead *player // the player whose messages go furthest past step s
	for _, p := range n.players {
		if p.reached > s+1 && (ahead == nil || p.reached > ahead.reached) {
			ahead = p
		}
	}
	if ahead == nil {
		return nil
	}
	if n.writerLead() <= maxLead {
		return nil
	}
	var held []string
	for _, i := range n.ids(w) {
		p := n.players[n.pidx[i]]
		held = append(held, fmt.Sprintf("%s's messages end at sequence %d", short(p.id), len(p.msgs)))
	}
	return fmt.Errorf("%w: the game stops at roll %d waiting for %s (%s), yet %s's messages go on to roll %d, which needs that input: the messages after it were removed from the log",
		ErrLogGap, g.k, shortList(n.ids(w)), strings.Join(held, ", "), short(ahead.id), (ahead.reached-1)/2)
}

// maxLead is how many steps past the end of its replayed game a player's
// own messages may go in its log: a node restored after a machine crash
// fetches its own lost messages back (recover.go) before the others' it
// also lost. TestVerifyAcceptsEveryCrashPoint measures the lead.
const maxLead = 40

// writerLead is how many steps past step s the messages of the player
// that can most plausibly have written the log go (see endGap); the
// maximum when none can.
func (n *Node) writerLead() uint64 {
	g := &n.g
	s, w := g.step(), g.awaiting()
	best := uint64(1<<64 - 1)
	for i, o := range n.players {
		switch {
		case o.absent:
			return 0
		case w&(1<<i) == 0:
			best = min(best, max(o.reached, s+1)-(s+1))
		case n.votedPast(i, s):
			return 0
		}
	}
	return best
}

// votedPast reports whether every player whose messages go past step s
// voted player o absent: the only way the others go on without o's input.
func (n *Node) votedPast(o int, s uint64) bool {
	for i, p := range n.players {
		if i == o || p.reached <= s+1 {
			continue
		}
		voted := false
		for _, m := range p.msgs {
			if m.kind == kindAbsent && m.vote == voteAbsent && m.who == n.players[o].id {
				voted = true
				break
			}
		}
		if !voted {
			return false
		}
	}
	return true
}
