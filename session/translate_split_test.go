package session

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// Evidence before any split is named as cheating; after the table came
// apart or together again, the residue of an undone branch (stale,
// out-of-place, out-of-turn or illegal moves, state mismatches) is said
// once per peer as set aside, and every other kind is still cheating.
func TestTranslateSplitResidue(t *testing.T) {
	f := newFixture(t)
	st := lockstep.State{Phase: lockstep.PhaseReveal, Pos: f.start, Roll: 14}
	cheat := func(c lockstep.Cheat) lockstep.Event {
		return lockstep.Event{Kind: lockstep.EventCheating, Peer: f.other, Cheat: c, Detail: "d"}
	}
	started := lockstep.Event{Kind: lockstep.EventGameStarted, Colour: engine.Red}
	mismatch := lockstep.Event{Kind: lockstep.EventStateMismatch, Peer: f.other, Roll: 12, Detail: "d"}
	for _, tc := range []struct {
		name  string
		split func(tr *Translator) // starts the game and splits it; nil: only starts it
		evs   []lockstep.Event
		want  string // per event: c (cheating), s (set aside), - (nothing)
	}{
		{"no split: every kind is cheating", nil,
			[]lockstep.Event{cheat(lockstep.CheatOutOfTurn), cheat(lockstep.CheatStaleMessage), mismatch}, "ccc"},
		{"after an absence: the residue once", func(tr *Translator) {
			tr.Translate([]lockstep.Event{started, {Kind: lockstep.EventAbsent, Peer: f.other, Colour: engine.Blue}}, st)
		}, []lockstep.Event{cheat(lockstep.CheatOutOfTurn), cheat(lockstep.CheatBadMessage), mismatch, cheat(lockstep.CheatIllegalMove)}, "s---"},
		{"after a rollback: what no undone branch makes is cheating", func(tr *Translator) {
			tr.Translate([]lockstep.Event{started, {Kind: lockstep.EventRolledBack, Roll: 9}}, st)
		}, []lockstep.Event{cheat(lockstep.CheatBadReveal), cheat(lockstep.CheatStaleMessage), cheat(lockstep.CheatEquivocation), cheat(lockstep.CheatWrongSeat)}, "cscc"},
		{"restored from its log", func(tr *Translator) { tr.ResumeAt(f.start) },
			[]lockstep.Event{mismatch, cheat(lockstep.CheatStaleMessage)}, "s-"},
		{"another program restored", func(tr *Translator) {
			tr.Translate([]lockstep.Event{started, {Kind: lockstep.EventPeerRestored, Peer: f.other, Colour: engine.Blue}}, st)
		}, []lockstep.Event{cheat(lockstep.CheatBadSignature), cheat(lockstep.CheatOutOfTurn)}, "cs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := f.translator()
			if tc.split != nil {
				tc.split(tr)
			} else {
				tr.Translate([]lockstep.Event{started}, st)
			}
			got := ""
			for _, e := range tc.evs {
				var said []string
				for _, u := range tr.Translate([]lockstep.Event{e}, st) {
					switch u := u.(type) {
					case ui.CheatDetected:
						said = append(said, "c")
					case ui.Notice:
						if u.Msg.Key == "note.split.setaside" && strings.Contains(u.Msg.String(), "Bob's messages") {
							said = append(said, "s")
						}
					}
				}
				switch len(said) {
				case 0:
					got += "-"
				case 1:
					got += said[0]
				default:
					t.Fatalf("%s: %d lines", e, len(said))
				}
			}
			if got != tc.want {
				t.Fatalf("said %q, want %q", got, tc.want)
			}
		})
	}
}
