package lockstep

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Every point a crash can cut an honest log at is accepted by Verify: the
// end-of-log rule (endGap) never takes a crash, a partition, an absence
// vote or a rollback for records removed. Each peer's log of 150 seeded
// faulty games (partitions, drops, crashes, absence votes) is replayed one
// record at a time, as Verify replays that prefix, checking the end after
// every record.
func TestVerifyAcceptsEveryCrashPoint(t *testing.T) {
	games := uint64(150)
	if testing.Short() || raceOn {
		games = 15
	}
	cuts, lead := 0, uint64(0)
	for seed := uint64(1); seed <= games; seed++ {
		s := faultySim(t, seed)
		s.start()
		s.run()
		for _, p := range s.peers {
			n, err := newNode(Config{Setup: p.cfg.Setup, verify: fakeVerify})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range p.log[1:] {
				cuts++
				if err := n.replay([]Record{r}); err != nil {
					t.Fatalf("seed %d: %s's log, record %d: %v", seed, short(p.id), i+2, err)
				}
				if n.g.phase != PhaseOver && n.g.phase != PhaseHalted {
					lead = max(lead, n.writerLead())
				}
				if err := n.endGap(); err != nil {
					t.Fatalf("seed %d: %s's log cut after record %d of %d: %v%s", seed, short(p.id), i+2, len(p.log), err, s.describe())
				}
			}
		}
	}
	t.Logf("%d cuts of %d games' logs verify; the longest lead of a writer's own messages %d steps (maxLead %d)", cuts, games, lead, maxLead)
}

// A log with records taken out, or damaged, is never accepted as whole; a
// cut or torn end is accepted and reported as unfinished or torn.
func TestVerifyRejectsGaps(t *testing.T) {
	s, file := finishedLog(t, 3, 0)
	recs, err := ParseLog(file)
	if err != nil {
		t.Fatal(err)
	}
	// The sender of the middle record and where its messages are cut.
	mid := len(recs) / 2
	m, err := decodeMessage(recs[mid].Data)
	if err != nil {
		t.Fatal(err)
	}
	victim := m.from
	senderTail := func() []Record {
		var out []Record
		for _, r := range recs {
			if r.Type == RecordMessage {
				if m, _ := decodeMessage(r.Data); m.from == victim && m.seq > 40 {
					continue
				}
			}
			out = append(out, r)
		}
		return out
	}
	without := func(i int) []Record { return append(append([]Record(nil), recs[:i]...), recs[i+1:]...) }
	encode := func(rs []Record) []byte { return append(LogHeader(), EncodeRecords(rs...)...) }
	zeroTail := func(n int) []byte {
		b := bytes.Clone(file)
		clear(b[recs[len(recs)-n].Offset:])
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		gap  bool   // wraps ErrLogGap
		err  string // in the error ("" for accepted)
		torn bool   // accepted with a torn tail
		over bool   // accepted as a finished game
	}{
		{name: "whole", data: file, over: true},
		{name: "a middle record dropped", data: encode(without(mid)), gap: true, err: "sequence"},
		{name: "the first message dropped", data: encode(without(1)), gap: true, err: "sequence 2, but the log holds its messages only up to 0"},
		{name: "a record repeated", data: encode(append(append(append([]Record(nil), recs[:mid+1]...), recs[mid]), recs[mid+1:]...)), err: "comes again"},
		{name: "the last records dropped", data: encode(recs[:len(recs)-30])},
		{name: "one sender's tail removed", data: encode(senderTail()), gap: true, err: "waiting for " + short(victim)},
		{name: "zero-filled tail", data: zeroTail(3), torn: true},
		{name: "zero-filled from inside a record", data: func() []byte {
			b := bytes.Clone(file)
			clear(b[recs[len(recs)-3].Offset+11:])
			return b
		}(), torn: true},
		{name: "zeros then data", data: func() []byte { b := zeroTail(3); b[len(b)-1] = 1; return b }(), err: "corrupt at byte"},
		{name: "a byte flipped", data: func() []byte { b := bytes.Clone(file); b[recs[mid].Offset+20] ^= 1; return b }(), err: "corrupt at byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Verify(tc.data)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || errors.Is(err, ErrLogGap) != tc.gap {
					t.Fatalf("got %v; want an error with %q (gap %v)", err, tc.err, tc.gap)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if (v.Torn != nil) != tc.torn || (v.Phase == PhaseOver) != tc.over {
				t.Fatalf("torn %v phase %s; want torn %v over %v", v.Torn, v.Phase, tc.torn, tc.over)
			}
			if !tc.over && len(v.Awaiting) == 0 {
				t.Fatalf("an unfinished game names nobody it waits for")
			}
		})
	}
	_ = s
}

// The game and verify call the same damage torn: TornTail is what ParseLog
// marks Torn.
func TestTornTailMatchesParseLog(t *testing.T) {
	_, file := finishedLog(t, 2, 0)
	recs, _ := ParseLog(file)
	last := recs[len(recs)-1].Offset
	for cut := last; cut <= int64(len(file)); cut++ {
		b := bytes.Clone(file)
		clear(b[cut:])
		_, err := ParseLog(b)
		var le *LogError
		if cut == int64(len(file)) {
			if err != nil {
				t.Fatalf("undamaged: %v", err)
			}
			continue
		}
		if !errors.As(err, &le) || !le.Torn || le.Offset != last || !TornTail(b, le.Offset) {
			t.Fatalf("zeros from byte %d: %v; want torn at %d", cut, err, last)
		}
	}
}
