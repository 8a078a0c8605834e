package client

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A web player's seat is hosted by one program of the table: the others
// take the seat's frames from that program only. When that program is
// gone for good (its laptop killed) the browser opens the page of another
// program of the table and moves its seat there with a seat move: a
// statement signed by the seat's own key naming the game, the seat, the
// new host and a counter. Every program checks it against the seat's
// peer ID, so no program can move a seat it does not hold the key of, and
// takes only a counter above the last it took for the seat, so an older
// statement replayed cannot move the seat back.
//
//	statement  version u8 (1) | game [32] | counter u64 | seatLen u8 | seat
//	           | hostLen u8 | host | sigLen u8 | signature
//
// The signature is over seatMoveTag | everything before sigLen. On the
// game socket the serving program first says who it is (a host message,
// MsgHost: 0x05 | program peer ID); a browser in a game answers with its
// statement in a frame of KindSeatMove (no peer), and the program, which
// then hosts the seat, tells every program of the table.
const MsgHost byte = 5

// KindSeatMove is p2p's seat-move frame kind: a statement, browser →
// server and program → program.
const KindSeatMove byte = 21

// MaxSeatMove caps a statement: two peer IDs of at most 255 bytes and an
// Ed25519 signature fit; anything longer is refused unread.
const MaxSeatMove = 1 + 32 + 8 + 1 + 255 + 1 + 255 + 1 + 255

const seatMoveTag = "aeroplane/seat-move/v1\n"

// SeatMove is a seat's word that program Host hosts it from now on in
// game Game; Counter orders a seat's statements (a higher one wins).
type SeatMove struct {
	Game    lockstep.GameID
	Seat    peer.ID
	Host    peer.ID
	Counter uint64
}

func (m SeatMove) String() string {
	return fmt.Sprintf("seat %s to %s in game %s (#%d)", lockstep.ShortID(m.Seat), lockstep.ShortID(m.Host), m.Game, m.Counter)
}

// body is the signed part of m's statement.
func (m SeatMove) body() ([]byte, error) {
	if len(m.Seat) == 0 || len(m.Seat) > 255 || len(m.Host) == 0 || len(m.Host) > 255 {
		return nil, fmt.Errorf("%w: seat move peer IDs of %d and %d bytes", ErrBadMessage, len(m.Seat), len(m.Host))
	}
	b := make([]byte, 0, 1+32+8+2+len(m.Seat)+len(m.Host))
	b = append(b, 1)
	b = append(b, m.Game[:]...)
	b = binary.BigEndian.AppendUint64(b, m.Counter)
	b = append(b, byte(len(m.Seat)))
	b = append(b, m.Seat...)
	b = append(b, byte(len(m.Host)))
	return append(b, m.Host...), nil
}

// SignSeatMove makes the statement of m, signed with the identity's key
// (m.Seat must be the identity's).
func (i *Identity) SignSeatMove(m SeatMove) ([]byte, error) {
	if m.Seat != i.ID {
		return nil, fmt.Errorf("a seat move for seat %s signed by %s", lockstep.ShortID(m.Seat), lockstep.ShortID(i.ID))
	}
	b, err := m.body()
	if err != nil {
		return nil, err
	}
	sig, err := i.key.Sign(append([]byte(seatMoveTag), b...))
	if err != nil {
		return nil, err
	}
	if len(sig) > 255 {
		return nil, fmt.Errorf("%w: a signature of %d bytes", ErrBadMessage, len(sig))
	}
	return append(append(b, byte(len(sig))), sig...), nil
}

// ParseSeatMove reads a statement and checks its signature against the
// seat's own peer ID (an Ed25519 key is inside it): a statement that
// parses was made by the seat's key.
func ParseSeatMove(b []byte) (SeatMove, error) {
	var m SeatMove
	if len(b) > MaxSeatMove {
		return m, fmt.Errorf("%w: seat move of %d bytes, limit %d", ErrBadMessage, len(b), MaxSeatMove)
	}
	if len(b) < 1+32+8+1 || b[0] != 1 {
		return m, fmt.Errorf("%w: not a seat move of version 1", ErrBadMessage)
	}
	copy(m.Game[:], b[1:33])
	m.Counter = binary.BigEndian.Uint64(b[33:41])
	rest := b[41:]
	var ids [2]peer.ID
	for k := range ids {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) || rest[0] == 0 {
			return m, fmt.Errorf("%w: seat move cut short", ErrBadMessage)
		}
		id, err := peer.IDFromBytes(rest[1 : 1+int(rest[0])])
		if err != nil {
			return m, fmt.Errorf("%w: seat move peer ID: %v", ErrBadMessage, err)
		}
		ids[k], rest = id, rest[1+int(rest[0]):]
	}
	m.Seat, m.Host = ids[0], ids[1]
	body := b[:len(b)-len(rest)]
	if len(rest) < 1 || len(rest) != 1+int(rest[0]) {
		return m, fmt.Errorf("%w: seat move signature cut short", ErrBadMessage)
	}
	pub, err := m.Seat.ExtractPublicKey()
	if err != nil || pub.Type() != crypto.Ed25519 {
		return m, fmt.Errorf("%w: seat %s carries no Ed25519 key", ErrBadMessage, lockstep.ShortID(m.Seat))
	}
	if ok, err := pub.Verify(append([]byte(seatMoveTag), body...), rest[1:]); err != nil || !ok {
		return m, fmt.Errorf("%w: seat move not signed by seat %s", ErrBadMessage, lockstep.ShortID(m.Seat))
	}
	return m, nil
}

// EncodeHost is the serving program's word on who it is.
func EncodeHost(id peer.ID) []byte { return append([]byte{MsgHost}, id...) }

// ParseHost reads it.
func ParseHost(msg []byte) (peer.ID, error) {
	if len(msg) < 2 || len(msg) > 256 || msg[0] != MsgHost {
		return "", fmt.Errorf("%w: want a host", ErrBadMessage)
	}
	id, err := peer.IDFromBytes(msg[1:])
	if err != nil {
		return "", fmt.Errorf("%w: host peer ID: %v", ErrBadMessage, err)
	}
	return id, nil
}

// SendSeatMove sends a statement on s.
func SendSeatMove(s Socket, stmt []byte) error {
	msg, err := EncodeFrame(nil, Frame{Kind: KindSeatMove, Data: stmt})
	if err != nil {
		return err
	}
	return s.Send(msg)
}

// moveCounter hands out the browser's seat move counters: the clock in
// milliseconds, and always above the last handed out, so a page reloaded
// (its counter forgotten) still counts above what it said before, as
// long as the clock does not go back by more than the moves it made.
type moveCounter struct {
	mu   sync.Mutex
	last uint64
}

func (c *moveCounter) next(now time.Time) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := uint64(max(now.UnixMilli(), 0))
	if n <= c.last {
		n = c.last + 1
	}
	c.last = n
	return n
}
