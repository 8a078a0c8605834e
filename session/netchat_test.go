package session

import (
	"reflect"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestReconnectsSayCatchingUp: a player of the game whose connection
// went down and is up again is catching up (one ui.CatchingUp, by name
// and colour); an up without a down before it, a peer outside the game,
// and a down say nothing.
func TestReconnectsSayCatchingUp(t *testing.T) {
	f := newFixture(t)
	stranger, _ := newID(t)
	cases := []struct {
		name  string
		steps []struct {
			id peer.ID
			up bool
		}
		want []ui.Event
	}{
		{"down and up", []struct {
			id peer.ID
			up bool
		}{{f.other, false}, {f.other, true}}, []ui.Event{ui.CatchingUp{Colour: engine.Blue, Name: "Bob"}}},
		{"up alone", []struct {
			id peer.ID
			up bool
		}{{f.other, true}, {f.other, true}}, nil},
		{"twice", []struct {
			id peer.ID
			up bool
		}{{f.other, false}, {f.other, true}, {f.other, true}, {f.other, false}, {f.other, true}},
			[]ui.Event{ui.CatchingUp{Colour: engine.Blue, Name: "Bob"}, ui.CatchingUp{Colour: engine.Blue, Name: "Bob"}}},
		{"a stranger", []struct {
			id peer.ID
			up bool
		}{{stranger, false}, {stranger, true}}, nil},
		{"down only", []struct {
			id peer.ID
			up bool
		}{{f.other, false}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []ui.Event
			r := &reconnects{tr: f.translator(), names: map[peer.ID]string{f.me: "Ann", f.other: "Bob"},
				push: func(evs ...ui.Event) { got = append(got, evs...) }}
			for _, s := range tc.steps {
				r.onPeer(s.id, s.up)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
