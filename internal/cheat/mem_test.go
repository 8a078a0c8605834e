package cheat

import (
	"bytes"
	"context"
	"crypto/rand"
	"regexp"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

type memFrame struct {
	from, to peer.ID
	data     []byte
}

// memGame plays three honest lockstep nodes and the cheater over an
// in-memory, in-order network: the same rewriting and attacks as over
// libp2p, without sockets, so a failure here is the cheater's or
// lockstep's, never the transport's.
func memGame(t *testing.T, attacks []string) (honest map[peer.ID][]lockstep.Event, hist map[peer.ID][32]byte, out string, cheater peer.ID) {
	t.Helper()
	var ids []peer.ID
	keys := map[peer.ID]crypto.PrivKey{}
	for range 4 {
		k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		id, _ := peer.IDFromPrivateKey(k)
		ids = append(ids, id)
		keys[id] = k
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "mem", Rules: engine.DefaultRules(), Nonce: [16]byte{7},
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Blue, Player: ids[1]},
			{Colour: engine.Yellow, Player: ids[2]}, {Colour: engine.Green, Player: ids[3]}}}
	nodes := map[peer.ID]*lockstep.Node{}
	for _, id := range ids[:3] {
		var ent [32]byte
		_, _ = rand.Read(ent[:])
		n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: id, Key: keys[id], Entropy: ent, AutoRoll: true})
		if err != nil {
			t.Fatal(err)
		}
		nodes[id] = n
	}
	var buf bytes.Buffer
	var queue []memFrame
	c, err := newPeer(Config{Key: keys[ids[3]], Attacks: attacks, Out: &buf}, setup, ids[3])
	if err != nil {
		t.Fatal(err)
	}
	c.wireSend = func(to peer.ID, data []byte) { queue = append(queue, memFrame{ids[3], to, data}) }
	honest = map[peer.ID][]lockstep.Event{}
	hist = map[peer.ID][32]byte{}
	done := map[peer.ID]bool{}
	for round := 0; round < 400000 && len(done) < 3; round++ {
		for _, id := range ids[:3] {
			n := nodes[id]
			for n.HasReady() {
				rd := n.Ready()
				for _, e := range rd.Messages {
					for _, to := range ids {
						if to != id && (e.To == "" || e.To == to) {
							queue = append(queue, memFrame{id, to, e.Data})
						}
					}
				}
				honest[id] = append(honest[id], rd.Events...)
				n.Advance(rd)
				if rd.State.Phase == lockstep.PhaseOver || rd.State.Phase == lockstep.PhaseHalted {
					done[id], hist[id] = true, rd.State.History
				}
				if len(rd.State.Moves) > 0 {
					_ = n.Choose(rd.State.Moves[0])
				}
			}
		}
		// The cheater's node, stepped by hand through the same rewriting
		// as forgeLink and the same OnReady as drive.
		chose := false
		for c.node.HasReady() {
			rd := c.node.Ready()
			for _, e := range rd.Messages {
				c.out(e)
			}
			m, ok := c.onReady(context.Background(), rd)
			c.node.Advance(rd)
			if ok {
				_ = c.node.Choose(m)
				chose = true
			}
		}
		if chose {
			continue
		}
		if len(queue) == 0 {
			for _, n := range nodes {
				n.Tick()
			}
			c.node.Tick()
			continue
		}
		f := queue[0]
		queue = queue[1:]
		if f.to == ids[3] {
			if data, ok := c.incoming(p2p.Inbound{From: f.from, Kind: p2p.KindGame, Data: f.data}); ok {
				_ = c.node.Step(f.from, data)
			}
		} else {
			_ = nodes[f.to].Step(f.from, f.data)
		}
	}
	if len(done) < 3 {
		for id, evs := range honest {
			t.Logf("%s: last events:", id)
			for _, e := range evs[max(0, len(evs)-12):] {
				t.Logf("   %s", e)
			}
			t.Logf("%s stats %+v", id, nodes[id].Stats())
		}
		t.Logf("cheater state %+v wire=%d nodeSeq=%d", c.state.Phase, len(c.wire), c.nodeSeq)
		t.Fatalf("the game did not end; cheater said:\n%s", buf.String())
	}
	return honest, hist, buf.String(), ids[3]
}

