package lockstep

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
}
