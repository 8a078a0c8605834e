package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ProtocolVersion is advertised over mDNS and in the stream protocol ID;
// peers with another version neither see each other's lobbies nor talk.
const ProtocolVersion = "1.0.0"

// ProtocolID names the one long-lived stream between two players.
const ProtocolID = "/aeroplane/" + ProtocolVersion

// MaxFrame caps a frame's length field (kind byte + body). Anything larger
// is an attack or a bug: the stream cannot be resynchronised, so it is reset.
const MaxFrame = 64 << 10

// Kind says what a frame carries. The transport itself consumes the
// heartbeat and goodbye kinds; the others go to the layers above.
type Kind byte

const (
	KindPing  Kind = 1  // heartbeat; body: 8-byte sequence number
	KindPong  Kind = 2  // heartbeat answer; body: the ping's body
	KindBye   Kind = 3  // orderly shutdown: the sender is leaving
	KindGame  Kind = 16 // an opaque lockstep message
	KindChat  Kind = 17 // a chat line (chat.go)
	KindLobby Kind = 18 // a lobby message (package lobby)
	// KindSeat is a game message of one seat of a program that holds
	// several (hot seat): the layer above names the seat that sent it
	// and the seat it is for inside the body; opaque here, as KindGame.
	KindSeat Kind = 19
	// KindSeatChat is a chat line of a seat a program hosts for a key
	// that lives elsewhere (a web player): u8 len ‖ seat ‖ chat body
	// (chat.go); the layer above says which program hosts which seat.
	KindSeatChat Kind = 20
	// KindSeatMove is a seat's own signed word that another program
	// hosts it from now on (a web player whose serving program is gone);
	// opaque here, checked above.
	KindSeatMove Kind = 21
)

func (k Kind) valid() bool {
	switch k {
	case KindPing, KindPong, KindBye, KindGame, KindChat, KindLobby, KindSeat, KindSeatChat, KindSeatMove:
		return true
	}
	return false
}

func (k Kind) String() string {
	switch k {
	case KindPing:
		return "ping"
	case KindPong:
		return "pong"
	case KindBye:
		return "bye"
	case KindGame:
		return "game"
	case KindChat:
		return "chat"
	case KindLobby:
		return "lobby"
	case KindSeat:
		return "seat"
	case KindSeatChat:
		return "seat-chat"
	case KindSeatMove:
		return "seat-move"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// Frame is one message on the wire.
type Frame struct {
	Kind Kind
	Body []byte
}

// Errors of the frame codec. ErrFrameTooLarge and ErrFrameEmpty leave the
// stream unsynchronised; ErrUnknownKind does not (the frame was skipped).
var (
	ErrFrameTooLarge = errors.New("frame too large")
	ErrFrameEmpty    = errors.New("frame without a kind byte")
	ErrUnknownKind   = errors.New("frame of unknown kind")
)

const frameHeader = 4

// AppendFrame appends f's encoding to dst.
func AppendFrame(dst []byte, f Frame) ([]byte, error) {
	n := 1 + len(f.Body)
	if n > MaxFrame {
		return dst, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, MaxFrame)
	}
	if !f.Kind.valid() {
		return dst, fmt.Errorf("%w: %v", ErrUnknownKind, f.Kind)
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(n))
	dst = append(dst, byte(f.Kind))
	return append(dst, f.Body...), nil
}

// DecodeFrame decodes the first frame in b and returns the rest. A short
// buffer gives io.ErrUnexpectedEOF (or io.EOF when b is empty).
func DecodeFrame(b []byte) (Frame, []byte, error) {
	if len(b) == 0 {
		return Frame{}, b, io.EOF
	}
	if len(b) < frameHeader {
		return Frame{}, b, io.ErrUnexpectedEOF
	}
	n, err := checkLength(binary.BigEndian.Uint32(b))
	if err != nil {
		return Frame{}, b, err
	}
	if len(b) < frameHeader+n {
		return Frame{}, b, io.ErrUnexpectedEOF
	}
	f := Frame{Kind: Kind(b[frameHeader]), Body: b[frameHeader+1 : frameHeader+n]}
	rest := b[frameHeader+n:]
	if !f.Kind.valid() {
		return Frame{}, rest, fmt.Errorf("%w: %v", ErrUnknownKind, f.Kind)
	}
	return f, rest, nil
}

func checkLength(n uint32) (int, error) {
	if n > MaxFrame {
		return 0, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, MaxFrame)
	}
	if n == 0 {
		return 0, ErrFrameEmpty
	}
	return int(n), nil
}

// FrameReader reads frames from a stream, reusing one buffer.
type FrameReader struct {
	r   io.Reader
	buf []byte
}

// NewFrameReader reads frames from r.
func NewFrameReader(r io.Reader) *FrameReader { return &FrameReader{r: r} }

// Read returns the next frame. Its Body is valid until the next call.
// After ErrFrameTooLarge, ErrFrameEmpty or an I/O error the reader is
// unusable; after ErrUnknownKind it is positioned at the next frame.
func (fr *FrameReader) Read() (Frame, error) {
	var hdr [frameHeader]byte
	if _, err := io.ReadFull(fr.r, hdr[:]); err != nil {
		return Frame{}, err
	}
	n, err := checkLength(binary.BigEndian.Uint32(hdr[:]))
	if err != nil {
		return Frame{}, err
	}
	if cap(fr.buf) < n {
		fr.buf = make([]byte, n)
	}
	b := fr.buf[:n]
	if _, err := io.ReadFull(fr.r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	f := Frame{Kind: Kind(b[0]), Body: b[1:]}
	if !f.Kind.valid() {
		return Frame{}, fmt.Errorf("%w: %v", ErrUnknownKind, f.Kind)
	}
	return f, nil
}
