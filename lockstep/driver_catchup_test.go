package lockstep

import (
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"

	"github.com/libp2p/go-libp2p/core/peer"
)

// After the end, a finished peer's Readies re-send signed messages to one
// peer only when that peer is catching up (what makes Driver.Run linger
// on): a player restored from half of its log asks, gets the rest of the
// game from the finished one, and reaches the same end; a finished peer
// with nobody behind it sends nothing that would keep it lingering.
func TestServesCatchUpAfterTheEnd(t *testing.T) {
	var cfgs []Config
	var ids []peer.ID
	for i := range 2 {
		k, id := testkit.Key(i+3), testkit.ID(i+3)
		ids = append(ids, id)
		cfgs = append(cfgs, Config{Self: id, Key: k, Entropy: [32]byte{byte(i)}, AutoRoll: true})
	}
	setup := Setup{Version: Version, Name: "linger",
		Seats: []Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Yellow, Player: ids[1]}}}
	nodes := make([]*Node, 2)
	for i := range cfgs {
		cfgs[i].Setup = setup
		n, err := NewNode(cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = n
	}
	var lagLog []Record
	// run drives the nodes for up to ticks ticks, delivering everything,
	// and reports each node's phase and whether node 0 served a catch-up.
	run := func(ticks int) (over [2]bool, served bool) {
		for range ticks {
			for i, n := range nodes {
				for n.HasReady() {
					rd := n.Ready()
					if i == 0 && rd.State.Phase == PhaseOver && servesCatchUp(rd) {
						served = true
					}
					if i == 1 {
						lagLog = append(lagLog, rd.LogEntries...)
					}
					for _, m := range rd.Messages {
						if m.To != "" && m.To != ids[1-i] {
							continue
						}
						if err := nodes[1-i].Step(ids[i], m.Data); err != nil {
							t.Fatal(err)
						}
					}
					for _, e := range rd.Events {
						if e.Kind == EventYourMove {
							if err := n.Choose(e.Moves[0]); err != nil {
								t.Fatal(err)
							}
						}
					}
					n.Advance(rd)
					over[i] = rd.State.Phase == PhaseOver
				}
				n.Tick()
			}
			if over[0] && over[1] && ticks > 100 {
				return over, served
			}
		}
		return over, served
	}
	if over, served := run(20000); !over[0] || !over[1] {
		t.Fatalf("the game did not finish: %v", over)
	} else if served {
		t.Fatal("a catch-up was served while both peers kept up")
	}
	if _, served := run(100); served {
		t.Fatal("a finished peer with nobody behind re-sent messages (it would linger for nothing)")
	}
	// Player 1 restarts from the first half of its log, far behind.
	lagger, err := Restore(cfgs[1], lagLog[:len(lagLog)/2])
	if err != nil {
		t.Fatal(err)
	}
	nodes[1] = lagger
	over, served := run(20000)
	if !served {
		t.Fatal("the finished peer never served the restored one's catch-up")
	}
	if !over[1] {
		t.Fatal("the restored peer never reached the end")
	}
	if a, b := nodes[0].Ready().State.History, nodes[1].Ready().State.History; a != b {
		t.Fatalf("histories differ after the catch-up: %x / %x", a, b)
	}
}
