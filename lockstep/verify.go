package lockstep

import (
	"fmt"

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
}

// Verify re-checks a whole game log: every record's checksum, every
// signature and hash link, every reveal against its chain, every roll
// derivation, every move against the engine and every state hash. A log
// that does not pass is rejected with the byte offset and the reason.
func Verify(data []byte) (*Verification, error) {
	recs, err := ParseLog(data)
	if err != nil {
		return nil, err
	}
	return VerifyRecords(recs)
}

// VerifyRecords is Verify over records already read.
func VerifyRecords(recs []Record) (*Verification, error) { return verifyRecords(recs, nil) }

// verifyRecords takes the signature check of simulations (nil: Ed25519).
func verifyRecords(recs []Record, verify func(peer.ID, []byte, []byte) bool) (*Verification, error) {
	if len(recs) == 0 || recs[0].Type != RecordSetup {
		return nil, fmt.Errorf("log: no setup record")
	}
	setup, err := DecodeSetup(recs[0].Data)
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
	v := &Verification{Setup: setup, GameID: n.gid, Records: len(recs), Phase: n.g.phase, Pos: n.g.pos,
		History: n.g.hist, Events: n.events}
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
