package lockstep

import (
	"bytes"
	"errors"
	"fmt"
)

// Restore rebuilds a node from its own durable log after a crash: cfg must
// be the Config the node ran with (same Setup, Key and Entropy). Every
// record is checked again as if it had just arrived. Nothing the log
// already holds is logged or sent again; the node re-sends what others
// lack on its next ticks, and the driver goes on with Ready as usual.
// The log may have lost a tail (recover.go): the node signs nothing new
// until the others have told it what they hold of its messages
// (EventRecovered).
func Restore(cfg Config, records []Record) (*Node, error) {
	n, err := newNode(cfg)
	if err != nil {
		return nil, err
	}
	if len(records) == 0 || records[0].Type != RecordSetup {
		return nil, fmt.Errorf("restore: the log does not start with the game's setup record")
	}
	if !bytes.Equal(records[0].Data, cfg.Setup.Encode()) {
		return nil, fmt.Errorf("restore: the log is of another game than the one configured")
	}
	n.restoring = true
	if err := n.replay(records[1:]); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	n.restoring = false
	n.msgs, n.entries, n.events = nil, nil, nil
	// The events of the replay are dropped, so what the game waits for
	// now is reported again: a screen that starts with this node (another
	// person's turn at a hot seat) learns it from nothing else.
	n.lastWait = waitKey{}
	if n.self >= 0 && n.mySeq == 0 {
		// The crash came before our own Confirm reached the log. It is
		// the same bytes again (the anchor comes from the entropy, and
		// Ed25519 signatures are deterministic), so it needs no recovery.
		if err := n.sendConfirm(); err != nil {
			return nil, err
		}
	}
	n.startRecovery()
	n.progress()
	return n, nil
}

// replay feeds logged messages through the same checks as live frames. A
// node logs a message only when it accepts it, and it accepts each
// sender's messages once and in sequence order (transport.go), so in a
// log every sender's records run 1, 2, 3, ... with no hole and no repeat:
// anything else is a record removed, moved or copied, and is rejected
// here rather than buffered (the records after a hole would never be
// applied, and the log would look like a game merely unfinished).
func (n *Node) replay(records []Record) error {
	for i, r := range records {
		if r.Type != RecordMessage {
			return &RecordError{Record: i + 2, Offset: r.Offset, Roll: n.g.k, Err: fmt.Errorf("unexpected record type %d", r.Type)}
		}
		m, err := decodeMessage(r.Data)
		if err != nil {
			return &RecordError{Record: i + 2, Offset: r.Offset, Roll: n.g.k, Err: err}
		}
		if pi, ok := n.pidx[m.from]; ok && m.game == n.gid {
			if held := uint64(len(n.players[pi].msgs)); m.seq != held+1 {
				return &RecordError{Record: i + 2, Offset: r.Offset, Roll: n.g.k, Err: seqGap(m, held)}
			}
		}
		if err := n.receive("", m); err != nil {
			return &RecordError{Record: i + 2, Offset: r.Offset, Roll: n.g.k, Err: err}
		}
		n.progress()
	}
	return nil
}

// RecordError is a logged record that replay refuses although it passed
// its checksum: Record counts from 1 (the setup), Offset is its byte in
// the file, Roll the roll in play when it came.
type RecordError struct {
	Record int
	Offset int64
	Roll   uint64
	Err    error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("record %d at byte %d, roll %d: %v", e.Record, e.Offset, e.Roll, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// ErrLogGap is wrapped by the error for a log with records missing: a
// hole in one sender's sequence, or (Verify) messages after which an
// input they needed is absent.
var ErrLogGap = errors.New("records are missing from the log")

// seqGap explains a logged message that is not the next of its sender,
// who has held messages before it in the log.
func seqGap(m *message, held uint64) error {
	if m.seq > held+1 {
		missing := fmt.Sprintf("its messages %d to %d are", held+1, m.seq-1)
		if m.seq == held+2 {
			missing = fmt.Sprintf("its message %d is", held+1)
		}
		return fmt.Errorf("%w: %s's %s has sequence %d, but the log holds its messages only up to %d: %s not in the log (removed, or the log was pieced together), and nothing after can be checked",
			ErrLogGap, short(m.from), m.kind, m.seq, held, missing)
	}
	return fmt.Errorf("%s's %s with sequence %d comes again after its message %d: a node logs each message once, in order, so records were copied or moved",
		short(m.from), m.kind, m.seq, held)
}
