package lockstep

import (
	"testing"

	"aeroplane/engine"
)

// A manual player rolls every die of its own with Roll, the extra roll after
// a 6 too: its move goes out alone (a move message) and its link for the
// next roll only when it rolls, so no peer derives that roll before. The
// history is the same as with every peer rolling automatically, and each
// peer's log (holding move messages) verifies to it.
func TestSimManualExtraRoll(t *testing.T) {
	extra, moveMsgs := 0, 0
	for seed := uint64(1); seed <= raceScale(6); seed++ {
		players := 2 + int(seed%3)
		auto := newSim(t, seed, players, 4-players, simFaults{}, false)
		auto.start()
		auto.run()
		auto.check(true)

		s := newSim(t, seed, players, 4-players, simFaults{}, false)
		for i := range s.peers {
			s.setManual(i, 3+int(seed)%7)
		}
		s.start()
		s.run()
		s.check(true)
		if h, want := s.peers[0].node.g.hist, auto.peers[0].node.g.hist; h != want {
			t.Fatalf("seed %d: manual rolling changed the history: %x, automatic %x", seed, h[:6], want[:6])
		}
		for _, p := range s.peers {
			colour := p.node.players[p.node.self].colour
			asked := map[uint64]bool{}
			chose := map[uint64]bool{} // rolls whose move p chose (so it was not forced)
			for _, e := range p.events {
				switch e.Kind {
				case EventYourRoll:
					asked[e.Roll] = true
				case EventYourMove:
					chose[e.Roll] = true
				}
			}
			for i, e := range p.events {
				if e.Kind != EventRolled || e.Colour != colour {
					continue
				}
				at, ok := p.rolled[e.Roll]
				if !asked[e.Roll] || !ok {
					t.Fatalf("seed %d: %s's roll %d (%s) came without it being asked (%v) or rolling (%v)", seed, short(p.id), e.Roll, colour, asked[e.Roll], ok)
				}
				if p.at[i] < at {
					t.Fatalf("seed %d: %s derived its own roll %d at tick %d before rolling it at %d", seed, short(p.id), e.Roll, p.at[i], at)
				}
				// Nobody else derives it before the player rolls either.
				for _, q := range s.peers {
					for j, f := range q.events {
						if f.Kind == EventRolled && f.Roll == e.Roll && q.at[j] < at {
							t.Fatalf("seed %d: %s derived %s's roll %d at tick %d, before it rolled at %d", seed, short(q.id), short(p.id), e.Roll, q.at[j], at)
						}
					}
				}
				if chose[e.Roll-1] && movedAgain(p.events[:i], colour, e.Roll-1) {
					extra++
				}
			}
			for _, m := range p.node.players[p.node.self].msgs {
				if m.kind == kindMove {
					moveMsgs++
				}
			}
			v, err := verifyRecords(roundTripLog(t, p.log), fakeVerify)
			if err != nil || v.History != p.node.g.hist {
				t.Fatalf("seed %d: %s's log with move messages does not verify: %v", seed, short(p.id), err)
			}
		}
	}
	if extra == 0 || moveMsgs == 0 {
		t.Fatalf("no manual player rolled again after its own move (%d extra rolls, %d move messages)", extra, moveMsgs)
	}
	t.Logf("%d extra rolls by key after a chosen move, %d move messages", extra, moveMsgs)
}

// movedAgain reports whether colour moved for roll k in evs and keeps the
// dice: roll k+1 is an extra roll of the same player.
func movedAgain(evs []Event, colour engine.Colour, k uint64) bool {
	for i := len(evs) - 1; i >= 0; i-- {
		if e := evs[i]; e.Kind == EventMoved && e.Roll == k {
			return e.Colour == colour && e.Result.Next == colour
		}
	}
	return false
}

// A move message has one encoding: it round-trips, and a move field out of
// range, a missing byte or a trailing byte is refused.
func TestDecodeMoveMessage(t *testing.T) {
	m := &message{kind: kindMove, game: GameID{7}, from: "player-a", seq: 9, prev: [32]byte{1},
		k: 41, state: [32]byte{2}, hasMove: true, move: engine.Move{Kind: engine.PlaneMove, Colour: engine.Blue, Plane: 3}}
	if err := m.seal(fakeKey{"player-a"}.Sign); err != nil {
		t.Fatal(err)
	}
	got, err := decodeMessage(m.raw)
	if err != nil || got.kind != kindMove || got.k != 41 || got.state != m.state || got.move != m.move || !got.hasMove {
		t.Fatalf("decoded %+v, %v", got, err)
	}
	moveAt := len(m.raw) - 2 - len(m.sig) - 3
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"move kind out of range", patch(m.raw, moveAt, uint8(engine.Penalty)+1)},
		{"colour out of range", patch(m.raw, moveAt+1, engine.NumColours)},
		{"plane out of range", patch(m.raw, moveAt+2, engine.PlanesPerColour)},
		{"short", m.raw[:len(m.raw)-1]},
		{"trailing byte", append(append([]byte(nil), m.raw...), 0)},
	} {
		if _, err := decodeMessage(tc.b); err == nil {
			t.Errorf("%s: decoded", tc.name)
		}
	}
}

func patch(b []byte, i int, v uint8) []byte {
	c := append([]byte(nil), b...)
	c[i] = v
	return c
}
