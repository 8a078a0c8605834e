package session

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A seat frame (p2p.KindSeat) carries a game message of one seat of a
// program that holds several (hot seat): the seat that sent it, the seat
// it is for ("" every seat of the receiving program), the message.
//
//	u8 len ‖ from seat ‖ u8 len ‖ to seat ‖ message
//
// Nothing in it is trusted: the receiver accepts it only from the program
// that hosts the sending seat (TransportLink), and the message inside is
// verified by every node with the key of the seat that signed it.

// errSeatFrame is wrapped by every error that rejects a seat frame.
var errSeatFrame = errors.New("bad seat frame")

func encodeSeatFrame(from, to peer.ID, data []byte) ([]byte, error) {
	if from == "" || len(from) > 255 || len(to) > 255 {
		return nil, fmt.Errorf("%w: seat IDs of %d and %d bytes", errSeatFrame, len(from), len(to))
	}
	b := make([]byte, 0, 2+len(from)+len(to)+len(data))
	b = append(b, byte(len(from)))
	b = append(b, from...)
	b = append(b, byte(len(to)))
	b = append(b, to...)
	return append(b, data...), nil
}

func decodeSeatFrame(b []byte) (from, to peer.ID, data []byte, err error) {
	field := func() (peer.ID, bool) {
		if len(b) == 0 || len(b) < 1+int(b[0]) {
			return "", false
		}
		n := int(b[0])
		id := peer.ID(b[1 : 1+n])
		b = b[1+n:]
		return id, true
	}
	var ok1, ok2 bool
	from, ok1 = field()
	to, ok2 = field()
	switch {
	case !ok1 || !ok2:
		return "", "", nil, fmt.Errorf("%w: truncated", errSeatFrame)
	case from == "":
		return "", "", nil, fmt.Errorf("%w: no sending seat", errSeatFrame)
	case len(b) == 0:
		return "", "", nil, fmt.Errorf("%w: no message", errSeatFrame)
	}
	return from, to, b, nil
}
