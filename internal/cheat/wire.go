package cheat

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The lockstep wire format, version 1 (lockstep/wire.go), rebuilt from the
// protocol description: every signed input is
//
//	ver u8 | kind u8 | game [32] | from str8 | seq u64 | prev [32] | body | sig blob16
//
// and the signature covers msgTag followed by everything before sig.
const (
	wireVersion = 1
	msgTag      = "aeroplane/lockstep/msg/v1\n"

	KindConfirm = 1
	KindReveal  = 2
	KindAbsent  = 3
	KindReturn  = 4
	KindMove    = 5 // a manual player's move alone: K, State (after it), Move
	KindHave    = 0x80

	flagMove   = 1
	flagAnchor = 2
)

// Move is engine.Move's three wire bytes.
type Move struct{ Kind, Colour, Plane uint8 }

// Msg is one signed lockstep input, every field exposed so it can be
// forged.
type Msg struct {
	Kind uint8
	Game [32]byte
	From peer.ID
	Seq  uint64
	Prev [32]byte

	ChainLen  uint32
	Anchor    [32]byte
	HasAnchor bool

	K       uint64
	Link    [32]byte
	State   [32]byte
	HasMove bool
	Move    Move

	Who  peer.ID
	Step uint64
	Vote uint8

	Sig []byte
}

type writer struct{ b []byte }

func (w *writer) u8(v uint8)      { w.b = append(w.b, v) }
func (w *writer) u32(v uint32)    { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)    { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) str(s string)    { w.u8(uint8(len(s))); w.b = append(w.b, s...) }
func (w *writer) hash(h [32]byte) { w.b = append(w.b, h[:]...) }
func (w *writer) blob(v []byte) {
	w.b = binary.BigEndian.AppendUint16(w.b, uint16(len(v)))
	w.b = append(w.b, v...)
}

func (m *Msg) body() []byte {
	var w writer
	w.u8(wireVersion)
	w.u8(m.Kind)
	w.hash(m.Game)
	w.str(string(m.From))
	w.u64(m.Seq)
	w.hash(m.Prev)
	switch m.Kind {
	case KindConfirm:
		w.u32(m.ChainLen)
		w.hash(m.Anchor)
	case KindReveal:
		w.u64(m.K)
		w.hash(m.Link)
		w.hash(m.State)
		var f uint8
		if m.HasMove {
			f |= flagMove
		}
		if m.HasAnchor {
			f |= flagAnchor
		}
		w.u8(f)
		if m.HasMove {
			w.u8(m.Move.Kind)
			w.u8(m.Move.Colour)
			w.u8(m.Move.Plane)
		}
		if m.HasAnchor {
			w.hash(m.Anchor)
		}
	case KindMove:
		w.u64(m.K)
		w.hash(m.State)
		w.u8(m.Move.Kind)
		w.u8(m.Move.Colour)
		w.u8(m.Move.Plane)
	case KindAbsent:
		w.str(string(m.Who))
		w.u64(m.Step)
		w.u8(m.Vote)
	case KindReturn:
		w.u64(m.Step)
	}
	return w.b
}

// Seal signs m with key and returns its wire bytes and its ID (the hash
// the sender's next message links to).
func (m *Msg) Seal(key crypto.PrivKey) (raw []byte, id [32]byte, err error) {
	body := m.body()
	sig, err := key.Sign(append([]byte(msgTag), body...))
	if err != nil {
		return nil, id, fmt.Errorf("cheat: signing: %w", err)
	}
	m.Sig = sig
	w := writer{b: body}
	w.blob(sig)
	return w.b, sha256.Sum256(w.b), nil
}

var errShort = errors.New("cheat: short lockstep frame")

type reader struct {
	b   []byte
	err error
}

func (r *reader) fixed(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = errShort
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
func (r *reader) u8() uint8   { return r.fixed(1)[0] }
func (r *reader) u16() uint16 { return binary.BigEndian.Uint16(r.fixed(2)) }
func (r *reader) u32() uint32 { return binary.BigEndian.Uint32(r.fixed(4)) }
func (r *reader) u64() uint64 { return binary.BigEndian.Uint64(r.fixed(8)) }
func (r *reader) str() string { return string(r.fixed(int(r.u8()))) }
func (r *reader) hash() (h [32]byte) {
	copy(h[:], r.fixed(32))
	return h
}

// IsHave tells a status frame from a signed input.
func IsHave(b []byte) bool { return len(b) >= 2 && b[1] == KindHave }

// Decode parses a signed input (without checking its signature).
func Decode(b []byte) (*Msg, error) {
	r := reader{b: b}
	if v := r.u8(); v != wireVersion {
		return nil, fmt.Errorf("cheat: wire version %d", v)
	}
	m := &Msg{Kind: r.u8(), Game: r.hash(), From: peer.ID(r.str()), Seq: r.u64(), Prev: r.hash()}
	switch m.Kind {
	case KindConfirm:
		m.ChainLen = r.u32()
		m.Anchor = r.hash()
		m.HasAnchor = true
	case KindReveal:
		m.K = r.u64()
		m.Link = r.hash()
		m.State = r.hash()
		f := r.u8()
		if f&flagMove != 0 {
			m.HasMove = true
			m.Move = Move{r.u8(), r.u8(), r.u8()}
		}
		if f&flagAnchor != 0 {
			m.HasAnchor = true
			m.Anchor = r.hash()
		}
	case KindMove:
		m.K = r.u64()
		m.State = r.hash()
		m.HasMove = true
		m.Move = Move{r.u8(), r.u8(), r.u8()}
	case KindAbsent:
		m.Who = peer.ID(r.str())
		m.Step = r.u64()
		m.Vote = r.u8()
	case KindReturn:
		m.Step = r.u64()
	default:
		return nil, fmt.Errorf("cheat: message kind %d", m.Kind)
	}
	m.Sig = r.fixed(int(r.u16()))
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, errors.New("cheat: trailing bytes")
	}
	return m, nil
}

// Have is the unsigned status frame: per player in seat order, the highest
// sequence number held without gaps.
type Have struct {
	Game [32]byte
	Seqs []uint64
}

// DecodeHave parses a status frame.
func DecodeHave(b []byte) (*Have, error) {
	r := reader{b: b}
	r.u8()
	r.u8()
	h := &Have{Game: r.hash()}
	n := int(r.u8())
	for range n {
		h.Seqs = append(h.Seqs, r.u64())
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errors.New("cheat: bad have frame")
	}
	return h, nil
}

// Encode is the status frame's wire form.
func (h *Have) Encode() []byte {
	var w writer
	w.u8(wireVersion)
	w.u8(KindHave)
	w.hash(h.Game)
	w.u8(uint8(len(h.Seqs)))
	for _, s := range h.Seqs {
		w.u64(s)
	}
	return w.b
}
