package testkit

import (
	"bytes"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Key is the i-th deterministic Ed25519 key: the one whose 32-byte seed is
// the byte i repeated (i mod 256). Tests' golden files and logs hold IDs of
// these keys, so the derivation must never change.
func Key(i int) crypto.PrivKey {
	// Ed25519 reads exactly 32 bytes of seed from the reader.
	k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i)}, 32)))
	if err != nil {
		panic(fmt.Sprintf("testkit: ed25519 key %d: %v", i, err))
	}
	return k
}

// ID is the peer ID of Key(i).
func ID(i int) peer.ID {
	id, err := peer.IDFromPrivateKey(Key(i))
	if err != nil {
		panic(fmt.Sprintf("testkit: peer ID of key %d: %v", i, err))
	}
	return id
}
