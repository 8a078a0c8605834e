package memnet

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

var a, b, c = peer.ID("a"), peer.ID("b"), peer.ID("c")

// until reads l's frames up to and including the marker m, and returns
// what came before it. FIFO delivery makes the marker a barrier: anything
// queued before it has come out by then.
func until(t *testing.T, l *Link, m string) []string {
	t.Helper()
	var got []string
	for {
		select {
		case f := <-l.Frames():
			if string(f.Data) == m {
				return got
			}
			got = append(got, string(f.From)+":"+string(f.Data))
		case <-time.After(10 * time.Second): // a hang guard, not a speed check
			t.Fatalf("marker %q never arrived; had %v", m, got)
		}
	}
}

// TestFaults: each fault does what it says to the frames it covers, and
// nothing to the others.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(n *Net)
		// sends, each "from>to:data" (no to broadcasts); then a marker
		// from c to each of a and b, after Heal and Restart(b) if heal.
		sends        []string
		heal         bool
		wantB, wantA []string
	}{
		{name: "none", setup: func(*Net) {}, sends: []string{"a>b:1", "a>:2", "c>b:3"},
			wantB: []string{"a:1", "a:2", "c:3"}},
		{name: "drop a to b", setup: func(n *Net) { n.DropRate(a, b, 1) }, sends: []string{"a>b:1", "a>:2", "c>b:3"},
			wantB: []string{"c:3"}},
		{name: "drop b to any", setup: func(n *Net) { n.DropRate(b, Any, 1) }, sends: []string{"b>a:4", "b>:5", "a>b:1"},
			wantB: []string{"a:1"}},
		{name: "exact rule before wildcard", setup: func(n *Net) { n.DropRate(Any, Any, 1); n.DropRate(c, Any, 0.0001) },
			sends: []string{"a>b:1", "b>a:2"}},
		{name: "cleared drop", setup: func(n *Net) { n.DropRate(a, b, 1); n.DropRate(a, b, 0) }, sends: []string{"a>b:1"},
			wantB: []string{"a:1"}},
		{name: "duplicate", setup: func(n *Net) { n.DuplicateRate(a, b, 1) }, sends: []string{"a>b:1", "a>b:2", "c>b:3"},
			wantB: []string{"a:1", "a:1", "a:2", "a:2", "c:3"}},
		{name: "partition", setup: func(n *Net) { n.Partition([]peer.ID{a, c}, []peer.ID{b}) },
			sends: []string{"a>:1", "c>b:2", "b>a:3", "a>c:4"}, heal: true},
		{name: "alone outside every group", setup: func(n *Net) { n.Partition([]peer.ID{a, c}) },
			sends: []string{"a>b:1", "b>a:3"}, heal: true},
		{name: "crash and restart", setup: func(n *Net) { n.Crash(b) }, sends: []string{"a>b:1", "b>a:3"}, heal: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := New(a, b, c)
			defer n.Close()
			tc.setup(n)
			for _, s := range tc.sends {
				from, rest, _ := strings.Cut(s, ">")
				to, data, _ := strings.Cut(rest, ":")
				if err := n.Link(peer.ID(from)).Send(peer.ID(to), []byte(data)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.heal {
				n.Heal()
				n.Restart(b)
			}
			_ = n.Link(c).Send(b, []byte("m"))
			_ = n.Link(c).Send(a, []byte("m"))
			if got := until(t, n.Link(b), "m"); !slices.Equal(got, tc.wantB) {
				t.Fatalf("b got %v, want %v", got, tc.wantB)
			}
			if got := until(t, n.Link(a), "m"); !slices.Equal(got, tc.wantA) {
				t.Fatalf("a got %v, want %v", got, tc.wantA)
			}
		})
	}
}

// TestRatesSeeded: a rate loses (or doubles) about that share of frames,
// and one seed gives the same pattern every time.
func TestRatesSeeded(t *testing.T) {
	run := func(seed uint64, drop, dup float64) []string {
		n := New(a, b, c)
		defer n.Close()
		n.Seed(seed)
		n.DropRate(a, b, drop)
		n.DuplicateRate(a, b, dup)
		for i := range 400 {
			_ = n.Link(a).Send(b, []byte{byte(i), byte(i >> 8)})
		}
		_ = n.Link(c).Send(b, []byte("m"))
		return until(t, n.Link(b), "m")
	}
	for _, tc := range []struct {
		name     string
		drop     float64
		dup      float64
		min, max int
	}{
		{"drop half", 0.5, 0, 140, 260},
		{"duplicate a quarter", 0, 0.25, 460, 540},
		{"drop all", 1, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(7, tc.drop, tc.dup)
			if len(got) < tc.min || len(got) > tc.max {
				t.Fatalf("%d of 400 frames arrived, want %d..%d", len(got), tc.min, tc.max)
			}
			if again := run(7, tc.drop, tc.dup); !slices.Equal(got, again) {
				t.Fatal("the same seed gave a different pattern")
			}
			if tc.drop > 0 && tc.drop < 1 && slices.Equal(got, run(8, tc.drop, tc.dup)) {
				t.Fatal("another seed gave the same pattern")
			}
		})
	}
}

// TestDelayReorders: a delayed frame arrives, after one sent later.
func TestDelayReorders(t *testing.T) {
	n := New(a, b, c)
	defer n.Close()
	n.DelayRate(a, b, 200*time.Millisecond, 1)
	_ = n.Link(a).Send(b, []byte("1"))
	_ = n.Link(c).Send(b, []byte("2"))
	want := []string{"c:2", "a:1"}
	var got []string
	for len(got) < len(want) {
		select {
		case f := <-n.Link(b).Frames():
			got = append(got, string(f.From)+":"+string(f.Data))
		case <-time.After(10 * time.Second): // a hang guard
			t.Fatalf("delayed frame never arrived: %v", got)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("b got %v, want %v", got, want)
	}
}

// TestCrashDropsQueued: frames queued for a player when it crashes are
// gone after Restart, including one its pump already held.
func TestCrashDropsQueued(t *testing.T) {
	n := New(a, b, c)
	defer n.Close()
	for _, d := range []string{"1", "2", "3"} {
		_ = n.Link(a).Send(b, []byte(d))
	}
	n.Crash(b)
	n.Restart(b)
	_ = n.Link(a).Send(b, []byte("4"))
	_ = n.Link(c).Send(b, []byte("m"))
	if got := until(t, n.Link(b), "m"); !slices.Equal(got, []string{"a:4"}) {
		t.Fatalf("after a crash b got %v, want only a:4", got)
	}
	// A second crash's signal, left unread, drops nothing sent after it.
	n.Crash(c)
	n.Restart(c)
	_ = n.Link(a).Send(c, []byte("5"))
	_ = n.Link(b).Send(c, []byte("m"))
	if got := until(t, n.Link(c), "m"); !slices.Equal(got, []string{"a:5"}) {
		t.Fatalf("c got %v, want a:5", got)
	}
}
