package p2p

import (
	"context"
	"errors"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A newcomer during a game: refused the game protocol until admitted
// (its game stream never comes up, its frames reach nobody); once
// AdmitGuest let it in, its game frames reach the player and the
// player's broadcasts reach it, a frame of another kind than game or
// chat (a lobby frame) is a strike,
// and after AddMember it is a member like any other. At most MaxGuests
// are admitted, and SetMembers forgets them.
func TestGuestTakesTheGameProtocol(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	player, newcomer, mate := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	pid, nid, mid := player.Host().ID(), newcomer.Host().ID(), mate.Host().ID()
	connectPair(t, player, mate)
	player.SetMembers([]peer.ID{pid, mid})
	mate.SetMembers([]peer.ID{pid, mid})
	newcomer.SetMembers([]peer.ID{pid, mid})

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := newcomer.Host().Connect(ctx, peer.AddrInfo{ID: pid, Addrs: player.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * fastConfig(t).Heartbeat) // maintain ticks: a stream would be tried
	if player.Connected(nid) || newcomer.Connected(pid) {
		t.Fatal("a game stream came up for a peer nobody admitted")
	}

	if err := player.AdmitGuest(nid); err != nil {
		t.Fatal(err)
	}
	for !player.Connected(nid) || !newcomer.Connected(pid) {
		select {
		case <-ctx.Done():
			t.Fatal("no game stream between the player and the admitted newcomer")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := newcomer.Send(pid, KindGame, []byte("take")); err != nil {
		t.Fatal(err)
	}
	if in := recvInbound(t, player); in.From != nid || in.Kind != KindGame || string(in.Data) != "take" {
		t.Fatalf("the player got %+v, want the newcomer's game frame", in)
	}
	if err := player.Broadcast(KindGame, []byte("roll")); err != nil {
		t.Fatal(err)
	}
	if in := recvInbound(t, newcomer); in.From != pid || string(in.Data) != "roll" {
		t.Fatalf("the newcomer got %+v, want the player's broadcast", in)
	}
	if in := recvInbound(t, mate); in.From != pid || string(in.Data) != "roll" {
		t.Fatalf("the mate got %+v, want the player's broadcast", in)
	}
	if err := newcomer.Send(pid, KindLobby, []byte("join")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	player.mu.Lock()
	strikes := len(player.strikes[nid])
	player.mu.Unlock()
	if strikes != 1 {
		t.Fatalf("a newcomer's lobby frame: %d strikes, want 1", strikes)
	}
	select {
	case in := <-player.Inbox():
		t.Fatalf("the player's inbox got %+v from a guest's lobby frame", in)
	default:
	}

	player.AddMember(nid)
	if g := player.Guests(); len(g) != 0 || !player.isMemberOnly(nid) {
		t.Fatalf("after AddMember: guests %v, member %v", g, player.isMemberOnly(nid))
	}

	for i := range MaxGuests {
		if err := player.AdmitGuest(peer.ID(rune('a' + i))); err != nil {
			t.Fatalf("guest %d: %v", i, err)
		}
	}
	if err := player.AdmitGuest("one too many"); !errors.Is(err, ErrGuestsFull) {
		t.Fatalf("guest %d: %v, want ErrGuestsFull", MaxGuests+1, err)
	}
	player.SetMembers([]peer.ID{pid, mid, nid})
	if g := player.Guests(); len(g) != 0 {
		t.Fatalf("SetMembers kept the guests %v", g)
	}
	player.SetMembers(nil)
	if err := player.AdmitGuest(nid); err == nil {
		t.Fatal("a guest admitted with no game running")
	}
}

// A guest is forgotten once it has had no game stream for guestIdle, or
// has sent no game frame guestQuiet after its admission (its stream then
// closed); one that spoke and keeps its stream stays.
func TestGuestsExpire(t *testing.T) {
	t0 := time.Unix(1000, 0)
	live := &link{}
	for _, tc := range []struct {
		name      string
		g         guest
		link      bool
		at        time.Duration
		kept      bool
		closeLink bool
	}{
		{"silent, just admitted", guest{}, true, guestQuiet - time.Second, true, false},
		{"silent past the quiet time", guest{}, true, guestQuiet, false, true},
		{"spoke, stream up", guest{heard: true}, true, 10 * time.Minute, true, false},
		{"spoke, stream down a moment", guest{heard: true}, false, guestIdle - time.Second, true, false},
		{"spoke, stream down too long", guest{heard: true}, false, guestIdle, false, false},
	} {
		g := tc.g
		g.admitted, g.seen = t0, t0
		tr := &Transport{guests: map[peer.ID]*guest{"nc": &g}, links: map[peer.ID]*link{}}
		if tc.link {
			tr.links["nc"] = live
		}
		closed, gone := tr.expireGuestsLocked(t0.Add(tc.at))
		if _, kept := tr.guests["nc"]; kept != tc.kept || gone == tc.kept || (len(closed) == 1) != tc.closeLink {
			t.Errorf("%s: kept %v (gone %v), %d links to close; want kept %v, close %v", tc.name, kept, gone, len(closed), tc.kept, tc.closeLink)
		}
	}
}