// Each forged input of the threat table, sent by the rewriting cheater
// over a perfect network, is named by all three honest nodes, and they end
// on one history: the cheater's own chain stays consistent on the wire.
func TestMemAttacks(t *testing.T) {
	attacks := []string{"bad-reveal", "out-of-turn", "wrong-seat", "illegal-move", "stale", "replay", "move-alone"}
	honest, hist, out, cheater := memGame(t, attacks)
	t.Logf("cheater:\n%s", out)
	want := map[string]lockstep.Cheat{"bad-reveal": lockstep.CheatBadReveal, "out-of-turn": lockstep.CheatOutOfTurn,
		"wrong-seat": lockstep.CheatWrongSeat, "illegal-move": lockstep.CheatIllegalMove, "stale": lockstep.CheatStaleMessage,
		"move-alone": lockstep.CheatOutOfTurn}
	var first [32]byte
	k := 0
	for id, evs := range honest {
		for a, kind := range want {
			if !strings.Contains(out, "attack "+a+" ") {
				t.Errorf("attack %s never made", a)
				continue
			}
			// Attacks of one kind are told apart by the roll they were made at.
			detail := ""
			if m := regexp.MustCompile(`attack ` + a + ` roll=(\d+)`).FindStringSubmatch(out); m != nil && a == "move-alone" {
				detail = "for roll " + m[1] + " "
			}
			found := false
			for _, e := range evs {
				found = found || (e.Kind == lockstep.EventCheating && e.Cheat == kind && e.Peer == cheater && strings.Contains(e.Detail, detail))
			}
			if !found {
				t.Errorf("%s: %s not named", id, a)
			}
		}
		absent := 0
		for _, e := range evs {
			if e.Kind == lockstep.EventAbsent || e.Kind == lockstep.EventHalted {
				absent++
				t.Logf("%s: %s", id, e)
			}
		}
		if absent > 0 {
			t.Errorf("%s: %d absences or halts on a perfect network", id, absent)
		}
		if k == 0 {
			first = hist[id]
		} else if hist[id] != first {
			t.Errorf("histories differ")
		}
		k++
	}
}

// The whole-game attacks in memory: a copied anchor is named at setup and
// the copier can never reveal, so it is voted absent and the three honest
// nodes finish on one history; two signed moves for one step halt every
// honest node with the equivocation named.
func TestMemWholeGameAttacks(t *testing.T) {
	for _, tc := range []struct {
		attack string
		want   []lockstep.Cheat
		halt   bool
	}{
		{"copied-chain", []lockstep.Cheat{lockstep.CheatCopiedChain, lockstep.CheatBadReveal}, false},
		{"equivocation", []lockstep.Cheat{lockstep.CheatEquivocation}, true},
	} {
		t.Run(tc.attack, func(t *testing.T) {
			honest, hist, out, cheater := memGame(t, []string{tc.attack})
			if !strings.Contains(out, "attack "+tc.attack) {
				t.Fatalf("attack never made:\n%s", out)
			}
			var first [32]byte
			k := 0
			for id, evs := range honest {
				for _, kind := range tc.want {
					found := false
					for _, e := range evs {
						found = found || (e.Kind == lockstep.EventCheating && e.Cheat == kind && e.Peer == cheater)
					}
					if !found {
						t.Errorf("%s: %s not named", id, kind)
					}
				}
				halted := false
				for _, e := range evs {
					halted = halted || e.Kind == lockstep.EventHalted
				}
				if halted != tc.halt {
					t.Errorf("%s: halted=%v, want %v", id, halted, tc.halt)
				}
				if tc.halt {
					continue
				}
				if k == 0 {
					first = hist[id]
				} else if hist[id] != first {
					t.Errorf("histories differ")
				}
				k++
			}
		})
	}
}
