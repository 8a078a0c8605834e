package cheat

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/memnet"
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
	keys := map[peer.ID]crypto.PrivKey{idA: keyA, idB: keyB}
	ents := map[peer.ID][32]byte{idA: entA, idB: entB}
	var mu sync.Mutex
	kinds := map[uint8]int{}
	var bad []string
	// check rebuilds a frame a node sends with the forger's code.
	check := func(data []byte) error {
		if IsHave(data) {
			if h, err := DecodeHave(data); err != nil || !bytes.Equal(h.Encode(), data) {
				return fmt.Errorf("have frame %x: %v", data, err)
			}
			return nil
		}
		m, err := Decode(data)
		if err != nil {
			return fmt.Errorf("decode %x: %v", data, err)
		}
		kinds[m.Kind]++
		ent := ents[m.From]
		if m.Kind == KindConfirm {
			if got := NewChain(setup.GameID(), m.From, ent, int(m.ChainLen)).Link(0); got != m.Anchor {
				return fmt.Errorf("rebuilt anchor %x, confirmed %x", got[:6], m.Anchor[:6])
			}
		}
		if m.Kind == KindReveal {
			if got := NewChain(setup.GameID(), m.From, ent, lockstep.DefaultChainLen).Link(m.K + 1); got != m.Link {
				return fmt.Errorf("rebuilt link for roll %d differs", m.K)
			}
		}
		raw, _, err := m.Seal(keys[m.From])
		if err != nil {
			return err
		}
		if !bytes.Equal(raw, data) {
			return fmt.Errorf("re-sealed %d bytes differ from lockstep's:\n%x\n%x", m.Kind, raw, data)
		}
		return nil
	}
	net := memnet.New(idA, idB)
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	states, errs := net.Play(ctx, []*lockstep.Node{a, b}, memnet.PlayConfig{
		Link: func(_ int, l *memnet.Link) lockstep.Link {
			return checkedLink{l, func(data []byte) {
				mu.Lock()
				defer mu.Unlock()
				if err := check(data); err != nil {
					bad = append(bad, err.Error())
				}
			}}
		}})
	for i, err := range errs {
		if err != nil || states[i].Phase != lockstep.PhaseOver {
			t.Fatalf("player %d: %v in phase %s", i, err, states[i].Phase)
		}
	}
	if len(bad) > 0 {
		t.Fatalf("%d frames differ, the first: %s", len(bad), bad[0])
	}
	if kinds[KindConfirm] == 0 || kinds[KindReveal] < 50 || kinds[KindMove] == 0 {
		t.Fatalf("saw too few messages: %v", kinds)
	}
}

// checkedLink shows every frame to check before it leaves.
type checkedLink struct {
	*memnet.Link
	check func([]byte)
}

func (l checkedLink) Send(to peer.ID, data []byte) error {
	l.check(data)
	return l.Link.Send(to, data)
}
