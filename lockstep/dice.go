package lockstep

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Domain tags keep every SHA-256 this package computes apart from every other.
const (
	chainTopTag = "aeroplane/lockstep/chain-top/v1\n"
	chainTag    = "aeroplane/lockstep/chain/v1\n"
	rollTag     = "aeroplane/lockstep/roll/v1\n"
	resampleTag = "aeroplane/lockstep/resample/v1\n"
	botSeedTag  = "aeroplane/lockstep/bot-seed/v1\n"
	historyTag  = "aeroplane/lockstep/history/v1\n"
)

// DefaultChainLen is how many links one chain epoch holds: far more rolls
// than a game takes (a 4-player game averages about 400), and a chain is
// extended before it runs out anyway.
const DefaultChainLen = 2048

// chainTop is the secret end x_L of a player's chain for one epoch.
func chainTop(g GameID, id peer.ID, epoch uint32, entropy [32]byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(chainTopTag))
	h.Write(g[:])
	h.Write([]byte{uint8(len(id))})
	h.Write([]byte(id))
	var e [4]byte
	binary.BigEndian.PutUint32(e[:], epoch)
	h.Write(e[:])
	h.Write(entropy[:])
	var x [32]byte
	h.Sum(x[:0])
	return x
}

// ChainStep is x_{i-1} = SHA-256(tag ‖ gameID ‖ len(peerID) ‖ peerID ‖ x_i):
// binding each link to the game and its player means a chain copied from
// another player or another game never verifies.
func ChainStep(g GameID, id peer.ID, x [32]byte) [32]byte {
	var buf [len(chainTag) + 32 + 1 + 255 + 32]byte
	n := copy(buf[:], chainTag)
	n += copy(buf[n:], g[:])
	buf[n] = uint8(len(id))
	n++
	n += copy(buf[n:], id)
	n += copy(buf[n:], x[:])
	return sha256.Sum256(buf[:n])
}

// buildChain returns x_0 (the anchor) .. x_L of one epoch.
func buildChain(g GameID, id peer.ID, epoch uint32, entropy [32]byte, l int) [][32]byte {
	c := make([][32]byte, l+1)
	c[l] = chainTop(g, id, epoch, entropy)
	for i := l; i > 0; i-- {
		c[i-1] = ChainStep(g, id, c[i])
	}
	return c
}

// Contribution is one player's link for a roll.
type Contribution struct {
	Player peer.ID
	Link   [32]byte
}

// RollHash is SHA-256(tag ‖ gameID ‖ k ‖ for each present player in seat
// order: len(id) ‖ id ‖ link). Every present player's secret enters it, so
// one honest player is enough to make it unpredictable.
func RollHash(g GameID, k uint64, links []Contribution) [32]byte {
	h := sha256.New()
	h.Write([]byte(rollTag))
	h.Write(g[:])
	var kb [8]byte
	binary.BigEndian.PutUint64(kb[:], k)
	h.Write(kb[:])
	for _, c := range links {
		h.Write([]byte{uint8(len(c.Player))})
		h.Write([]byte(c.Player))
		h.Write(c.Link[:])
	}
	var x [32]byte
	h.Sum(x[:0])
	return x
}

// Sample maps a hash uniformly onto 0..n-1 (1 ≤ n ≤ 256) by rejection: a
// byte below 256 - 256 mod n gives b mod n, a byte at or above it is skipped,
// and a hash with no usable byte is rehashed with a counter. It never takes
// a biased remainder.
func Sample(h [32]byte, n int) int {
	limit := 256 - 256%n
	for ctr := uint32(0); ; ctr++ {
		for _, b := range h {
			if int(b) < limit {
				return int(b) % n
			}
		}
		var buf [len(resampleTag) + 32 + 4]byte
		i := copy(buf[:], resampleTag)
		i += copy(buf[i:], h[:])
		binary.BigEndian.PutUint32(buf[i:], ctr)
		h = sha256.Sum256(buf[:])
	}
}

// Die is the face 1..6 of a roll hash.
func Die(h [32]byte) int { return 1 + Sample(h, 6) }

// DeriveRoll is Die(RollHash(...)).
func DeriveRoll(g GameID, k uint64, links []Contribution) int {
	return Die(RollHash(g, k, links))
}

// BotSeed is the seed a bot choosing after the roll with this hash uses, so
// every peer computes the same bot move and nobody can pick it early.
func BotSeed(rollHash [32]byte) uint64 {
	h := sha256.Sum256(append([]byte(botSeedTag), rollHash[:]...))
	return binary.BigEndian.Uint64(h[:8])
}
