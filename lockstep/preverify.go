package lockstep

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Ed25519 verification is most of a roll's CPU time, and a Node does it on
// its driver's one goroutine, one frame after the other. A Verifier lets the
// driver check signatures beforehand, on as many goroutines as it likes
// (the three reveals of a roll then overlap each other and the driver), and
// StepVerified hands the node a frame whose signature is already checked.
//
// Nothing here weakens what the node accepts: a Verified can only be made
// by Verifier.Verify after Ed25519 accepted exactly the bytes it carries,
// StepVerified skips the node's check only for that sender, those signed
// bytes and that signature, and every other check (game, seat, sequence,
// link, chain, rules) runs in the node as before. A frame Verify cannot
// vouch for goes through Node.Step, which rejects it and names a cheat as
// it always did.

// Verifier checks signatures of one game's frames. It is safe for
// concurrent use.
type Verifier struct {
	gid GameID
	// keys holds the seat holders' public keys; read-only after
	// NewVerifier, so goroutines share it without a lock. Frames signed by
	// anyone else are left to Step, which refuses them before any crypto:
	// a stranger cannot make us spend CPU on its signatures, nor grow a cache.
	keys map[peer.ID]crypto.PubKey

	// seen remembers the last frames that verified, so the copies peers
	// relay (moves, votes) are not verified again.
	mu   sync.Mutex
	seen map[string]struct{}
	ring [verifiedMemory]string
	next int
}

// verifiedMemory is how many verified frames a Verifier remembers: a few
// rolls' worth of relayed copies.
const verifiedMemory = 256

// NewVerifier makes a Verifier for the game of s.
func NewVerifier(s Setup) (*Verifier, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	v := &Verifier{gid: s.GameID(), keys: map[peer.ID]crypto.PubKey{}, seen: map[string]struct{}{}}
	for _, st := range s.Seats {
		if st.Player == "" {
			continue
		}
		k, err := st.Player.ExtractPublicKey()
		if err != nil {
			return nil, fmt.Errorf("lockstep: player %s: no public key in its ID: %w", short(st.Player), err)
		}
		v.keys[st.Player] = k
	}
	return v, nil
}

// Verified is a signed frame whose signature a Verifier checked. Its zero
// value is not a verified frame.
type Verified struct {
	from   peer.ID
	signed []byte // the bytes the signature covers
	sig    []byte
	raw    []byte // the whole frame, as Step takes it
}

// Verify decodes data as a signed message of v's game from one of its
// players and checks its signature. ok is false for anything it cannot
// vouch for (status frames, bad bytes, strangers, other games, bad
// signatures): hand those to Node.Step as they are. Verify keeps no
// reference to data.
func (v *Verifier) Verify(data []byte) (f Verified, ok bool) {
	if isHave(data) {
		return Verified{}, false
	}
	raw := bytes.Clone(data)
	m, err := decodeMessage(raw)
	if err != nil || m.game != v.gid {
		return Verified{}, false
	}
	k, ok := v.keys[m.from]
	if !ok {
		return Verified{}, false
	}
	f = Verified{from: m.from, signed: m.signedPart(), sig: m.sig, raw: raw}
	if v.remembered(raw) {
		return f, true
	}
	if good, err := k.Verify(f.signed, f.sig); err != nil || !good {
		return Verified{}, false
	}
	v.remember(raw)
	return f, true
}

func (v *Verifier) remembered(raw []byte) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, ok := v.seen[string(raw)]
	return ok
}

func (v *Verifier) remember(raw []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	key := string(raw)
	if _, ok := v.seen[key]; ok {
		return
	}
	if old := v.ring[v.next]; old != "" {
		delete(v.seen, old)
	}
	v.ring[v.next] = key
	v.next = (v.next + 1) % verifiedMemory
	v.seen[key] = struct{}{}
}

// Frame is the frame's bytes, as received.
func (f Verified) Frame() []byte { return f.raw }

// errNotVerified refuses a Verified that no Verifier made.
var errNotVerified = errors.New("lockstep: StepVerified needs a frame from Verifier.Verify (use Step otherwise)")

// StepVerified is Step for a frame that Verifier.Verify accepted: the node
// does every check but that signature's. from is the transport's sender,
// as for Step.
func (n *Node) StepVerified(from peer.ID, f Verified) error {
	if f.raw == nil || f.from == "" || f.sig == nil {
		return errNotVerified
	}
	// Vouch for exactly this sender, these signed bytes and this signature;
	// any other signature the node checks meanwhile goes to its own check.
	check := n.verify
	n.verify = func(id peer.ID, data, sig []byte) bool {
		if id == f.from && bytes.Equal(sig, f.sig) && bytes.Equal(data, f.signed) {
			return true
		}
		return check(id, data, sig)
	}
	defer func() { n.verify = check }()
	return n.Step(from, f.raw)
}

// SignedBy is the player who signed the message in data, or "" when data
// is not a signed message (a status frame, or bytes that do not decode).
// It checks no signature: a driver uses it to know which of a Ready's
// messages are its own, which must be durable before they leave.
func SignedBy(data []byte) peer.ID {
	if isHave(data) {
		return ""
	}
	r := reader{b: data}
	r.u8() // version
	r.u8() // kind
	r.hash()
	from := r.str()
	if r.err != nil {
		return ""
	}
	return peer.ID(from)
}
