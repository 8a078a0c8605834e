package lockstep

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// wireVersion is the first byte of every frame lockstep hands to the driver.
const wireVersion = 1

// MaxMessageSize bounds a frame; anything longer is rejected unread.
const MaxMessageSize = 4096

// msgKind is what a frame carries. Kinds below 0x80 are signed, hash-linked
// inputs that go into the history and the log; kindHave is an unsigned
// status that only asks for re-sends and carries no authority.
type msgKind uint8

const (
	kindConfirm msgKind = 1 // confirms the Setup (by its GameID) and commits the chain anchor
	kindReveal  msgKind = 2 // a chain link for roll K, the state hash before it, maybe the move of roll K-1
	kindAbsent  msgKind = 3 // a binding vote: Who is absent from step Step on
	kindReturn  msgKind = 4 // the sender is back and asks for its seat
	// kindMove is the move of roll K alone, with the state hash after it: a
	// manual player that moves and rolls again sends it, so its link for
	// roll K+1 leaves only when it rolls (Reveal carries the move otherwise).
	kindMove msgKind = 5
	// kindLeave hands the sender's seat (Colour) to its bot from roll K
	// on, the first roll whose link the sender has not revealed: the
	// sender decided to go, nobody votes (leave.go).
	kindLeave msgKind = 6
	// kindTake asks for the seat Colour from roll K (0: hello), committing
	// a fresh chain (ChainLen, Anchor): a newcomer's messages (takeseat.go).
	kindTake msgKind = 7
	// kindPause with K > 0: the sender pauses from roll K, its first
	// unrevealed roll, and signs nothing for rolls K and later until its
	// lift, a kindPause with K = 0 (pause.go).
	kindPause msgKind = 8
	kindHave  msgKind = 0x80
)

