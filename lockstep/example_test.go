package lockstep_test

import (
	"bytes"
	"fmt"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Two peers play a whole game over a perfect in-memory "network", driven
// exactly as p2p drives nodes: Step frames in, Tick, handle Ready (log
// first, then send), Advance.
func ExampleNewNode() {
	var ids []peer.ID
	var keys []crypto.PrivKey
	for i := 0; i < 2; i++ {
		seed := bytes.Repeat([]byte{byte(i + 1)}, 64) // fixed keys: a reproducible example
		k, _, _ := crypto.GenerateEd25519Key(bytes.NewReader(seed))
		id, _ := peer.IDFromPrivateKey(k)
		ids, keys = append(ids, id), append(keys, k)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "example",
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Yellow, Player: ids[1]}}}
	nodes := make([]*lockstep.Node, 2)
	logs := make([][]byte, 2)
	for i := range nodes {
		var entropy [32]byte // use crypto/rand in real life, and keep it private
		entropy[0] = byte(i)
		nodes[i], _ = lockstep.NewNode(lockstep.Config{Setup: setup, Self: ids[i], Key: keys[i], Entropy: entropy, AutoRoll: true})
		logs[i] = lockstep.LogHeader()
	}
	var ranking []engine.Colour
	for tick := 0; tick < 10000 && ranking == nil; tick++ {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				logs[i] = append(logs[i], lockstep.EncodeRecords(rd.LogEntries...)...) // durable first
				for _, m := range rd.Messages {
					_ = nodes[1-i].Step(ids[i], m.Data) // the only other player
				}
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventYourMove:
						_ = n.Choose(e.Moves[0]) // a very simple player
					case lockstep.EventGameOver:
						ranking = e.Ranking
					}
				}
				n.Advance(rd)
			}
			n.Tick()
		}
	}
	a, _ := lockstep.Verify(logs[0])
	b, _ := lockstep.Verify(logs[1])
	fmt.Println("finished:", ranking != nil)
	fmt.Println("both logs verify to one history:", a.History == b.History && a.Phase == lockstep.PhaseOver)
	// Output:
	// finished: true
	// both logs verify to one history: true
}
