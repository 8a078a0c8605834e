package lockstep

import (
	"bytes"
	"os"
	"testing"
)

// FuzzDecodeMessage: any bytes either fail to decode or decode to a message
// whose encoding is exactly those bytes (one encoding per message), and
// feeding them to a node never panics or corrupts it.
func FuzzDecodeMessage(f *testing.F) {
	recs := goldenRecords(f)
	for _, r := range recs[1:8] {
		f.Add(r.Data)
	}
	f.Add((&have{game: GameID{1}, seqs: []uint64{1, 2, 3}}).encode())
	setup0, _ := DecodeSetup(recs[0].Data)
	for _, m := range []*message{
		{kind: kindLeave, from: setup0.Players()[0], seq: 9, colour: 2, k: 17},
		{kind: kindPause, from: setup0.Players()[0], seq: 9, k: 31},
		{kind: kindPause, from: setup0.Players()[0], seq: 10, k: 0},
		{kind: kindAbsent, from: setup0.Players()[0], seq: 9, who: setup0.Players()[1], step: 34, vote: voteGoOn},
		{kind: kindAbsent, from: setup0.Players()[0], seq: 10, who: setup0.Players()[1], step: 34, vote: voteWithdraw},
		{kind: kindTake, from: "12D3KooWAXrX6MZ19LytqZWFVCCwR64nDYLgoGMo3skmiNX2J7d7", seq: 1, colour: 2, k: 0, chainLen: DefaultChainLen, anchor: [32]byte{5}},
		{kind: kindTake, from: "12D3KooWAXrX6MZ19LytqZWFVCCwR64nDYLgoGMo3skmiNX2J7d7", seq: 2, colour: 2, k: 24, chainLen: DefaultChainLen, anchor: [32]byte{5}},
		{kind: kindAbsent, from: setup0.Players()[0], seq: 9, who: "12D3KooWAXrX6MZ19LytqZWFVCCwR64nDYLgoGMo3skmiNX2J7d7", step: 24, vote: voteSeatYes},
	} {
		m.game = setup0.GameID()
		m.seal(func([]byte) ([]byte, error) { return make([]byte, 64), nil })
		f.Add(m.raw)
	}
	f.Add([]byte{1, 2})
	f.Add((&have{game: setup0.GameID(), seqs: []uint64{3, 4, 0, 9}, recovering: true}).encode())
	setup, _ := DecodeSetup(recs[0].Data)
	f.Fuzz(func(t *testing.T, b []byte) {
		if isHave(b) {
			if h, err := decodeHave(b); err == nil && !bytes.Equal(h.encode(), b) {
				t.Fatalf("have re-encodes differently")
			}
		} else if m, err := decodeMessage(b); err == nil {
			w := writer{b: m.body()}
			w.blob(m.sig)
			if !bytes.Equal(w.b, b) {
				t.Fatalf("message re-encodes differently:\n%x\n%x", w.b, b)
			}
		}
		n, err := newNode(Config{Setup: setup})
		if err != nil {
			t.Fatal(err)
		}
		_ = n.Step("12D3KooWAXrX6MZ19LytqZWFVCCwR64nDYLgoGMo3skmiNX2J7d7", b)
		if n.g.phase != PhaseSetup {
			t.Fatalf("an unsigned frame moved the game to %s", n.g.phase)
		}
	})
}

// FuzzParseLog: any bytes either fail with a LogError or parse to records
// that re-encode to exactly the input; it never panics.
func FuzzParseLog(f *testing.F) {
	data, err := os.ReadFile("testdata/game.log")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:2000])
	f.Add(LogHeader())
	f.Add(append(LogHeader(), EncodeRecords(Record{Type: RecordSetup, Data: []byte("x")})...))
	// Tails a machine crash leaves (TornTail): zeros from a record's start,
	// zeros from inside one, and zeros followed by a stray byte (corrupt).
	zeroed := func(from int, stray bool) []byte {
		b := bytes.Clone(data[:2000])
		clear(b[from:])
		if stray {
			b[len(b)-1] = 1
		}
		return b
	}
	recs := goldenRecords(f)
	f.Add(zeroed(int(recs[3].Offset), false))
	f.Add(zeroed(int(recs[3].Offset)+11, false))
	f.Add(zeroed(int(recs[3].Offset), true))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := ParseLog(b)
		if err != nil {
			le, ok := err.(*LogError)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if le.Torn && !le.HeaderTorn() {
				// A torn tail is repaired by cutting there: what is
				// left parses to the same records.
				if again, err := ParseLog(b[:le.Offset]); err != nil || len(again) != len(recs) {
					t.Fatalf("cut at the torn tail %d: %d records, %v; want %d", le.Offset, len(again), err, len(recs))
				}
				if !TornTail(b, le.Offset) && int(le.Offset)+8 <= len(b) {
					t.Fatalf("ParseLog calls byte %d torn, TornTail does not", le.Offset)
				}
			}
			_, _ = Verify(b) // must not panic
			return
		}
		if got := append(LogHeader(), EncodeRecords(recs...)...); !bytes.Equal(got, b) {
			t.Fatalf("records re-encode differently")
		}
		_, _ = VerifyRecords(recs) // must not panic
	})
}

// FuzzDecodeSetup: a setup that decodes re-encodes to the same bytes and validates.
func FuzzDecodeSetup(f *testing.F) {
	recs := goldenRecords(f)
	f.Add(recs[0].Data)
	_, bad := badSetups(f) // each must fail to decode
	for _, tc := range bad {
		f.Add(tc.setup.Encode())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSetup(b)
		if err != nil {
			return
		}
		if !bytes.Equal(s.Encode(), b) {
			t.Fatalf("setup re-encodes differently")
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

func goldenRecords(tb testing.TB) []Record {
	data, err := os.ReadFile("testdata/game.log")
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := ParseLog(data)
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}
