package session

import (
	"slices"
	"testing"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A run's pauses as its Readys tell them: a run that paused and whose
// game the others then continued must stop (once), with the state it
// paused at; a run restored paused and lifted is the continued game
// itself, never stopped; a pause lifted by nobody stops nothing.
func TestPauseWatchStopsWhenOthersContinue(t *testing.T) {
	at := func(roll uint64, paused bool) lockstep.Ready {
		return lockstep.Ready{State: lockstep.State{Roll: roll, Paused: paused}}
	}
	for _, tc := range []struct {
		name     string
		readys   []lockstep.Ready
		stopAt   int // index of the Ready whose saw says stop, -1 none
		leftRoll uint64
	}{
		{"paused in this run, then continued by the others", []lockstep.Ready{at(5, false), at(12, true), at(12, true), at(13, false), at(14, false)}, 3, 12},
		{"restored paused, then lifted by all", []lockstep.Ready{at(12, true), at(12, false), at(13, false)}, -1, 0},
		{"restored paused, lifted, paused again, continued again", []lockstep.Ready{at(12, true), at(13, false), at(20, true), at(21, false)}, 3, 20},
		{"paused and stopped", []lockstep.Ready{at(5, false), at(12, true)}, -1, 0},
		{"never paused", []lockstep.Ready{at(1, false), at(2, false)}, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newPauseWatch(false)
			got := -1
			for i, rd := range tc.readys {
				if w.saw(rd) {
					if got >= 0 {
						t.Fatalf("stop reported twice: at %d and %d", got, i)
					}
					got = i
				}
			}
			if got != tc.stopAt {
				t.Fatalf("stop at Ready %d, want %d", got, tc.stopAt)
			}
			st, ok := w.leftPaused()
			if ok != (tc.stopAt >= 0) || (ok && (!st.Paused || st.Roll != tc.leftRoll)) {
				t.Fatalf("leftPaused = %+v, %v; want paused at roll %d: %v", st, ok, tc.leftRoll, tc.stopAt >= 0)
			}
		})
	}
}

// A continued game waits for the players not seen back: one is back
// once its program is seen restored or its pause lifted, in this run.
func TestPauseWatchMissing(t *testing.T) {
	a, b, c := peer.ID("a"), peer.ID("b"), peer.ID("c")
	w := newPauseWatch(true)
	want := []peer.ID{a, b, c}
	if got := w.missing(want); !slices.Equal(got, want) {
		t.Fatalf("before anything: missing %v, want %v", got, want)
	}
	w.saw(lockstep.Ready{State: lockstep.State{Paused: true}, Events: []lockstep.Event{
		{Kind: lockstep.EventPeerRestored, Peer: a},
		{Kind: lockstep.EventAbsent, Peer: b}, // not a return
	}})
	if got := w.missing(want); !slices.Equal(got, []peer.ID{b, c}) {
		t.Fatalf("after a's restore: missing %v, want [b c]", got)
	}
	w.saw(lockstep.Ready{State: lockstep.State{Paused: true}, Events: []lockstep.Event{{Kind: lockstep.EventPauseLifted, Peer: c}}})
	if got := w.missing(want); !slices.Equal(got, []peer.ID{b}) {
		t.Fatalf("after c's lift: missing %v, want [b]", got)
	}
}
