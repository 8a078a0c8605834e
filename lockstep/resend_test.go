package lockstep

import (
	"testing"
)

// haveFlood feeds node n of a finished game haves status frames from
// player q, each claiming q holds the counts claim gives, perTick of
// them a tick, and counts the signed messages sent back to q.
func haveFlood(s *sim, claim func(i int, held uint64) uint64, haves, perTick int) (frames int) {
	n, q := s.peers[0].node, s.peers[1].id
	h := &have{game: n.gid}
	for i, p := range n.players {
		h.seqs = append(h.seqs, claim(i, uint64(len(p.msgs))))
	}
	frame := h.encode()
	for range n.resendWindow() { // past the game's own last answers
		n.Tick()
	}
	n.Advance(n.Ready())
	for k := range haves {
		if k%perTick == 0 {
			n.Tick()
		}
		if err := n.Step(q, frame); err != nil {
			panic(err)
		}
		rd := n.Ready()
		for _, e := range rd.Messages {
			if (e.To == q || e.To == "") && !isHave(e.Data) {
				frames++
			}
		}
		n.Advance(rd)
	}
	return frames
}

// Status frames claiming to hold nothing buy back at most maxResend
// signed messages a status period, however many come: before, every one
// was answered with maxResend (941 frames brought back 60,224).
func TestHaveFloodIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name        string
		haves, per  int
		claim       func(i int, held uint64) uint64
		maxFrames   int
		wantAtLeast int
	}{
		// 941 empty status frames over ~100 ticks (10 s at 100 ms a tick).
		{name: "claims nothing, 9 a tick", haves: 941, per: 9, claim: func(int, uint64) uint64 { return 0 },
			maxFrames: maxResend * (105/3 + 1), wantAtLeast: maxResend},
		{name: "claims nothing, all in one tick", haves: 941, per: 941, claim: func(int, uint64) uint64 { return 0 },
			maxFrames: maxResend, wantAtLeast: maxResend},
		// An honest peer lacking its last 5 of each sender gets those,
		// once while they are on their way, however often it asks.
		{name: "lacks 5 of each, asks 10 times a tick", haves: 10, per: 10, claim: func(_ int, held uint64) uint64 { return held - 5 },
			maxFrames: 15, wantAtLeast: 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := finishedLog(t, 3, 0)
			got := haveFlood(s, tc.claim, tc.haves, tc.per)
			t.Logf("%d status frames (%d a tick) brought back %d signed messages (%.1f each)", tc.haves, tc.per, got, float64(got)/float64(tc.haves))
			if got > tc.maxFrames || got < tc.wantAtLeast {
				t.Fatalf("%d messages sent back; want %d to %d", got, tc.wantAtLeast, tc.maxFrames)
			}
		})
	}
}

// What a flood of empty status frames costs the node it is aimed at: the
// signed messages it sends back per status frame.
func BenchmarkHaveFlood(b *testing.B) {
	s, _ := finishedLog(b, 3, 0)
	b.ResetTimer()
	frames := haveFlood(s, func(int, uint64) uint64 { return 0 }, b.N, 9)
	b.ReportMetric(float64(frames)/float64(b.N), "frames/have")
}
