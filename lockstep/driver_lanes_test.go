package lockstep

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

type chanLink struct{ ch chan Frame }

func (l chanLink) Send(peer.ID, []byte) error { return nil }
func (l chanLink) Frames() <-chan Frame       { return l.ch }
func (l chanLink) Reach() <-chan Reach        { return nil }

// The verification lanes keep each sender's frames in order, vouch for
// exactly the frames with good signatures, and pass everything else on
// unvouched (forged, status frames), to be checked by Node.Step.
func TestVerifyLanesOrderAndVouching(t *testing.T) {
	var ids []peer.ID
	var keys []crypto.PrivKey
	for i := range 2 {
		k, id := testkit.Key(i+7), testkit.ID(i+7)
		ids, keys = append(ids, id), append(keys, k)
	}
	setup := Setup{Version: Version, Name: "lanes",
		Seats: []Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Yellow, Player: ids[1]}}}
	nodes := make([]*Node, 2)
	for i := range nodes {
		n, err := NewNode(Config{Setup: setup, Self: ids[i], Key: keys[i], Entropy: [32]byte{byte(i)}, AutoRoll: true})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = n
	}
	var frames [2][][]byte // each player's frames, in order: signed and status
	for range 6 {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				for _, m := range rd.Messages {
					frames[i] = append(frames[i], m.Data)
					_ = nodes[1-i].Step(ids[i], m.Data)
				}
				n.Advance(rd)
			}
			n.Tick()
		}
	}
	if len(frames[0]) < 3 || len(frames[1]) < 3 {
		t.Fatalf("too few frames: %d, %d", len(frames[0]), len(frames[1]))
	}
	v, err := NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	stranger := peer.ID("stranger")
	type sent struct {
		in    Frame
		vouch bool
	}
	var all []sent
	for k := 0; k < len(frames[0]) || k < len(frames[1]); k++ {
		for i := range frames {
			if k < len(frames[i]) {
				signed := SignedBy(frames[i][k]) != ""
				all = append(all, sent{in: Frame{From: ids[i], Data: frames[i][k]}, vouch: signed})
				if signed {
					forged := bytes.Clone(frames[i][k])
					forged[len(forged)-1] ^= 1
					all = append(all, sent{in: Frame{From: ids[i], Data: forged}})
				}
			}
		}
		all = append(all, sent{in: Frame{From: stranger, Data: frames[0][0]}, vouch: true}) // a relayed copy is still signed by its author
	}
	link := chanLink{ch: make(chan Frame, len(all))}
	for _, s := range all {
		link.ch <- s.in
	}
	d := &Driver{cfg: DriverConfig{Link: link}, v: v}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan checked)
	var wg sync.WaitGroup
	d.verifyFrames(ctx, out, &wg)
	next := map[peer.ID]int{}
	for range all {
		c := <-out
		// It must be the next frame its sender sent.
		from := c.in.From
		j := next[from]
		for ; all[j].in.From != from; j++ {
		}
		next[from] = j + 1
		if !bytes.Equal(all[j].in.Data, c.in.Data) {
			t.Fatalf("sender %s: frame %d out of order", from, j)
		}
		if c.ok != all[j].vouch {
			t.Fatalf("frame %d from %s: vouched %v, want %v", j, from, c.ok, all[j].vouch)
		}
	}
	cancel()
	wg.Wait()
	if len(next) != 3 {
		t.Fatalf("frames from %d senders, want 3", len(next))
	}
}
