package perf

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/memnet"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// DiceTable is players lockstep nodes, each run by the real loop
// (lockstep.Driver), wired to each other by an in-memory network
// (internal/memnet): the whole dice protocol (signed commits, reveals on
// the verification lanes, moves, state hashes) with no sockets, no disk
// (SyncNone) and a clock that never ticks, so its cost per roll can be
// measured alone.
type DiceTable struct {
	nodes []*lockstep.Node
	ids   []peer.ID
	index map[peer.ID]int
	// Frames and Bytes count what the nodes sent (a broadcast counts once
	// per receiver, as the transport sends it).
	Frames, Bytes int
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

// Play runs the drivers until the game is over or maxRolls rolls are
// applied on every node (0: no limit), and returns the rolls played.
func (d *DiceTable) Play(maxRolls int) (int, error) {
	net := memnet.New(d.ids...)
	defer net.Close()
	// A perfect network needs no re-sends and nobody is ever late: a
	// game that stops moving is stuck, and this bounds the wait for it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var (
		mu      sync.Mutex
		rolls   = make([]uint64, len(d.nodes))
		failure error
	)
	played := func() int {
		m := rolls[0]
		for _, r := range rolls {
			m = min(m, r)
		}
		return int(m)
	}
	picks := make([]uint64, len(d.nodes)) // each touched by its node's driver only
	states, errs := net.Play(ctx, d.nodes, memnet.PlayConfig{
		// Any legal move: the choice's cost is the engine's.
		Choose: func(i int, moves []engine.Move) engine.Move {
			picks[i] = picks[i]*6364136223846793005 + 1442695040888963407
			return moves[(picks[i]>>33)%uint64(len(moves))]
		},
		OnReady: func(i int, rd lockstep.Ready) {
			mu.Lock()
			defer mu.Unlock()
			for _, ev := range rd.Events {
				switch ev.Kind {
				case lockstep.EventMoved:
					rolls[i] = ev.Roll
					if maxRolls > 0 && played() >= maxRolls {
						cancel()
					}
				case lockstep.EventHalted, lockstep.EventCheating, lockstep.EventStateMismatch:
					failure = cmp.Or(failure, fmt.Errorf("perf: node %d: %s", i, ev))
					cancel()
				}
			}
		}})
	d.Frames, d.Bytes = int(net.Frames.Load()), int(net.Bytes.Load())
	mu.Lock()
	defer mu.Unlock()
	if failure != nil {
		return 0, failure
	}
	if maxRolls > 0 && played() >= maxRolls {
		return played(), nil
	}
	for i, st := range states {
		if errs[i] != nil || st.Phase != lockstep.PhaseOver {
			return played(), fmt.Errorf("perf: the dice table is stuck: node %d in phase %s (%v)", i, st.Phase, errs[i])
		}
	}
	return played(), nil
}
