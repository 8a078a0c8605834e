package lockstep

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/libp2p/go-libp2p/core/peer"
)

// RecordType is the kind of one log record.
type RecordType uint8

// Record types of the durable log.
const (
	RecordSetup   RecordType = 1 // Setup.Encode of the game; always the first record
	RecordMessage RecordType = 2 // one accepted signed message, exactly as received
)

// Record is one entry of the durable log.
type Record struct {
	Type RecordType
	Data []byte
	// Offset is where the record starts in the file it was read from (set
	// by ReadLog and ParseLog, ignored when writing).
	Offset int64
}

// The log file: the 8-byte magic, a big-endian uint16 format version and two
// reserved zero bytes; then records, each a big-endian uint32 payload
// length, the CRC-32C (Castagnoli) of the payload, and the payload: one
// type byte and the record's data. The file holds only public data (the
// setup and signed messages); the chain entropy stays with the driver.
const (
	logMagic      = "AEROLOG\n"
	logVersion    = 1
	logHeaderSize = 12
	// MaxRecordSize bounds one record's payload; a longer length field is corruption.
	MaxRecordSize = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// LogHeader is the header every log file starts with.
func LogHeader() []byte {
	b := []byte(logMagic)
	b = binary.BigEndian.AppendUint16(b, logVersion)
	return append(b, 0, 0)
}

// EncodeRecords is the bytes that append recs to a log, to be written in one
// write and flushed before the Ready's messages are sent.
func EncodeRecords(recs ...Record) []byte {
	var b []byte
	for _, r := range recs {
		payload := 1 + len(r.Data)
		b = binary.BigEndian.AppendUint32(b, uint32(payload))
		crc := crc32.Update(0, castagnoli, []byte{byte(r.Type)})
		crc = crc32.Update(crc, castagnoli, r.Data)
		b = binary.BigEndian.AppendUint32(b, crc)
		b = append(b, byte(r.Type))
		b = append(b, r.Data...)
	}
	return b
}

// LogError rejects a log: Offset is the byte where the bad part starts.
type LogError struct {
	Offset int64
	Reason string
	// Torn is set when only the last record is incomplete or damaged, as a
	// crash in the middle of an append leaves it: the records before
	// Offset are good, and truncating the file at Offset repairs it.
	Torn bool
}

func (e *LogError) Error() string {
	if e.HeaderTorn() {
		return fmt.Sprintf("log: torn header, no records (%s): the game stopped before the log's header reached disk; there is nothing to verify, and the game rewrites it as an empty log when it starts again", e.Reason)
	}
	if e.Torn {
		return fmt.Sprintf("log: torn last record at byte %d (%s): truncate the file there to resume", e.Offset, e.Reason)
	}
	return fmt.Sprintf("log: corrupt at byte %d: %s", e.Offset, e.Reason)
}

// HeaderTorn reports a file cut inside its header: created, then the
// process died before the header reached disk. It holds no records; a
// writer may truncate it to zero and write the header again.
func (e *LogError) HeaderTorn() bool { return e.Torn && e.Offset == 0 }

// ErrTornTail is wrapped by a LogError whose Torn is set.
var ErrTornTail = errors.New("torn tail")

func (e *LogError) Unwrap() error {
	if e.Torn {
		return ErrTornTail
	}
	return nil
}

// ReadLog reads a whole log. On error it also returns the records before
// the bad spot, and a *LogError with the offset and the reason; a torn
// tail (errors.Is(err, ErrTornTail)) can be dropped by truncating there.
// It never returns a record that did not pass its CRC.
func ReadLog(r io.Reader) ([]Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("log: read: %w", err)
	}
	return ParseLog(data)
}

// ParseLog is ReadLog over bytes in memory.
func ParseLog(data []byte) ([]Record, error) {
	if len(data) < logHeaderSize {
		// A strict prefix of the header is a log whose process died before
		// the header reached disk: torn and empty, not a foreign file.
		if string(data) == string(LogHeader()[:len(data)]) {
			return nil, &LogError{Offset: 0, Reason: fmt.Sprintf("header cut short at %d of %d bytes", len(data), logHeaderSize), Torn: true}
		}
		return nil, &LogError{Offset: 0, Reason: "too short for the header: not an aeroplane game log"}
	}
	if string(data[:8]) != logMagic {
		return nil, &LogError{Offset: 0, Reason: "wrong magic: not an aeroplane game log"}
	}
	if v := binary.BigEndian.Uint16(data[8:]); v != logVersion {
		return nil, &LogError{Offset: 8, Reason: fmt.Sprintf("format version %d, this build reads %d", v, logVersion)}
	}
	if data[10] != 0 || data[11] != 0 {
		return nil, &LogError{Offset: 10, Reason: "reserved header bytes are not zero"}
	}
	return parseRecords(data, logHeaderSize, true)
}

