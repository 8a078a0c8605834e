package cheat

import (
	"bytes"
	"crypto/rand"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The forger's copy of the wire format must match lockstep's own bytes, or
// the end-to-end cheats would be caught for the wrong reason (a bad
// signature instead of the cheat under test). A real two-player node's
// messages decode, re-encode and re-sign to the very same bytes; player A
// rolls by hand, so its moves that keep the dice go out as move messages.
func TestWireMatchesLockstep(t *testing.T) {
	keyA, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	keyB, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	idA, _ := peer.IDFromPrivateKey(keyA)
	idB, _ := peer.IDFromPrivateKey(keyB)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "wire",
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: idA}, {Colour: engine.Blue, Player: idB}},
		Rules: engine.DefaultRules()}
	var entA, entB [32]byte
	entA[0], entB[0] = 1, 2
	a, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: idA, Key: keyA, Entropy: entA})
	if err != nil {
		t.Fatal(err)
	}
	b, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: idB, Key: keyB, Entropy: entB, AutoRoll: true})
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[peer.ID]*lockstep.Node{idA: a, idB: b}
	keys := map[peer.ID]crypto.PrivKey{idA: keyA, idB: keyB}
	kinds := map[uint8]int{}
	for round := 0; round < 4000 && (kinds[KindReveal] < 50 || kinds[KindMove] == 0); round++ {
		for id, n := range nodes {
			if !n.HasReady() {
				n.Tick()
				continue
			}
			rd := n.Ready()
			for _, e := range rd.Messages {
				if !IsHave(e.Data) {
					m, err := Decode(e.Data)
					if err != nil {
						t.Fatalf("decode %x: %v", e.Data, err)
					}
					kinds[m.Kind]++
					if m.Kind == KindConfirm {
						ent := map[peer.ID][32]byte{idA: entA, idB: entB}[m.From]
						if got := NewChain(setup.GameID(), m.From, ent, int(m.ChainLen)).Link(0); got != m.Anchor {
							t.Fatalf("rebuilt anchor %x, confirmed %x", got[:6], m.Anchor[:6])
						}
					}
					if m.Kind == KindReveal {
						ent := map[peer.ID][32]byte{idA: entA, idB: entB}[m.From]
						if got := NewChain(setup.GameID(), m.From, ent, lockstep.DefaultChainLen).Link(m.K + 1); got != m.Link {
							t.Fatalf("rebuilt link for roll %d differs", m.K)
						}
					}
					raw, _, err := m.Seal(keys[m.From])
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(raw, e.Data) {
						t.Fatalf("re-sealed %d bytes differ from lockstep's:\n%x\n%x", m.Kind, raw, e.Data)
					}
				} else if h, err := DecodeHave(e.Data); err != nil || !bytes.Equal(h.Encode(), e.Data) {
					t.Fatalf("have frame %x: %v", e.Data, err)
				}
				for other, o := range nodes {
					if other != id {
						_ = o.Step(id, e.Data)
					}
				}
			}
			n.Advance(rd)
			for _, e := range rd.Events {
				if e.Kind == lockstep.EventYourRoll {
					_ = n.Roll()
				}
			}
			if len(rd.State.Moves) > 0 {
				_ = n.Choose(rd.State.Moves[0])
			}
		}
	}
	if kinds[KindConfirm] == 0 || kinds[KindReveal] < 50 || kinds[KindMove] == 0 {
		t.Fatalf("saw too few messages: %v", kinds)
	}
}
