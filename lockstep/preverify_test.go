package lockstep

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"pgregory.net/rapid"
)

// preKeys are fixed Ed25519 keys: key i is seeded with byte i+1.
func preKeys(t testing.TB, n int) ([]peer.ID, []crypto.PrivKey) {
	t.Helper()
	var ids []peer.ID
	var keys []crypto.PrivKey
	for i := 0; i < n; i++ {
		k, id := testkit.Key(i+1), testkit.ID(i+1)
		ids, keys = append(ids, id), append(keys, k)
	}
	return ids, keys
}

func preSetup(ids []peer.ID, name string) Setup {
	return Setup{Version: Version, Name: name,
		Seats: []Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Yellow, Player: ids[1]}}}
}

func preNodes(t testing.TB, setup Setup, ids []peer.ID, keys []crypto.PrivKey) []*Node {
	t.Helper()
	nodes := make([]*Node, 2)
	for i := range nodes {
		var entropy [32]byte
		entropy[0] = byte(i)
		n, err := NewNode(Config{Setup: setup, Self: ids[i], Key: keys[i], Entropy: entropy, AutoRoll: true})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = n
	}
	return nodes
}

// playPre plays a whole 2-player game; deliver hands node `to` a frame.
// It returns both logs.
func playPre(t testing.TB, nodes []*Node, ids []peer.ID, deliver func(to int, from peer.ID, data []byte) error) [2][]byte {
	t.Helper()
	var logs [2][]byte
	over := false
	for tick := 0; tick < 20000 && !over; tick++ {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				logs[i] = append(logs[i], EncodeRecords(rd.LogEntries...)...)
				for _, m := range rd.Messages {
					if err := deliver(1-i, ids[i], m.Data); err != nil {
						t.Fatalf("honest frame refused: %v", err)
					}
				}
				for _, e := range rd.Events {
					switch e.Kind {
					case EventGameOver:
						over = true
					case EventYourMove:
						if err := n.Choose(e.Moves[len(e.Moves)-1]); err != nil {
							t.Fatal(err)
						}
					}
				}
				n.Advance(rd)
			}
			n.Tick()
		}
	}
	if !over {
		t.Fatal("the game did not finish")
	}
	return logs
}

// firstFrame is player 0's first signed frame (its confirm).
func firstFrame(t testing.TB, n *Node) []byte {
	t.Helper()
	for _, m := range n.Ready().Messages {
		if !isHave(m.Data) {
			return m.Data
		}
	}
	t.Fatal("no signed frame in the first Ready")
	return nil
}

// A game whose frames go through Verify and StepVerified ends exactly as
// one driven by Step: same logs byte for byte, and every signed frame took
// the verified path.
func TestPreverifiedGameEqualsStep(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	nodes := preNodes(t, setup, ids, keys)
	stepped := playPre(t, nodes, ids, nil2step(nodes))
	nodes = preNodes(t, setup, ids, keys)
	v, err := NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := 0, 0
	pre := playPre(t, nodes, ids, func(to int, from peer.ID, data []byte) error {
		if f, ok := v.Verify(data); ok {
			fast++
			return nodes[to].StepVerified(from, f)
		}
		if !isHave(data) {
			t.Errorf("Verify refused an honest signed frame of %d bytes", len(data))
		}
		slow++
		return nodes[to].Step(from, data)
	})
	for i := range pre {
		if !bytes.Equal(pre[i], stepped[i]) {
			t.Errorf("player %d: the log differs from the Step-driven game's", i)
		}
	}
	if fast == 0 {
		t.Fatal("no frame took the verified path")
	}
	t.Logf("%d frames verified beforehand, %d status frames through Step", fast, slow)
}

func nil2step(nodes []*Node) func(int, peer.ID, []byte) error {
	return func(to int, from peer.ID, data []byte) error { return nodes[to].Step(from, data) }
}

// Verify vouches only for a well-formed frame of its game, signed by a
// seat holder with a good signature.
func TestVerifierRefuses(t *testing.T) {
	ids, keys := preKeys(t, 3)
	setup := preSetup(ids, "pre")
	good := firstFrame(t, preNodes(t, setup, ids, keys)[0])
	v, err := NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Verify(good); !ok {
		t.Fatal("an honest confirm was refused")
	}
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 1; return b }
	// A stranger (key 2) in a game of its own signs a well-formed confirm.
	strangerSetup := Setup{Version: Version, Name: "pre",
		Seats: []Seat{{Colour: engine.Red, Player: ids[2]}, {Colour: engine.Yellow, Player: ids[1]}}}
	sn, err := NewNode(Config{Setup: strangerSetup, Self: ids[2], Key: keys[2], AutoRoll: true})
	if err != nil {
		t.Fatal(err)
	}
	other := preNodes(t, preSetup(ids, "another game"), ids, keys)[0]
	status := (&have{game: setup.GameID(), seqs: []uint64{1, 0}}).encode()
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"signature byte flipped", flip(len(good) - 1)},
		{"body byte flipped", flip(len(good) - 70)},
		{"sequence changed", flip(2 + 32 + 1 + len(ids[0]) + 7)},
		{"cut short", good[:len(good)-1]},
		{"empty", nil},
		{"status frame", status},
		{"stranger's message", firstFrame(t, sn)},
		{"another game's message", firstFrame(t, other)},
	} {
		if _, ok := v.Verify(c.data); ok {
			t.Errorf("%s: Verify vouched for it", c.name)
		}
	}
}