func (k msgKind) String() string {
	switch k {
	case kindConfirm:
		return "confirm"
	case kindReveal:
		return "reveal"
	case kindAbsent:
		return "absent-vote"
	case kindReturn:
		return "return"
	case kindMove:
		return "move"
	case kindLeave:
		return "leave"
	case kindTake:
		return "take"
	case kindPause:
		return "pause"
	case kindHave:
		return "have"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// votes carried by kindAbsent
const (
	voteAbsent    = 0 // who is absent from step on
	voteReadmitOK = 1 // who may fly its seat again from roll step on
	voteReadmitNo = 2 // too late: this voter is past roll step already
	// voteGoOn: the voter, left without a majority, lets its absence
	// vote on who at step carry anyway (alone.go)
	voteGoOn = 3
	// voteWithdraw: the voter takes its absence vote on who at step back:
	// it holds who's reveal now (withdraw.go). Numbered after the seat
	// votes (takeseat.go), which it is not.
	voteWithdraw = 6
)

// reveal flags
const (
	flagMove   = 1
	flagAnchor = 2
)

// message is one signed input. raw is its exact encoding (what is logged
// and relayed); id = SHA-256(raw) is what the sender's next message links to.
type message struct {
	kind msgKind
	game GameID
	from peer.ID
	seq  uint64
	prev [32]byte

	// confirm
	chainLen uint32
	// confirm: anchor of epoch 0; reveal with flagAnchor: anchor of the next epoch
	anchor    [32]byte
	hasAnchor bool

	// reveal: k, link, state (before the roll), maybe move (of roll k-1);
	// move: k (the roll moved for), state (after the move), move
	k       uint64
	link    [32]byte
	state   [32]byte
	hasMove bool
	move    engine.Move

	// vote (who, step, vote) / return (step: the first roll the sender asks to play)
	who  peer.ID
	step uint64
	vote uint8

	// leave: colour (the seat handed to its bot) and k (the first roll without the sender)
	colour engine.Colour
	// void: a message its sender signed after its accepted Leave; it is
	// kept in the run (the hash links go through it) but never applied.
	void bool

	sig []byte
	raw []byte
	id  [32]byte
}

const msgTag = "aeroplane/lockstep/msg/v1\n"

// body encodes everything but the signature.
func (m *message) body() []byte {
	var w writer
	w.u8(wireVersion)
	w.u8(uint8(m.kind))
	w.hash(m.game)
	w.str(string(m.from))
	w.u64(m.seq)
	w.hash(m.prev)
	switch m.kind {
	case kindConfirm:
		w.u32(m.chainLen)
		w.hash(m.anchor)
	case kindReveal:
		w.u64(m.k)
		w.hash(m.link)
		w.hash(m.state)
		var f uint8
		if m.hasMove {
			f |= flagMove
		}
		if m.hasAnchor {
			f |= flagAnchor
		}
		w.u8(f)
		if m.hasMove {
			writeMove(&w, m.move)
		}
		if m.hasAnchor {
			w.hash(m.anchor)
		}
	case kindMove:
		w.u64(m.k)
		w.hash(m.state)
		writeMove(&w, m.move)
	case kindAbsent:
		w.str(string(m.who))
		w.u64(m.step)
		w.u8(m.vote)
	case kindReturn:
		w.u64(m.step)
	case kindLeave:
		w.u8(uint8(m.colour))
		w.u64(m.k)
	case kindTake:
		w.u8(uint8(m.colour))
		w.u64(m.k)
		w.u32(m.chainLen)
		w.hash(m.anchor)
	case kindPause:
		w.u64(m.k)
	}
	return w.b
}

func writeMove(w *writer, mv engine.Move) {
	w.u8(uint8(mv.Kind))
	w.u8(uint8(mv.Colour))
	w.u8(mv.Plane)
}

// readMove reads a move's three bytes; false when a field is out of range.
func readMove(r *reader) (engine.Move, bool) {
	mv := engine.Move{Kind: engine.MoveKind(r.u8()), Colour: engine.Colour(r.u8()), Plane: r.u8()}
	return mv, mv.Kind <= engine.Penalty && mv.Colour < engine.NumColours && mv.Plane < engine.PlanesPerColour
}

func signedBytes(body []byte) []byte {
	return append([]byte(msgTag), body...)
}

// seal signs the message and fills raw and id.
func (m *message) seal(sign func([]byte) ([]byte, error)) error {
	body := m.body()
	sig, err := sign(signedBytes(body))
	if err != nil {
		return fmt.Errorf("signing a %s: %w", m.kind, err)
	}
	m.sig = sig
	w := writer{b: body}
	w.blob(sig)
	m.raw = w.b
	m.id = sha256.Sum256(m.raw)
	return nil
}

// ErrDecode is wrapped by every error that rejects a frame's bytes.
var ErrDecode = errors.New("bad frame")

// decodeMessage parses a signed message strictly: every byte must belong to
// exactly one field, so one message has exactly one encoding. It checks the
// form, not the signature.
func decodeMessage(b []byte) (*message, error) {
	if len(b) > MaxMessageSize {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrDecode, len(b), MaxMessageSize)
	}
	r := reader{b: b}
	m := &message{}
	if v := r.u8(); r.err == nil && v != wireVersion {
		return nil, fmt.Errorf("%w: wire version %d, this build speaks %d", ErrDecode, v, wireVersion)
	}
	m.kind = msgKind(r.u8())
	m.game = r.hash()
	m.from = peer.ID(r.str())
	m.seq = r.u64()
	m.prev = r.hash()
	switch m.kind {
	case kindConfirm:
		m.chainLen = r.u32()
		m.anchor = r.hash()
		m.hasAnchor = true
	case kindReveal:
		m.k = r.u64()
		m.link = r.hash()
		m.state = r.hash()
		f := r.u8()
		if f&^(flagMove|flagAnchor) != 0 {
			return nil, fmt.Errorf("%w: unknown reveal flags %#x", ErrDecode, f)
		}
		if f&flagMove != 0 {
			var ok bool
			m.hasMove = true
			if m.move, ok = readMove(&r); !ok {
				return nil, fmt.Errorf("%w: move field out of range", ErrDecode)
			}
		}
		if f&flagAnchor != 0 {
			m.hasAnchor = true
			m.anchor = r.hash()
		}
	case kindMove:
		var ok bool
		m.k = r.u64()
		m.state = r.hash()
		m.hasMove = true
		if m.move, ok = readMove(&r); !ok {
			return nil, fmt.Errorf("%w: move field out of range", ErrDecode)
		}
	case kindAbsent:
		m.who = peer.ID(r.str())
		m.step = r.u64()
		m.vote = r.u8()
		if m.vote > voteWithdraw {
			return nil, fmt.Errorf("%w: unknown vote %d", ErrDecode, m.vote)
		}
	case kindReturn:
		m.step = r.u64()
	case kindLeave:
		m.colour = engine.Colour(r.u8())
		m.k = r.u64()
		if r.err == nil && m.colour >= engine.NumColours {
			return nil, fmt.Errorf("%w: leave for colour %d", ErrDecode, m.colour)
		}
	case kindTake:
		m.colour = engine.Colour(r.u8())
		m.k = r.u64()
		m.chainLen = r.u32()
		m.anchor = r.hash()
		if r.err == nil && m.colour >= engine.NumColours {
			return nil, fmt.Errorf("%w: take for colour %d", ErrDecode, m.colour)
		}
	case kindPause:
		m.k = r.u64()
	default:
		if r.err == nil {
			return nil, fmt.Errorf("%w: unknown message kind %d", ErrDecode, uint8(m.kind))
		}
	}
	m.sig = r.blob()
	if err := r.done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	if m.from == "" {
		return nil, fmt.Errorf("%w: empty sender", ErrDecode)
	}
	if m.seq == 0 {
		return nil, fmt.Errorf("%w: sequence 0", ErrDecode)
	}
	if (m.kind == kindConfirm) != (m.seq == 1) && m.kind != kindTake {
		return nil, fmt.Errorf("%w: a confirm (or a newcomer's take) must be exactly the first message of its sender", ErrDecode)
	}
	m.raw = append([]byte(nil), b...)
	return m, nil // id is computed on acceptance: duplicates never need it
}

// signedPart is the bytes the signature covers.
func (m *message) signedPart() []byte {
	return signedBytes(m.raw[:len(m.raw)-2-len(m.sig)])
}

// have is the unsigned status frame: for each player in seat order, the
// highest sequence number the sender holds without gaps.
type have struct {
	game GameID
	seqs []uint64
	// recovering: the sender was restored from its log and is fetching
	// its own messages back (recover.go). Carried as one trailing flag
	// byte, present only when set, so an encoding stays canonical. It
	// has no authority: it only lets the others say the sender's
	// program is back and catching up (EventPeerRestored).
	recovering bool
}

// haveRecovering is the one flag of a status frame's trailing byte.
const haveRecovering = 1

func (h *have) encode() []byte {
	var w writer
	w.u8(wireVersion)
	w.u8(uint8(kindHave))
	w.hash(h.game)
	w.u8(uint8(len(h.seqs)))
	for _, s := range h.seqs {
		w.u64(s)
	}
	if h.recovering {
		w.u8(haveRecovering)
	}
	return w.b
}

func decodeHave(b []byte) (*have, error) {
	r := reader{b: b}
	if v := r.u8(); r.err == nil && v != wireVersion {
		return nil, fmt.Errorf("%w: wire version %d", ErrDecode, v)
	}
	if k := msgKind(r.u8()); r.err == nil && k != kindHave {
		return nil, fmt.Errorf("%w: not a have frame", ErrDecode)
	}
	h := &have{game: r.hash()}
	n := int(r.u8())
	if n > maxPlayers {
		return nil, fmt.Errorf("%w: have lists %d players", ErrDecode, n)
	}
	for i := 0; i < n; i++ {
		h.seqs = append(h.seqs, r.u64())
	}
	if r.err == nil && r.off < len(r.b) {
		if f := r.u8(); f != haveRecovering {
			return nil, fmt.Errorf("%w: status flags %#x", ErrDecode, f)
		}
		h.recovering = true
	}
	if err := r.done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	return h, nil
}

// isHave tells the two frame families apart without decoding.
func isHave(b []byte) bool { return len(b) >= 2 && msgKind(b[1]) == kindHave }
