package lobby

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/p2p"
)

// A peer spamming join/leave pairs at the lobby's creator is struck and
// disconnected; the honest member does not get a roster per pair, and the
// creator's log stays small.
func TestLobbyChurnStruck(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	out := p2ptest.NewCapture()
	cfg := p2ptest.FastConfig(t)
	cfg.Logger = slog.New(out)
	host := p2ptest.NewTransport(t, cfg)
	member, evil := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lobbyDone := make(chan struct{})
	go func() {
		defer close(lobbyDone)
		_, _ = Run(ctx, host, nil, nil, Config{Player: "H", Lobby: "churn", Players: 4, Create: true, Logger: slog.New(out)})
	}()
	defer func() { cancel(); <-lobbyDone }()
	p2ptest.ConnectPair(t, member, host)
	p2ptest.ConnectPair(t, evil, host)
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
	if err := member.Send(hostID, p2p.KindLobby, join); err != nil {
		t.Fatal(err)
	}
	<-sentinel // seated
	pairs := 0
	p2ptest.KeepSending(t, evil, host, 2*time.Second, func() error {
		if err := evil.Send(hostID, p2p.KindLobby, join); err != nil {
			return err
		}
		pairs++
		return evil.Send(hostID, p2p.KindLobby, leave)
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
	if err := member.Send(hostID, p2p.KindLobby, join); err != nil {
		t.Fatal(err)
	}
	for rosters.Load() == before {
		<-sentinel
	}
	if n := rosters.Load(); n > 2*churnBurst+4 {
		t.Errorf("the member got %d rosters for %d join/leave pairs", n, pairs)
	}
	if lines := out.Len(); lines > 40 {
		t.Errorf("%d log lines on the creator for %d join/leave pairs", lines, pairs)
	}
	t.Logf("%d pairs, %d rosters to the member, %d log lines", pairs, rosters.Load(), out.Len())
}
