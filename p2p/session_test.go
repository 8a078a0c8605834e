package p2p

import (
	"context"
	"crypto/rand"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// playTestGame drives res's game at tr to its end, choosing the first
// legal move whenever it is ours to choose, and returns the final state.
func playTestGame(ctx context.Context, t *testing.T, tr *Transport, res LobbyResult) (lockstep.State, error) {
	var ent [32]byte
	if _, err := rand.Read(ent[:]); err != nil {
		return lockstep.State{}, err
	}
	glog, _, err := OpenGameLog(filepath.Join(t.TempDir(), "game.log"))
	if err != nil {
		return lockstep.State{}, err
	}
	defer glog.Close()
	var s *Session
	chosen := uint64(0)
	s, err = NewSession(tr, SessionConfig{Setup: res.Setup, Key: tr.Host().Peerstore().PrivKey(tr.Host().ID()),
		Entropy: ent, Log: glog, Pending: res.Pending, Linger: 300 * time.Millisecond, Logger: testLogger(t),
		OnReady: func(rd lockstep.Ready) {
			st := rd.State
			if st.Phase != lockstep.PhaseMove || len(st.Moves) == 0 || st.Roll == chosen {
				return
			}
			chosen = st.Roll
			m := st.Moves[0]
			go s.Do(func(n *lockstep.Node) error { return n.Choose(m) }) // Do blocks while OnReady runs
		}})
	if err != nil {
		return lockstep.State{}, err
	}
	return s.Run(ctx)
}

// With multicast blocked, a joiner that reaches the creator only by the
// address it typed (no advert ever seen) is let in, starts with it, and
// both play the game to the same end.
func TestLobbyManualJoinPlaysGame(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	host, joiner := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard, not a speed claim
	defer cancel()
	cfgs := []LobbyConfig{
		{Player: "H", Lobby: "by hand", Players: 2, Bots: 2, FindFor: 100 * time.Millisecond, Logger: testLogger(t)},
		{Player: "J", Lobby: "by hand", FindFor: time.Hour, Logger: testLogger(t),
			Connect: []peer.AddrInfo{{ID: host.Host().ID(), Addrs: host.Host().Addrs()}}},
	}
	trs := []*Transport{host, joiner}
	res := make([]LobbyResult, 2)
	final := make([]lockstep.State, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range trs {
		wg.Go(func() {
			// No Discovery at all: the joiner knows only cfgs[1].Connect.
			if res[i], errs[i] = RunLobby(ctx, trs[i], nil, nil, cfgs[i]); errs[i] != nil {
				return
			}
			final[i], errs[i] = playTestGame(ctx, t, trs[i], res[i])
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	if res[0].Setup.GameID() != res[1].Setup.GameID() || len(res[1].Setup.Players()) != 2 {
		t.Fatalf("setups differ or do not seat both: %+v / %+v", res[0].Setup, res[1].Setup)
	}
	if res[1].Names[host.Host().ID()] != "H" {
		t.Errorf("joiner's names: %v", res[1].Names)
	}
	for i, st := range final {
		if st.Phase != lockstep.PhaseOver {
			t.Fatalf("peer %d ended in phase %s", i, st.Phase)
		}
	}
	if final[0].History != final[1].History {
		t.Fatalf("histories differ: %x / %x", final[0].History, final[1].History)
	}
	t.Logf("%d rolls, history %x", final[0].Roll, final[0].History[:8])
}