// ParseRecords reads records framed as in a log file, without its header
// and from any point of a log (a batch served to a watcher): every record
// passes its CRC and is a known type, or the error says where it is not;
// a cut-short or damaged last record is an error too, never torn.
func ParseRecords(data []byte) ([]Record, error) {
	recs, err := parseRecords(data, 0, false)
	var le *LogError
	if errors.As(err, &le) && le.Torn {
		le.Torn = false
	}
	return recs, err
}

// parseRecords reads the records of data from off; whole: data is a whole
// log file, whose first record is the setup, and only its first.
func parseRecords(data []byte, off int, whole bool) ([]Record, error) {
	var recs []Record
	for off < len(data) {
		rest := len(data) - off
		if rest < 8 {
			return recs, &LogError{Offset: int64(off), Reason: fmt.Sprintf("record header cut short (%d of 8 bytes)", rest), Torn: true}
		}
		n := int(binary.BigEndian.Uint32(data[off:]))
		crc := binary.BigEndian.Uint32(data[off+4:])
		if n < 1 || n > MaxRecordSize {
			return recs, &LogError{Offset: int64(off), Reason: fmt.Sprintf("record length %d out of range 1..%d", n, MaxRecordSize), Torn: TornTail(data, int64(off))}
		}
		if rest-8 < n {
			return recs, &LogError{Offset: int64(off), Reason: fmt.Sprintf("record needs %d bytes, the file has %d", n, rest-8), Torn: true}
		}
		payload := data[off+8 : off+8+n]
		if got := crc32.Checksum(payload, castagnoli); got != crc {
			return recs, &LogError{Offset: int64(off), Reason: fmt.Sprintf("checksum %08x, record says %08x", got, crc), Torn: TornTail(data, int64(off))}
		}
		t := RecordType(payload[0])
		if t != RecordSetup && t != RecordMessage {
			return recs, &LogError{Offset: int64(off), Reason: fmt.Sprintf("unknown record type %d", t)}
		}
		if whole && (t == RecordSetup) != (len(recs) == 0) {
			return recs, &LogError{Offset: int64(off), Reason: "the setup record must come first, and only once"}
		}
		recs = append(recs, Record{Type: t, Data: append([]byte(nil), payload[1:]...), Offset: int64(off)})
		off += 8 + n
	}
	return recs, nil
}

// TornTail reports whether a record that fails its framing at byte off of
// the log file data (its length field out of range, cut short, or its
// checksum wrong) is a torn tail, what a crash in the middle of an append
// leaves, rather than corruption. It is torn when nothing after it was
// written: the record runs to the end of the file (a process killed
// mid-write), or everything past the record's written bytes to the end of
// the file is zeros (a machine that stopped after the file grew but before
// its new blocks reached the disk: a whole tail of zeros, or a record
// whose header, or header and part of its payload, made it and the rest is
// zeros). A bad record followed by anything else non-zero is corruption:
// bytes after it were written, so it was whole once. Records that pass
// their checksum are never torn. The game's log (savegame.OpenLog) and
// verify both classify with this one rule: what the game cuts off as torn
// on resuming, verify reports as torn, and the reverse.
func TornTail(data []byte, off int64) bool {
	if off < logHeaderSize || off > int64(len(data)) {
		return false
	}
	rest := data[off:]
	if len(rest) < 8 {
		return true
	}
	written := len(bytes.TrimRight(rest, "\x00")) // bytes of rest up to its last non-zero one
	if n := int(binary.BigEndian.Uint32(rest)); n >= 1 && n <= MaxRecordSize {
		return 8+n >= len(rest) || written <= 8+n
	}
	return written <= 8
}

// Sender is the signer and sequence number of a message record, as it
// claims them (ok false for the setup record or undecodable bytes);
// only Verify checks the signature.
func (r Record) Sender() (from peer.ID, seq uint64, ok bool) {
	if r.Type != RecordMessage {
		return "", 0, false
	}
	m, err := decodeMessage(r.Data)
	if err != nil {
		return "", 0, false
	}
	return m.from, m.seq, true
}
