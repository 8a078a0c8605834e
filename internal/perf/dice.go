package perf

import (
	"crypto/rand"
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// DiceTable is players lockstep nodes wired to each other in memory: the
// whole dice protocol (signed commits, reveals, moves, state hashes) with
// no network, no log and no clock, so its cost per roll can be measured
// alone.
type DiceTable struct {
	nodes []*lockstep.Node
	ids   []peer.ID
	index map[peer.ID]int
	queue []envelope
	pick  uint64
	// Frames and Bytes count what the nodes sent (a broadcast counts once
	// per receiver, as the transport sends it).
	Frames, Bytes int
}

type envelope struct {
	from peer.ID
	to   int
	data []byte
}

// NewDiceTable makes the nodes (with fresh keys and chains) for a game
// among players peers, every seat a person.
func NewDiceTable(players int) (*DiceTable, error) {
	if players < 2 || players > engine.NumColours {
		return nil, fmt.Errorf("perf: %d players", players)
	}
	keys := make([]crypto.PrivKey, players)
	d := &DiceTable{index: map[peer.ID]int{}}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "dice", Rules: engine.DefaultRules()}
	if _, err := rand.Read(setup.Nonce[:]); err != nil {
		return nil, err
	}
	for i := range players {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return nil, err
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			return nil, err
		}
		keys[i] = k
		d.ids = append(d.ids, id)
		d.index[id] = i
		c := engine.Colour(i)
		if players == 2 {
			c = engine.Colour(2 * i)
		}
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: c, Player: id})
	}
	for i := range players {
		var ent [32]byte
		if _, err := rand.Read(ent[:]); err != nil {
			return nil, err
		}
		n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: d.ids[i], Key: keys[i], Entropy: ent, AutoRoll: true})
		if err != nil {
			return nil, err
		}
		d.nodes = append(d.nodes, n)
	}
	return d, nil
}

// Play delivers every frame at once, in order, until the game is over or
// maxRolls rolls are applied on every node (0: no limit), and returns the
// rolls played.
func (d *DiceTable) Play(maxRolls int) (int, error) {
	rolls := make([]uint64, len(d.nodes))
	phases := make([]lockstep.Phase, len(d.nodes))
	for {
		progress := false
		for i, n := range d.nodes {
			for n.HasReady() {
				progress = true
				rd := n.Ready()
				for _, e := range rd.Messages {
					d.post(d.ids[i], e)
				}
				n.Advance(rd)
				phases[i] = rd.State.Phase
				for _, ev := range rd.Events {
					switch ev.Kind {
					case lockstep.EventYourMove:
						// Any legal move: the choice's cost is the engine's.
						d.pick = d.pick*6364136223846793005 + 1442695040888963407
						if err := n.Choose(ev.Moves[(d.pick>>33)%uint64(len(ev.Moves))]); err != nil {
							return 0, err
						}
					case lockstep.EventMoved:
						rolls[i] = ev.Roll
					case lockstep.EventHalted, lockstep.EventCheating, lockstep.EventStateMismatch:
						return 0, fmt.Errorf("perf: node %d: %s", i, ev)
					}
				}
			}
		}
		for len(d.queue) > 0 {
			progress = true
			e := d.queue[0]
			d.queue = d.queue[1:]
			// A frame lockstep rejects shows up as an event above.
			_ = d.nodes[e.to].Step(e.from, e.data)
		}
		played, over := rolls[0], true
		for i := range d.nodes {
			played = min(played, rolls[i])
			over = over && phases[i] == lockstep.PhaseOver
		}
		if (maxRolls > 0 && played >= uint64(maxRolls)) || over {
			return int(played), nil
		}
		if !progress {
			return int(played), errors.New("perf: the dice table is stuck")
		}
	}
}

func (d *DiceTable) post(from peer.ID, e lockstep.Envelope) {
	for j, id := range d.ids {
		if id == from || (e.To != "" && e.To != id) {
			continue
		}
		d.queue = append(d.queue, envelope{from, j, e.Data})
		d.Frames++
		d.Bytes += len(e.Data)
	}
}
