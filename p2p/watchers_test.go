package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// A non-member's streams during a game, on a clock that stands still:
// strangerBurst watch or info streams are served, the game's protocol
// takes a token and is reset, any other protocol is a strike, and a
// strike past strangerStrikes bans the peer for strangerBan, after which
// nothing is served even with tokens refilled; the ban then ends.
func TestStrangersStreams(t *testing.T) {
	type step struct {
		pid        protocol.ID
		n          int
		serve, ban bool
	}
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"watch within the burst, then strikes, then the ban", []step{
			{WatchProtocolID, strangerBurst, true, false},
			{WatchProtocolID, strangerStrikes, false, false},
			{InfoProtocolID, 1, false, true},
		}},
		{"the game's protocol takes tokens without strikes", []step{
			{ProtocolID, strangerBurst, false, false},
			{ProtocolID, strangerStrikes, false, false},
			{ProtocolID, 1, false, true},
		}},
		{"another protocol is a strike at once", []step{
			{"/ipfs/ping/1.0.0", strangerStrikes, false, false},
			{"/ipfs/ping/1.0.0", 1, false, true},
			{WatchProtocolID, 1, false, true},
		}},
		{"info and watch share the bucket", []step{
			{InfoProtocolID, strangerBurst / 2, true, false},
			{WatchProtocolID, strangerBurst - strangerBurst/2, true, false},
			{WatchProtocolID, 1, false, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s strangers
			id := peer.ID("stranger")
			i := 0
			for _, st := range tc.steps {
				for range st.n {
					serve, ban := s.stream(id, st.pid, t0)
					if serve != st.serve || ban != st.ban {
						t.Fatalf("stream %d (%s): serve %v ban %v, want %v %v", i, st.pid, serve, ban, st.serve, st.ban)
					}
					i++
				}
			}
			if tc.steps[len(tc.steps)-1].ban {
				if !s.banned(id, t0.Add(strangerBan-time.Second)) || s.banned(id, t0.Add(strangerBan)) {
					t.Errorf("the ban does not last exactly %v", strangerBan)
				}
				if serve, _ := s.stream(id, WatchProtocolID, t0.Add(strangerBan)); !serve {
					t.Errorf("a watch stream after the ban is not served")
				}
			}
		})
	}
}

// The strangers remembered stay bounded, however many identities come.
func TestStrangersTracked(t *testing.T) {
	var s strangers
	now := time.Unix(1000, 0)
	for i := range 10 * strangersTracked {
		s.stream(peer.ID(rune(i)), "/other", now)
	}
	if n := len(s.ids); n > strangersTracked {
		t.Errorf("%d strangers remembered: want at most %d", n, strangersTracked)
	}
}
