package lobby

import (
	"aeroplane/internal/p2ptest"
	"testing"
	"time"
)

// The peers a creator removed are refused for removedFor, no longer, and
// at most maxRemoved of them are remembered, the oldest forgotten first.
func TestRemovedList(t *testing.T) {
	at := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		after time.Duration
		want  bool
	}{
		{"at once", 0, true},
		{"a minute later", time.Minute, true},
		{"just before expiry", removedFor - time.Second, true},
		{"at expiry", removedFor, false},
		{"an hour later", time.Hour, false},
	}
	for _, tc := range tests {
		var r removedList
		r.add(ids[1], at)
		if got := r.has(ids[1], at.Add(tc.after)); got != tc.want {
			t.Errorf("%s: removed %v, want %v", tc.name, got, tc.want)
		}
		if r.has(ids[2], at) {
			t.Errorf("%s: a peer never removed is refused", tc.name)
		}
	}
	var r removedList
	first := p2ptest.RandomID(t)
	r.add(first, at)
	for i := range maxRemoved {
		r.add(p2ptest.RandomID(t), at.Add(time.Duration(i+1)*time.Millisecond))
	}
	if len(r.ids) != maxRemoved || len(r.at) != maxRemoved {
		t.Fatalf("%d remembered, want the cap %d", len(r.ids), maxRemoved)
	}
	if r.has(first, at.Add(time.Second)) {
		t.Error("the oldest removal is still remembered past the cap")
	}
}
