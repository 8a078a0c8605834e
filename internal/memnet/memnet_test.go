package memnet

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Frames reach exactly their receivers, in the order sent, counted once
// per receiver; a broadcast skips its sender; Drop loses what it says.
func TestDelivery(t *testing.T) {
	a, b, c := peer.ID("a"), peer.ID("b"), peer.ID("c")
	for _, tc := range []struct {
		name  string
		drop  func(from, to peer.ID, data []byte) bool
		sends []struct {
			to   peer.ID
			data string
		}
		want map[peer.ID][]string
	}{
		{"broadcast and direct", nil, []struct {
			to   peer.ID
			data string
		}{{"", "1"}, {b, "2"}, {"", "3"}}, map[peer.ID][]string{b: {"1", "2", "3"}, c: {"1", "3"}}},
		{"drop to c", func(_, to peer.ID, _ []byte) bool { return to == c }, []struct {
			to   peer.ID
			data string
		}{{"", "1"}, {c, "2"}}, map[peer.ID][]string{b: {"1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := New(a, b, c)
			defer n.Close()
			n.Drop = tc.drop
			for _, s := range tc.sends {
				if err := n.Link(a).Send(s.to, []byte(s.data)); err != nil {
					t.Fatal(err)
				}
			}
			total := 0
			for id, want := range tc.want {
				for _, w := range want {
					f := <-n.Link(id).Frames()
					if f.From != a || string(f.Data) != w {
						t.Fatalf("%s got %q from %s, want %q from a", id, f.Data, f.From, w)
					}
					total++
				}
			}
			if got := n.Frames.Load(); got != int64(total) {
				t.Fatalf("counted %d frames, delivered %d", got, total)
			}
			if err := n.Link(a).Send("nobody", nil); err == nil {
				t.Fatal("a send to a stranger succeeded")
			}
		})
	}
}
