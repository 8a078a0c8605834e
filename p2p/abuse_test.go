package p2p

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"

	"github.com/libp2p/go-libp2p/core/peer"
)

// keepSending calls send until the stranger has been disconnected and has
// kept trying for the whole of d more: a ban holds, and what it tried
// while banned leaves no trace in the log.
func keepSending(t *testing.T, evil, victim *Transport, d time.Duration, send func() error) (sent int) {
	t.Helper()
	info := peer.AddrInfo{ID: victim.Host().ID(), Addrs: victim.Host().Addrs()}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if err := send(); err == nil {
			sent++
		} else if !evil.Connected(victim.Host().ID()) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			_ = evil.Connect(ctx, info) // refused while banned
			cancel()
		}
		time.Sleep(2 * time.Millisecond)
	}
	return sent
}

// A stranger that never joined sends chat lines over the rate limit for
// seconds: it is struck and disconnected, and the victim's log holds O(1)
// lines for it, not one per line.
func TestChatFloodStruckAndQuiet(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	out := newCapture()
	cfg := fastConfig(t)
	cfg.Logger = slog.New(out)
	victim := newTestTransport(t, cfg)
	evil := newTestTransport(t, fastConfig(t))
	chat := NewChat(victim)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var accepted atomic.Int64
	go func() {
		for {
			select {
			case in := <-victim.Inbox():
				if _, err := chat.Receive(in); err == nil {
					accepted.Add(1)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	connectPair(t, evil, victim)
	seq := uint64(0)
	sent := keepSending(t, evil, victim, 3*time.Second, func() error {
		seq++
		return evil.Send(victim.Host().ID(), KindChat, EncodeChat(seq, "flood"))
	})
	if evil.Connected(victim.Host().ID()) {
		t.Fatalf("after %d chat lines over the limit the stranger is still connected", sent)
	}
	lines := len(*out.recs)
	if lines > 20 {
		t.Errorf("%d log lines for %d chat lines from one stranger", lines, sent)
	}
	if n := accepted.Load(); n > chatBurst+1 {
		t.Errorf("%d of the flood's lines were accepted", n)
	}
	t.Logf("%d lines sent, %d accepted, %d log lines", sent, accepted.Load(), lines)
}

// A peer spamming join/leave pairs at the lobby's creator is struck and
// disconnected; the honest member does not get a roster per pair, and the
// creator's log stays small.
func TestLobbyChurnStruck(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	out := newCapture()
	cfg := fastConfig(t)
	cfg.Logger = slog.New(out)
	host := newTestTransport(t, cfg)
	member, evil := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lobbyDone := make(chan struct{})
	go func() {
		defer close(lobbyDone)
		_, _ = RunLobby(ctx, host, nil, nil, LobbyConfig{Player: "H", Lobby: "churn", Players: 4, Create: true, Logger: slog.New(out)})
	}()
	defer func() { cancel(); <-lobbyDone }()
	connectPair(t, member, host)
	connectPair(t, evil, host)
	join := encodeLobbyMsg(lobbyMsg{T: lobbyJoin, Lobby: "churn", Name: "M"})
	leave := encodeLobbyMsg(lobbyMsg{T: lobbyLeave, Lobby: "churn"})
	hostID := host.Host().ID()
	var rosters atomic.Int64
	sentinel := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case in := <-member.Inbox():
				if m, err := decodeLobbyMsg(in.Data); err == nil && m.T == lobbyRoster {
					rosters.Add(1)
					select {
					case sentinel <- struct{}{}:
					default:
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	if err := member.Send(hostID, KindLobby, join); err != nil {
		t.Fatal(err)
	}
	<-sentinel // seated
	pairs := 0
	keepSending(t, evil, host, 2*time.Second, func() error {
		if err := evil.Send(hostID, KindLobby, join); err != nil {
			return err
		}
		pairs++
		return evil.Send(hostID, KindLobby, leave)
	})
	if evil.Connected(hostID) {
		t.Fatalf("after %d join/leave pairs the churner is still connected", pairs)
	}
	// The host answers a repeated join with the roster, after every roster
	// it sent before on the same stream.
	before := rosters.Load()
	for len(sentinel) > 0 {
		<-sentinel
	}
	if err := member.Send(hostID, KindLobby, join); err != nil {
		t.Fatal(err)
	}
	for rosters.Load() == before {
		<-sentinel
	}
	if n := rosters.Load(); n > 2*churnBurst+4 {
		t.Errorf("the member got %d rosters for %d join/leave pairs", n, pairs)
	}
	if lines := len(*out.recs); lines > 40 {
		t.Errorf("%d log lines on the creator for %d join/leave pairs", lines, pairs)
	}
	t.Logf("%d pairs, %d rosters to the member, %d log lines", pairs, rosters.Load(), len(*out.recs))
}
