package lockstep

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Version is the protocol version this package speaks.
const Version = 1

// DefaultBot is the bot kind that flies an absent player's seat when the
// Setup names none.
const DefaultBot = "random"

// Seat is one colour of the game: flown by a player (Player set) or by a bot
// of kind Bot (Player empty). For a player's seat, Bot names the kind that
// flies it while the player is absent (DefaultBot when empty).
type Seat struct {
	Colour engine.Colour
	Player peer.ID
	Bot    string
}

// Setup is everything the players agree on before a game. Every peer must
// build byte-identical Encode output; GameID hashes it.
type Setup struct {
	Version uint32
	Name    string // lobby / game name, for people
	Seats   []Seat // 2..4 seats, in ascending colour order, at least one player
	Rules   engine.Rules
	Nonce   [16]byte // makes every game's ID, and so every hash chain, fresh
}

// GameID names a game: SHA-256 over a domain tag and Setup.Encode.
type GameID [32]byte

func (g GameID) String() string { return fmt.Sprintf("%x", g[:8]) }

const setupTag = "aeroplane/lockstep/setup/v1\n"

// ErrBadSetup is wrapped by every error that rejects a Setup.
var ErrBadSetup = errors.New("bad setup")

// Validate checks the Setup is playable, completely, so that a Setup from
// a hostile lobby host fails here, before anything is written or
// announced, and never at a later step: the version; a name of printable
// UTF-8 within the encoding's 255 bytes; 2..4 seats in ascending colour
// order; every seat a player or a bot, known bot kinds; each player at
// most once, its peer ID one that embeds an Ed25519 public key (every
// message's signature is checked with it, so an ID without one, an RSA
// peer's hash, could never sign a valid message); rules in canonical form.
func (s *Setup) Validate() error { return s.validate(true) }

// validate is Validate; keys false skips the embedded-key check, for the
// simulations that sign with fake keys (Config.verify).
func (s *Setup) validate(keys bool) error {
	bad := func(f string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBadSetup, fmt.Sprintf(f, a...))
	}
	if s.Version != Version {
		return bad("protocol version %d, this build speaks %d: all players need the same aeroplane version", s.Version, Version)
	}
	if len(s.Name) > 255 {
		return bad("name is %d bytes, at most 255", len(s.Name))
	}
	if !printable(s.Name) {
		return bad("name %q is not printable text", s.Name)
	}
	if n := len(s.Seats); n < 2 || n > engine.NumColours {
		return bad("%d seats, want 2 to 4", n)
	}
	players := 0
	seen := map[peer.ID]bool{}
	for i, st := range s.Seats {
		if st.Colour >= engine.NumColours {
			return bad("seat %d: colour %d does not exist", i, st.Colour)
		}
		if i > 0 && st.Colour <= s.Seats[i-1].Colour {
			return bad("seats must be in ascending colour order without repeats")
		}
		if len(st.Bot) > 64 {
			return bad("seat %s: bot kind too long", st.Colour)
		}
		if st.Bot != "" {
			if _, err := engine.NewBot(st.Bot); err != nil {
				return bad("seat %s: %v", st.Colour, err)
			}
		}
		if st.Player == "" {
			if st.Bot == "" {
				return bad("seat %s has neither a player nor a bot", st.Colour)
			}
			continue
		}
		if err := st.Player.Validate(); err != nil {
			return bad("seat %s: peer ID: %v", st.Colour, err)
		}
		if len(st.Player) > 255 {
			return bad("seat %s: peer ID too long", st.Colour)
		}
		if keys {
			if err := embedsEd25519(st.Player); err != nil {
				return bad("seat %s: peer %s: %v", st.Colour, st.Player, err)
			}
		}
		if seen[st.Player] {
			return bad("peer %s holds two seats", ShortID(st.Player))
		}
		seen[st.Player] = true
		players++
	}
	if players == 0 {
		return bad("no player seats: a game needs at least one peer")
	}
	if _, err := engine.ParseRules(s.Rules.String()); err != nil {
		return bad("rules: %v", err)
	}
	return nil
}

// Encode is the canonical encoding that GameID hashes and that peers can
// exchange in a lobby.
func (s *Setup) Encode() []byte {
	var w writer
	w.u32(s.Version)
	w.str(s.Name)
	w.str(s.Rules.String())
	w.bytes(s.Nonce[:])
	w.u8(uint8(len(s.Seats)))
	for _, st := range s.Seats {
		w.u8(uint8(st.Colour))
		w.str(string(st.Player))
		w.str(st.Bot)
	}
	return w.b
}

