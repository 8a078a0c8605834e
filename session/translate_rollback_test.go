package session

import (
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A player shown absent whom a rollback no longer counts absent is shown
// back (its seat no longer flown); one still absent after it stays so.
func TestTranslateRollbackShowsPlayerBack(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name     string
		absent   []peer.ID
		wantBack bool
	}{
		{"the absence undone", nil, true},
		{"still absent", []peer.ID{f.other}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := f.translator()
			st := lockstep.State{Phase: lockstep.PhaseReveal, Pos: f.start, Roll: 3, Absent: []peer.ID{f.other}}
			tr.Translate([]lockstep.Event{{Kind: lockstep.EventGameStarted, Colour: engine.Red}}, st)
			tr.Translate([]lockstep.Event{{Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue}}, st)
			if !tr.BotFlown()[engine.Blue] {
				t.Fatal("the absent player's seat is not flown")
			}
			st.Absent = tc.absent
			out := tr.Translate([]lockstep.Event{{Kind: lockstep.EventRolledBack, Peer: f.other, Roll: 2}}, st)
			back := false
			for _, e := range out {
				if p, ok := e.(ui.Presence); ok && p.Name == "Bob" && p.Colour == engine.Blue && p.Present {
					back = true
				}
			}
			if back != tc.wantBack || tr.BotFlown()[engine.Blue] == tc.wantBack {
				t.Fatalf("shown back %v (want %v), flown %v, after %+v", back, tc.wantBack, tr.BotFlown()[engine.Blue], out)
			}
		})
	}
}
