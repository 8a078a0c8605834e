package lockstep

import (
	"encoding/hex"
	"path/filepath"
	"testing"

	"aeroplane/internal/testkit"
)

// TestGoldenLog pins the whole protocol: a seeded 2-player + 1-bot game with
// real keys must produce exactly the committed log, byte for byte, and the
// committed log must verify. aeroplane verify/replay tests use game.log;
// manual.log is the same seed with both players rolling by hand, so it
// holds move messages (a player's move alone before its extra roll);
// leave.log is the same seed with the second player leaving mid-game (a
// Leave message: the log format of leaving).
func TestGoldenLog(t *testing.T) {
	for _, tc := range []struct {
		file   string
		manual bool
		leave  bool
	}{{"game.log", false, false}, {"manual.log", true, false}, {"leave.log", false, true}} {
		t.Run(tc.file, func(t *testing.T) {
			s := newSim(t, 11, 2, 1, simFaults{}, true)
			if tc.manual {
				s.setManual(0, 2)
				s.setManual(1, 3)
			}
			s.start()
			left := 0
			if tc.leave {
				leaveAt(t, s, s.peers[1], 30, &left)
			}
			s.run()
			s.check(true)
			got := append(LogHeader(), EncodeRecords(s.peers[0].log...)...)
			path := filepath.Join("testdata", tc.file)
			// A difference is the protocol's output changing for the same seed.
			testkit.Golden(t, path, got)
			if t.Failed() {
				return
			}
			want := got
			v, err := Verify(want)
			if err != nil {
				t.Fatal(err)
			}
			if v.Phase != PhaseOver || v.History != s.peers[1].node.g.hist {
				t.Fatalf("golden log verifies to phase %s history %x", v.Phase, v.History[:6])
			}
			moves := 0
			for _, m := range s.peers[0].node.players[0].msgs {
				if m.kind == kindMove {
					moves++
				}
			}
			if tc.manual != (moves > 0) {
				t.Fatalf("%s holds %d move messages", tc.file, moves)
			}
			leaves := 0
			for _, e := range v.Events {
				if e.Kind == EventLeft {
					leaves++
				}
			}
			if tc.leave != (leaves == 1) {
				t.Fatalf("%s replays %d leaves", tc.file, leaves)
			}
		})
	}
}

// TestGoldenDice pins the roll derivation: links, roll hash, die face and
// the rejection sampling path, for fixed inputs.
func TestGoldenDice(t *testing.T) {
	g := GameID{}
	copy(g[:], "aeroplane golden dice game id..")
	links := []Contribution{{Player: "player-a", Link: ChainStep(g, "player-a", [32]byte{1})}, {Player: "player-b", Link: ChainStep(g, "player-b", [32]byte{2})}}
	var got []byte
	for k := uint64(0); k < 12; k++ {
		got = append(got, byte('0'+DeriveRoll(g, k, links)))
	}
	h := RollHash(g, 5, links)
	const wantRolls = "156565625123"
	const wantHash = "dc93832539d058e338c4ab4f4355db5a2e707c5586fe280e449050d43447fd1f"
	if string(got) != wantRolls || hex.EncodeToString(h[:]) != wantHash {
		t.Fatalf("dice changed: rolls %s hash %x", got, h)
	}
	// Rejection: bytes ≥ 252 are skipped, never folded by % 6.
	var skip [32]byte
	for i := range skip {
		skip[i] = 255
	}
	skip[7] = 253
	skip[9] = 13
	if d := Die(skip); d != 1+13%6 {
		t.Fatalf("die of a hash whose first usable byte is 13: %d", d)
	}
	var none [32]byte
	for i := range none {
		none[i] = 252 + byte(i%4)
	}
	if d := Die(none); d < 1 || d > 6 {
		t.Fatalf("rehash path gave %d", d)
	}
}
