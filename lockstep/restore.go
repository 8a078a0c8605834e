package lockstep

import (
	"bytes"
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

// replay feeds logged messages through the same checks as live frames.
func (n *Node) replay(records []Record) error {
	for i, r := range records {
		if r.Type != RecordMessage {
			return fmt.Errorf("record %d at byte %d: unexpected record type %d", i+2, r.Offset, r.Type)
		}
		m, err := decodeMessage(r.Data)
		if err != nil {
			return fmt.Errorf("record %d at byte %d: %w", i+2, r.Offset, err)
		}
		if err := n.receive("", m); err != nil {
			return fmt.Errorf("record %d at byte %d: %w", i+2, r.Offset, err)
		}
		n.progress()
	}
	return nil
}