// Changing any byte of a verified frame makes Verify refuse it, whatever it
// remembered before.
func TestVerifierAnyChangeRefusedProperty(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	good := firstFrame(t, preNodes(t, setup, ids, keys)[0])
	v, err := NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Verify(good); !ok {
		t.Fatal("an honest confirm was refused")
	}
	rapid.Check(t, func(t *rapid.T) {
		b := bytes.Clone(good)
		i := rapid.IntRange(0, len(b)-1).Draw(t, "byte")
		b[i] ^= rapid.ByteRange(1, 255).Draw(t, "xor")
		if _, ok := v.Verify(b); ok {
			t.Fatalf("byte %d changed and still vouched for", i)
		}
	})
}

// The node skips only the signature it was vouched for: a Verified whose
// bytes differ from what was checked (as a bug might build) is refused as a
// bad signature, the zero Verified is refused, and the node's own check is
// back in place afterwards.
func TestStepVerifiedVouchesOnlyForItsFrame(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	sender := preNodes(t, setup, ids, keys)[0]
	good := firstFrame(t, sender)
	v, err := NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := v.Verify(good)
	if !ok {
		t.Fatal("an honest confirm was refused")
	}
	// The same confirm with a changed chain length: same signature.
	bad := bytes.Clone(good)
	bad[2+32+1+len(ids[0])+8+32+3] ^= 1
	forged := f
	forged.raw = bad
	receiver := preNodes(t, setup, ids, keys)[1]
	if err := receiver.StepVerified(ids[0], forged); err == nil {
		t.Fatal("a frame other than the one verified was accepted")
	}
	if err := receiver.StepVerified(ids[0], Verified{}); !errors.Is(err, errNotVerified) {
		t.Fatalf("zero Verified: %v, want errNotVerified", err)
	}
	if err := receiver.Step(ids[0], bad); err == nil {
		t.Fatal("after StepVerified, Step accepted a bad signature")
	}
	if got := receiver.Stats().Accepted; got != 1 { // its own confirm only
		t.Fatalf("accepted %d messages, want only the receiver's own confirm", got)
	}
	cheats := 0
	for _, e := range receiver.Ready().Events {
		if e.Kind == EventCheating && e.Cheat == CheatBadSignature {
			cheats++
		}
	}
	if cheats == 0 {
		t.Fatal("the bad signature was not reported as cheating")
	}
	if err := receiver.StepVerified(ids[0], f); err != nil {
		t.Fatalf("the verified frame itself: %v", err)
	}
	if got := receiver.Stats().Accepted; got < 2 {
		t.Fatalf("accepted %d messages, want the sender's confirm too", got)
	}
}

// Verify copies what it keeps: the caller may reuse its buffer at once.
func TestVerifyKeepsNoReference(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	buf := bytes.Clone(firstFrame(t, preNodes(t, setup, ids, keys)[0]))
	v, _ := NewVerifier(setup)
	f, ok := v.Verify(buf)
	if !ok {
		t.Fatal("refused")
	}
	for i := range buf {
		buf[i] = 0
	}
	if err := preNodes(t, setup, ids, keys)[1].StepVerified(ids[0], f); err != nil {
		t.Fatalf("after the caller reused its buffer: %v", err)
	}
}

// One Verifier serves many goroutines (run with -race).
func TestVerifierConcurrent(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	frames := [][]byte{firstFrame(t, preNodes(t, setup, ids, keys)[0]), firstFrame(t, preNodes(t, setup, ids, keys)[1])}
	v, _ := NewVerifier(setup)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, ok := v.Verify(frames[(g+i)%2]); !ok {
					t.Error("refused an honest frame")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestSignedBy(t *testing.T) {
	ids, keys := preKeys(t, 2)
	setup := preSetup(ids, "pre")
	good := firstFrame(t, preNodes(t, setup, ids, keys)[0])
	for _, c := range []struct {
		name string
		data []byte
		want peer.ID
	}{
		{"confirm", good, ids[0]},
		{"status", (&have{game: setup.GameID(), seqs: []uint64{1, 0}}).encode(), ""},
		{"cut in the sender", good[:2+32+3], ""},
		{"empty", nil, ""},
	} {
		if got := SignedBy(c.data); got != c.want {
			t.Errorf("%s: SignedBy = %q, want %q", c.name, got, c.want)
		}
	}
}

func BenchmarkVerifier(b *testing.B) {
	ids, keys := preKeys(b, 2)
	setup := preSetup(ids, "pre")
	good := firstFrame(b, preNodes(b, setup, ids, keys)[0])
	for b.Loop() {
		v, _ := NewVerifier(setup) // fresh: no remembered frames
		if _, ok := v.Verify(good); !ok {
			b.Fatal("refused")
		}
	}
}

// Verify and SignedBy take any bytes a peer sends: they never panic, and
// whatever Verify vouches for is a message whose signature the node's own
// check accepts, signed by the player SignedBy names.
func FuzzPreverify(f *testing.F) {
	ids, keys := preKeys(f, 2)
	setup := preSetup(ids, "pre")
	good := firstFrame(f, preNodes(f, setup, ids, keys)[0])
	f.Add(good)
	f.Add((&have{game: setup.GameID(), seqs: []uint64{1, 0}}).encode())
	f.Add([]byte{})
	v, err := NewVerifier(setup)
	if err != nil {
		f.Fatal(err)
	}
	keysOf := newKeyCache()
	f.Fuzz(func(t *testing.T, data []byte) {
		from := SignedBy(data)
		vf, ok := v.Verify(data)
		if !ok {
			return
		}
		if vf.from != from || !bytes.Equal(vf.raw, data) {
			t.Fatalf("vouched for a frame from %q, SignedBy says %q", vf.from, from)
		}
		m, err := decodeMessage(data)
		if err != nil || !keysOf.verify(m.from, m.signedPart(), m.sig) {
			t.Fatalf("vouched for a frame the node's own check refuses (%v)", err)
		}
	})
}
