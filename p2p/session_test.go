package p2p_test

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/peer"
)

// testLink is the smallest lockstep.Link over a Transport, for p2p's own
// game tests (the product's is session.TransportLink): the lobby's
// leftover game frames first, then the inbox's, until ctx ends.
type testLink struct {
	t      *p2p.Transport
	frames chan lockstep.Frame
}

func (l *testLink) Send(to peer.ID, data []byte) error {
	if to == "" {
		return l.t.Broadcast(p2p.KindGame, data)
	}
	return l.t.Send(to, p2p.KindGame, data)
}
func (l *testLink) Frames() <-chan lockstep.Frame { return l.frames }
func (l *testLink) Reach() <-chan lockstep.Reach  { return nil }

func (l *testLink) run(ctx context.Context, pending []p2p.Inbound) {
	put := func(in p2p.Inbound) bool {
		if in.Kind != p2p.KindGame {
			return true
		}
		select {
		case l.frames <- lockstep.Frame{From: in.From, Data: in.Data}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for _, in := range pending {
		if !put(in) {
			return
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case in := <-l.t.Inbox():
			if !put(in) {
				return
			}
		}
	}
}

// playTestGame drives res's game at tr to its end, choosing the first
// legal move whenever it is ours to choose, and returns the final state.
// testGame is what a lobby hands a session.
type testGame struct {
	Setup   lockstep.Setup
	Pending []p2p.Inbound
}

func playTestGame(ctx context.Context, t *testing.T, tr *p2p.Transport, res testGame) (lockstep.State, error) {
	var ent [32]byte
	if _, err := rand.Read(ent[:]); err != nil {
		return lockstep.State{}, err
	}
	glog, _, err := savegame.OpenLog(filepath.Join(t.TempDir(), "game.log"))
	if err != nil {
		return lockstep.State{}, err
	}
	defer glog.Close()
	n, err := lockstep.NewNode(lockstep.Config{Setup: res.Setup, Self: tr.Host().ID(), Key: tr.Host().Peerstore().PrivKey(tr.Host().ID()),
		Entropy: ent, AutoRoll: true})
	if err != nil {
		return lockstep.State{}, err
	}
	link := &testLink{t: tr, frames: make(chan lockstep.Frame, 64)}
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go link.run(lctx, res.Pending)
	var d *lockstep.Driver
	chosen := uint64(0)
	d, err = lockstep.NewDriver(n, lockstep.DriverConfig{Link: link, Log: glog, Linger: 300 * time.Millisecond, Logger: p2ptest.Logger(t),
		OnReady: func(rd lockstep.Ready) {
			st := rd.State
			if st.Phase != lockstep.PhaseMove || len(st.Moves) == 0 || st.Roll == chosen {
				return
			}
			chosen = st.Roll
			m := st.Moves[0]
			go d.Do(func(n *lockstep.Node) error { return n.Choose(m) }) // Do waits for the driver, and OnReady runs on it
		}})
	if err != nil {
		return lockstep.State{}, err
	}
	return d.Run(ctx)
}

// Two connected players (the lobby's part is package lobby's) and two
// bots play a game to the same end.
func TestSessionPairPlaysGame(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	host, joiner := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard, not a speed claim
	defer cancel()
	p2ptest.ConnectPair(t, joiner, host)
	trs := []*p2p.Transport{host, joiner}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "pair", Rules: engine.DefaultRules(), Seats: []lockstep.Seat{
		{Colour: 0, Player: host.Host().ID()}, {Colour: 1, Bot: lockstep.DefaultBot},
		{Colour: 2, Player: joiner.Host().ID()}, {Colour: 3, Bot: lockstep.DefaultBot}}}
	if _, err := rand.Read(setup.Nonce[:]); err != nil {
		t.Fatal(err)
	}
	final := make([]lockstep.State, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range trs {
		trs[i].SetMembers(setup.Players())
		wg.Go(func() { final[i], errs[i] = playTestGame(ctx, t, trs[i], testGame{Setup: setup}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
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

// testCfgs is the configs of an n-player game with fixed keys.
func testCfgs(t *testing.T, n int) []lockstep.Config {
	t.Helper()
	var cfgs []lockstep.Config
	setup := lockstep.Setup{Version: lockstep.Version, Name: "crash"}
	for i := 0; i < n; i++ {
		k, id := testkit.Key(i+20), testkit.ID(i+20)
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: id})
		cfgs = append(cfgs, lockstep.Config{Self: id, Key: k, Entropy: [32]byte{byte(i)}, AutoRoll: true})
	}
	for i := range cfgs {
		cfgs[i].Setup = setup
	}
	return cfgs
}

// The policy under the crash it allows: player 0's machine dies while its
// log holds messages, its own among them, that the once-a-tick flush has
// not reached; the file keeps only what was fsynced (the worst a machine
// crash leaves), and the node is restored from it. It fetches the lost
// messages again, its own first, nobody sees it contradict itself (it
// chooses differently after the restart, as a person may), and all
// finish with one history.
func TestLazyTailLostInMachineCrash(t *testing.T) {
	cfgs := testCfgs(t, 3)
	nodes := make([]*lockstep.Node, len(cfgs))
	for i, c := range cfgs {
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = n
	}
	path := filepath.Join(t.TempDir(), "game.log")
	glog, _, err := savegame.OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { glog.Close() }()
	synced := int64(len(lockstep.LogHeader())) // the file's size at its last fsync
	final := make([]*lockstep.State, len(nodes))
	crashed, lost := false, int64(0)
	ownLost := 0              // player 0's messages the crash took
	readies, choseAt := 0, -1 // player 0's Readies; the one in which it last chose a move
	var cut int64             // the log's size before player 0's latest Ready
	ownHere := 0              // own messages in player 0's latest Ready
	for tick := 0; tick < 50000; tick++ {
		done := true
		for i := range nodes {
			for n := nodes[i]; n.HasReady(); {
				rd := n.Ready()
				if i == 0 {
					before := glog.Syncs()
					readies++
					if st, err := os.Stat(path); err == nil {
						cut = st.Size()
					}
					if err := writeLazily(glog, rd); err != nil {
						t.Fatal(err)
					}
					ownHere = 0
					for _, m := range rd.Messages {
						if lockstep.SignedBy(m.Data) == cfgs[0].Self {
							ownHere++
						}
					}
					if glog.Syncs() != before {
						st, err := os.Stat(path)
						if err != nil {
							t.Fatal(err)
						}
						synced = st.Size()
					}
				}
				for _, m := range rd.Messages {
					for j := range nodes {
						if j != i && (m.To == "" || m.To == cfgs[j].Self) {
							_ = nodes[j].Step(cfgs[i].Self, m.Data)
						}
					}
				}
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventCheating:
						t.Fatalf("player %d names %s: %s", i, e.Peer, e)
					case lockstep.EventYourMove:
						m := e.Moves[len(e.Moves)-1]
						if i == 0 && crashed {
							m = e.Moves[0] // the person chooses otherwise the second time
						}
						if i == 0 {
							choseAt = readies
						}
						if err := n.Choose(m); err != nil {
							t.Fatal(err)
						}
					}
				}
				n.Advance(rd)
				st := rd.State
				if st.Phase == lockstep.PhaseOver || st.Phase == lockstep.PhaseHalted {
					final[i] = &st
				}
				// The crash comes just after player 0's move went out
				// (the Ready after the one it chose in) and before a
				// flush; the disk kept the log up to that Ready: restored,
				// the node is asked for the move again.
				if i == 0 && !crashed && choseAt >= 0 && readies == choseAt+1 && ownHere > 0 && cut > synced && st.Roll >= 20 {
					crashed, ownLost = true, ownHere
					st, _ := os.Stat(path)
					lost = st.Size() - cut
					glog.Close() // its flush is undone: the truncate below is the machine crash
					if err := os.Truncate(path, cut); err != nil {
						t.Fatal(err)
					}
					var recs []lockstep.Record
					if glog, recs, err = savegame.OpenLog(path); err != nil {
						t.Fatal(err)
					}
					if nodes[0], err = lockstep.Restore(cfgs[0], recs); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			if final[i] == nil {
				done = false
			}
			if i == 0 && tick%5 == 4 { // the driver's lazy flush, once a tick of its own
				if err := glog.Sync(); err != nil {
					t.Fatal(err)
				}
				st, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				synced = st.Size()
			}
			nodes[i].Tick()
		}
		if done {
			break
		}
	}
	if !crashed || lost <= 0 || ownLost == 0 {
		t.Fatalf("no crash with an unsynced tail of own messages (crashed %v, lost %d bytes, %d own messages)", crashed, lost, ownLost)
	}
	for i, st := range final {
		if st == nil || st.Phase != lockstep.PhaseOver {
			t.Fatalf("player %d did not finish: %v", i, st)
		}
		if st.History != final[1].History {
			t.Fatalf("player %d's history differs", i)
		}
	}
	t.Logf("the crash lost %d unsynced bytes with %d own message(s); the game finished with one history", lost, ownLost)
}

// writeLazily is what lockstep.Driver does with a Ready under SyncLazy:
// write its entries, and sync only those that open the game.
func writeLazily(l *savegame.Log, rd lockstep.Ready) error {
	if err := l.Write(rd.LogEntries); err != nil {
		return err
	}
	for _, r := range rd.LogEntries {
		if r.Type == lockstep.RecordSetup {
			return l.Sync()
		}
	}
	return nil
}
