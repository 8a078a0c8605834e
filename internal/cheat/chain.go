package cheat

import (
	"crypto/sha256"
	"encoding/binary"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

const chainTopTag = "aeroplane/lockstep/chain-top/v1\n"

// Chain is the cheater's own hash chain (epoch 0), rebuilt from its entropy
// so it can sign reveals with valid links whenever it likes.
type Chain struct{ x [][32]byte }

// NewChain rebuilds epoch 0 of id's chain in game g.
func NewChain(g lockstep.GameID, id peer.ID, entropy [32]byte, l int) *Chain {
	h := sha256.New()
	h.Write([]byte(chainTopTag))
	h.Write(g[:])
	h.Write([]byte{uint8(len(id))})
	h.Write([]byte(id))
	h.Write(binary.BigEndian.AppendUint32(nil, 0))
	h.Write(entropy[:])
	c := make([][32]byte, l+1)
	h.Sum(c[l][:0])
	for i := l; i > 0; i-- {
		c[i-1] = lockstep.ChainStep(g, id, c[i])
	}
	return &Chain{x: c}
}

// Link is position j of the chain: 0 is the anchor, the link for roll k
// is k+1.
func (c *Chain) Link(j uint64) [32]byte { return c.x[j] }
