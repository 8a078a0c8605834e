package session

import (
	"strings"
	"testing"

	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// History replays a log as what its player saw before a crash: every
// move on the board up to where the live game takes up, a leave, and a
// newcomer taking a seat (the players list then names the newcomer, so
// the screen must say when and whose seat it took).
func TestHistory(t *testing.T) {
	for _, tc := range []struct {
		log       string
		wantLeft  bool
		wantTaken bool
	}{
		{"game.log", false, false},
		{"leave.log", true, false},
		{"takeseat.log", false, true},
	} {
		t.Run(tc.log, func(t *testing.T) {
			recs, setup, v := lockstepLog(t, tc.log)
			moves, taken := 0, map[peer.ID]bool{}
			for _, e := range v.Events {
				switch e.Kind {
				case lockstep.EventMoved:
					moves++
				case lockstep.EventSeatTaken:
					taken[e.Peer] = true
				}
			}
			evs, pos, ok := History(setup, nil, recs)
			if !ok || pos != v.Pos {
				t.Fatalf("History: ok %v, ends on the log's position %v", ok, pos == v.Pos)
			}
			var gotMoves int
			var left, took bool
			for _, e := range evs {
				switch e := e.(type) {
				case ui.Moved:
					gotMoves++
				case ui.Left:
					left = true
				case ui.Notice:
					took = took || e.Msg.Key == "note.seat.taken" && strings.Contains(e.Msg.String(), " takes ")
				}
			}
			if gotMoves != moves || left != tc.wantLeft || took != tc.wantTaken || took != (len(taken) > 0) {
				t.Errorf("%d moves of %d, a leave %v (want %v), a seat taken %v (want %v)", gotMoves, moves, left, tc.wantLeft, took, tc.wantTaken)
			}
		})
	}
}
