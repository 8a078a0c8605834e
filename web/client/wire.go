package client

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The game socket between a browser and the program that served its page
// carries one message per WebSocket binary message:
//
//	hello  server → browser  0x01 | nonce[32]
//	auth   browser → server  0x02 | keyLen u16 | libp2p public key | signature
//	frame  both ways         0x03 | kind u8 | idLen u8 | peer ID | data
//	setup  server → browser  0x04 | lockstep.Setup.Encode()
//
// auth's signature is over authTag | nonce: the browser proves it holds
// the key of its peer ID, for this connection only. A frame's peer is the
// sender as the server saw it (server → browser; the browser's lockstep
// checks every signature itself, so a wrong name only gets the frame
// dropped) or the addressee, "" for everyone (browser → server). kind is
// p2p's frame kind (game, chat, lobby): a web player's frames are the
// very bytes a laptop would send. setup is the game the browser's seat is
// in, as the serving program's table agreed it; the browser checks it
// (lockstep.DecodeSetup validates it) and finds its own seat in it.
const (
	MsgHello byte = 1
	MsgAuth  byte = 2
	MsgFrame byte = 3
	MsgSetup byte = 4
)

// MaxMessage caps a socket message: p2p's frame cap (64 KiB) plus the
// header.
const MaxMessage = 64<<10 + 3 + 255

// NonceSize is the hello's challenge length.
const NonceSize = 32

const authTag = "aeroplane/web/auth/v1\n"

// ErrBadMessage is wrapped by every error decoding a socket message.
var ErrBadMessage = errors.New("bad web socket message")

// Hello makes the server's challenge.
func Hello() (msg []byte, nonce [NonceSize]byte, err error) {
	if _, err = rand.Read(nonce[:]); err != nil {
		return nil, nonce, err
	}
	return append([]byte{MsgHello}, nonce[:]...), nonce, nil
}

// ParseHello reads the server's challenge.
func ParseHello(msg []byte) ([NonceSize]byte, error) {
	var n [NonceSize]byte
	if len(msg) != 1+NonceSize || msg[0] != MsgHello {
		return n, fmt.Errorf("%w: want a hello of %d bytes", ErrBadMessage, 1+NonceSize)
	}
	copy(n[:], msg[1:])
	return n, nil
}

// Auth answers the challenge with the identity's public key and signature.
func (i *Identity) Auth(nonce [NonceSize]byte) ([]byte, error) {
	pub, err := crypto.MarshalPublicKey(i.key.GetPublic())
	if err != nil {
		return nil, err
	}
	sig, err := i.key.Sign(append([]byte(authTag), nonce[:]...))
	if err != nil {
		return nil, err
	}
	msg := []byte{MsgAuth, 0, 0}
	binary.BigEndian.PutUint16(msg[1:], uint16(len(pub)))
	return append(append(msg, pub...), sig...), nil
}

// VerifyAuth checks an auth against the nonce sent and returns the peer
// ID it proves; only Ed25519 keys are taken (lockstep accepts no other).
func VerifyAuth(msg []byte, nonce [NonceSize]byte) (peer.ID, error) {
	if len(msg) < 3 || msg[0] != MsgAuth {
		return "", fmt.Errorf("%w: want an auth", ErrBadMessage)
	}
	n := int(binary.BigEndian.Uint16(msg[1:]))
	if len(msg) < 3+n {
		return "", fmt.Errorf("%w: auth key cut short", ErrBadMessage)
	}
	pub, err := crypto.UnmarshalPublicKey(msg[3 : 3+n])
	if err != nil {
		return "", fmt.Errorf("%w: auth key: %v", ErrBadMessage, err)
	}
	if pub.Type() != crypto.Ed25519 {
		return "", fmt.Errorf("%w: auth key is %v, want Ed25519", ErrBadMessage, pub.Type())
	}
	ok, err := pub.Verify(append([]byte(authTag), nonce[:]...), msg[3+n:])
	if err != nil || !ok {
		return "", fmt.Errorf("%w: auth signature does not verify", ErrBadMessage)
	}
	return peer.IDFromPublicKey(pub)
}

// Frame is a socket frame: a p2p frame kind, a peer and the data.
type Frame struct {
	Kind byte
	Peer peer.ID // sender (to the browser) or addressee, "" = all (from it)
	Data []byte
}

// EncodeFrame appends the frame's message to dst.
func EncodeFrame(dst []byte, f Frame) ([]byte, error) {
	if len(f.Peer) > 255 {
		return dst, fmt.Errorf("%w: peer ID of %d bytes", ErrBadMessage, len(f.Peer))
	}
	if 3+len(f.Peer)+len(f.Data) > MaxMessage {
		return dst, fmt.Errorf("%w: frame of %d bytes, limit %d", ErrBadMessage, len(f.Data), MaxMessage)
	}
	dst = append(dst, MsgFrame, f.Kind, byte(len(f.Peer)))
	dst = append(dst, f.Peer...)
	return append(dst, f.Data...), nil
}

// DecodeFrame reads a frame message; Data aliases msg.
func DecodeFrame(msg []byte) (Frame, error) {
	if len(msg) > MaxMessage {
		return Frame{}, fmt.Errorf("%w: %d bytes, limit %d", ErrBadMessage, len(msg), MaxMessage)
	}
	if len(msg) < 3 || msg[0] != MsgFrame {
		return Frame{}, fmt.Errorf("%w: want a frame", ErrBadMessage)
	}
	n := int(msg[2])
	if len(msg) < 3+n {
		return Frame{}, fmt.Errorf("%w: frame peer cut short", ErrBadMessage)
	}
	f := Frame{Kind: msg[1], Data: msg[3+n:]}
	if n > 0 {
		id, err := peer.IDFromBytes(msg[3 : 3+n])
		if err != nil {
			return Frame{}, fmt.Errorf("%w: frame peer: %v", ErrBadMessage, err)
		}
		f.Peer = id
	}
	return f, nil
}
