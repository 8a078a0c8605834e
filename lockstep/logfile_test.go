package lockstep

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func finishedLog(t testing.TB, players, bots int) (*sim, []byte) {
	t.Helper()
	s := newSim(t, 3, players, bots, simFaults{drop: 0.1, maxDelay: 3}, true)
	s.start()
	s.run()
	s.check(true)
	return s, append(LogHeader(), EncodeRecords(s.peers[0].log...)...)
}

func TestVerifyEveryPeersLog(t *testing.T) {
	s, _ := finishedLog(t, 3, 1)
	for _, p := range s.peers {
		v, err := Verify(append(LogHeader(), EncodeRecords(p.log...)...))
		if err != nil {
			t.Fatalf("%s: %v", short(p.id), err)
		}
		g := &p.node.g
		if v.Phase != PhaseOver || v.History != g.hist || v.Pos != g.pos || len(v.Cheats) != 0 {
			t.Fatalf("%s: verify says phase %s history %x cheats %v; the peer %x", short(p.id), v.Phase, v.History[:6], v.Cheats, g.hist[:6])
		}
		if len(v.Ranking) != 4 || v.Rolls != g.k-1 {
			t.Fatalf("ranking %v rolls %d", v.Ranking, v.Rolls)
		}
	}
}

func TestLogRejectsDamage(t *testing.T) {
	_, file := finishedLog(t, 2, 0)
	recs, err := ParseLog(file)
	if err != nil {
		t.Fatal(err)
	}
	mid := recs[len(recs)/2]
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		offset int64
		torn   bool
		reason string
	}{
		{"bit flip in a payload", func(b []byte) []byte { b[mid.Offset+20] ^= 1; return b }, mid.Offset, false, "checksum"},
		{"length field garbage", func(b []byte) []byte { b[mid.Offset] = 0xff; return b }, mid.Offset, false, "length"},
		{"cut in the middle of the last record", func(b []byte) []byte { return b[:len(b)-7] }, recs[len(recs)-1].Offset, true, "needs"},
		{"cut in a record header", func(b []byte) []byte { return b[:recs[len(recs)-1].Offset+3] }, recs[len(recs)-1].Offset, true, "header"},
		{"wrong magic", func(b []byte) []byte { b[0] = 'X'; return b }, 0, false, "magic"},
		{"future version", func(b []byte) []byte { b[9] = 9; return b }, 8, false, "version"},
		{"zeroed tail", func(b []byte) []byte {
			last := recs[len(recs)-1].Offset
			for i := last + 8; i < int64(len(b)); i++ {
				b[i] = 0
			}
			return b
		}, recs[len(recs)-1].Offset, true, "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.damage(bytes.Clone(file))
			_, err := ParseLog(bad)
			var le *LogError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a LogError", err)
			}
			if le.Offset != tc.offset || le.Torn != tc.torn || !strings.Contains(le.Reason, tc.reason) {
				t.Fatalf("got %v (offset %d torn %v), want offset %d torn %v reason ~%q", err, le.Offset, le.Torn, tc.offset, tc.torn, tc.reason)
			}
			// Verify checks the records before a torn tail and reports
			// it; any other damage rejects the log.
			v, verr := Verify(bad)
			if tc.torn && (verr != nil || v.Torn == nil || v.Torn.Offset != tc.offset) {
				t.Fatalf("torn: Verify gave %v, %v", v, verr)
			}
			if !tc.torn && verr == nil {
				t.Fatalf("Verify accepted damage")
			}
		})
	}
	// A record rewritten with a valid checksum but a changed signed byte
	// fails its signature, named with the record's offset.
	forged := bytes.Clone(recs[len(recs)/2].Data)
	forged[len(forged)-10] ^= 1
	recs2 := append([]Record(nil), recs...)
	recs2[len(recs)/2] = Record{Type: RecordMessage, Data: forged}
	data := append(LogHeader(), EncodeRecords(recs2...)...)
	_, err = Verify(data)
	if err == nil || !strings.Contains(err.Error(), "at byte") || !strings.Contains(err.Error(), "signature") {
		t.Fatalf("a forged record passed: %v", err)
	}
	t.Log(err)
}

// Every cut of a log inside or just past its header: a strict prefix of
// the header is a torn, empty log (the process died before the header
// reached disk), the whole header is an empty log, and the same lengths of
// foreign bytes are not a game log at all.
func TestLogHeaderCuts(t *testing.T) {
	full := append(LogHeader(), EncodeRecords(Record{Type: RecordSetup, Data: []byte("setup")})...)
	for n := 0; n <= len(full); n++ {
		t.Run(fmt.Sprintf("prefix %d", n), func(t *testing.T) {
			recs, err := ParseLog(full[:n])
			var le *LogError
			switch {
			case n < logHeaderSize:
				if !errors.As(err, &le) || !le.HeaderTorn() || !errors.Is(err, ErrTornTail) || len(recs) != 0 {
					t.Fatalf("got %d records, %v; want a torn header", len(recs), err)
				}
				if !strings.Contains(err.Error(), "torn header") || !strings.Contains(err.Error(), "rewrites it") {
					t.Errorf("message %q does not say the header is torn and what happens", err)
				}
			case n == logHeaderSize:
				if err != nil || len(recs) != 0 {
					t.Fatalf("got %d records, %v; want an empty log", len(recs), err)
				}
			case n < len(full):
				if !errors.As(err, &le) || !le.Torn || le.HeaderTorn() || le.Offset != logHeaderSize {
					t.Fatalf("got %v; want a torn first record at byte %d", err, logHeaderSize)
				}
			default:
				if err != nil || len(recs) != 1 {
					t.Fatalf("got %d records, %v; want the setup", len(recs), err)
				}
			}
		})
	}
	// Not a prefix of the header: a foreign file, whatever its length.
	for n := 1; n <= logHeaderSize; n++ {
		bad := bytes.Clone(LogHeader()[:n])
		bad[n-1] ^= 0x40
		_, err := ParseLog(bad)
		var le *LogError
		if !errors.As(err, &le) || le.Torn || errors.Is(err, ErrTornTail) {
			t.Errorf("foreign %d bytes %q: got %v, want not a game log", n, bad, err)
		}
	}
}