// embedsEd25519 checks a player's peer ID carries its Ed25519 public key.
func embedsEd25519(id peer.ID) error {
	k, err := id.ExtractPublicKey()
	if err != nil {
		return fmt.Errorf("the ID embeds no public key (%v): only Ed25519 peers can play", err)
	}
	if k.Type() != pb.KeyType_Ed25519 {
		return fmt.Errorf("the ID's key is %s, not Ed25519", k.Type())
	}
	return nil
}

// printable reports whether a name is valid UTF-8 without control
// characters, so that showing it cannot garble a terminal.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// DecodeSetup reads Setup.Encode output and validates it.
func DecodeSetup(b []byte) (Setup, error) { return decodeSetup(b, true) }

// decodeSetup is DecodeSetup; keys as in validate.
func decodeSetup(b []byte, keys bool) (Setup, error) {
	var s Setup
	r := reader{b: b}
	s.Version = r.u32()
	s.Name = r.str()
	rules := r.str()
	copy(s.Nonce[:], r.fixed(16))
	n := int(r.u8())
	if n > engine.NumColours {
		return s, fmt.Errorf("%w: %d seats", ErrBadSetup, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		var st Seat
		st.Colour = engine.Colour(r.u8())
		st.Player = peer.ID(r.str())
		st.Bot = r.str()
		s.Seats = append(s.Seats, st)
	}
	if err := r.done(); err != nil {
		return s, fmt.Errorf("%w: %v", ErrBadSetup, err)
	}
	var err error
	if s.Rules, err = engine.ParseRules(rules); err != nil {
		return s, fmt.Errorf("%w: %v", ErrBadSetup, err)
	}
	if s.Rules.String() != rules {
		return s, fmt.Errorf("%w: rules %q are not in canonical form %q", ErrBadSetup, rules, s.Rules.String())
	}
	if err := s.validate(keys); err != nil {
		return s, err
	}
	return s, nil
}

// GameID is SHA-256 over the domain tag and Encode.
func (s *Setup) GameID() GameID {
	h := sha256.New()
	h.Write([]byte(setupTag))
	h.Write(s.Encode())
	var g GameID
	h.Sum(g[:0])
	return g
}

// Players lists the players' peer IDs in seat (colour) order.
func (s *Setup) Players() []peer.ID {
	var ps []peer.ID
	for _, st := range s.Seats {
		if st.Player != "" {
			ps = append(ps, st.Player)
		}
	}
	return ps
}

// Colours lists the colours in play.
func (s *Setup) Colours() []engine.Colour {
	cs := make([]engine.Colour, len(s.Seats))
	for i, st := range s.Seats {
		cs[i] = st.Colour
	}
	return cs
}

// writer and reader are the canonical big-endian encoding used by Setup,
// messages and log records. The reader never panics: the first error sticks
// and every later read returns zero values.
type writer struct{ b []byte }

func (w *writer) u8(v uint8)      { w.b = append(w.b, v) }
func (w *writer) u16(v uint16)    { w.b = binary.BigEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32)    { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)    { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) bytes(v []byte)  { w.b = append(w.b, v...) }
func (w *writer) str(s string)    { w.u8(uint8(len(s))); w.b = append(w.b, s...) }
func (w *writer) blob(v []byte)   { w.u16(uint16(len(v))); w.b = append(w.b, v...) }
func (w *writer) hash(h [32]byte) { w.b = append(w.b, h[:]...) }

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fixed(n int) []byte {
	if r.err != nil {
		return make([]byte, n)
	}
	if len(r.b)-r.off < n {
		r.err = fmt.Errorf("truncated at byte %d: need %d more bytes, have %d", r.off, n, len(r.b)-r.off)
		return make([]byte, n)
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v
}

func (r *reader) u8() uint8   { return r.fixed(1)[0] }
func (r *reader) u16() uint16 { return binary.BigEndian.Uint16(r.fixed(2)) }
func (r *reader) u32() uint32 { return binary.BigEndian.Uint32(r.fixed(4)) }
func (r *reader) u64() uint64 { return binary.BigEndian.Uint64(r.fixed(8)) }
func (r *reader) str() string { return string(r.fixed(int(r.u8()))) }
func (r *reader) blob() []byte {
	return append([]byte(nil), r.fixed(int(r.u16()))...)
}
func (r *reader) hash() (h [32]byte) { copy(h[:], r.fixed(32)); return }

func (r *reader) done() error {
	if r.err == nil && r.off != len(r.b) {
		r.err = fmt.Errorf("%d unexpected bytes after the end at byte %d", len(r.b)-r.off, r.off)
	}
	return r.err
}
