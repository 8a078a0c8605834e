package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// playTestGame drives res's game at tr to its end, choosing the first
// legal move whenever it is ours to choose, and returns the final state.
// testGame is what a lobby hands a session.
type testGame struct {
	Setup   lockstep.Setup
	Pending []Inbound
}

func playTestGame(ctx context.Context, t *testing.T, tr *Transport, res testGame) (lockstep.State, error) {
	var ent [32]byte
	if _, err := rand.Read(ent[:]); err != nil {
		return lockstep.State{}, err
	}
	glog, _, err := savegame.OpenLog(filepath.Join(t.TempDir(), "game.log"))
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

// Two connected players (the lobby's part is package lobby's) and two
// bots play a game to the same end.
func TestSessionPairPlaysGame(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	host, joiner := newTestTransport(t, fastConfig(t)), newTestTransport(t, fastConfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard, not a speed claim
	defer cancel()
	connectPair(t, joiner, host)
	trs := []*Transport{host, joiner}
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

// testPair is two lockstep players with fixed keys in a 2-seat game.
func testPair(t *testing.T) (lockstep.Setup, []peer.ID, []*lockstep.Node) {
	t.Helper()
	var ids []peer.ID
	var keys []crypto.PrivKey
	for i := 0; i < 2; i++ {
		k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i + 7)}, 64)))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		ids, keys = append(ids, id), append(keys, k)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "fsync",
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: ids[0]}, {Colour: engine.Yellow, Player: ids[1]}}}
	nodes := make([]*lockstep.Node, 2)
	for i := range nodes {
		n, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: ids[i], Key: keys[i], Entropy: [32]byte{byte(i)}, AutoRoll: true})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = n
	}
	return setup, ids, nodes
}

// The log policy of Session.Run: every Ready's entries are in the file
// (written through to the operating system, where a killed process cannot
// lose them) before its messages may leave, and only the first Ready, with
// the Setup record, is fsynced; the rest waits for the lazy flush. A whole
// game, with player 0 logged by logReady, checks both.
func TestLogReadyWritesBeforeSending(t *testing.T) {
	_, ids, nodes := testPair(t)
	path := filepath.Join(t.TempDir(), "game.log")
	glog, _, err := savegame.OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer glog.Close()
	opened := glog.Syncs() // OpenLog's own
	size := int64(len(lockstep.LogHeader()))
	readies, own := 0, 0
	over := false
	for tick := 0; tick < 20000 && !over; tick++ {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				if i == 0 {
					before := glog.Syncs()
					if err := logReady(glog, rd); err != nil {
						t.Fatal(err)
					}
					size += int64(len(lockstep.EncodeRecords(rd.LogEntries...)))
					if st, err := os.Stat(path); err != nil || st.Size() != size {
						t.Fatalf("tick %d: the log file holds %v bytes before the Ready's messages leave, want %d (%v)", tick, st.Size(), size, err)
					}
					opens := len(rd.LogEntries) > 0 && rd.LogEntries[0].Type == lockstep.RecordSetup
					if synced := glog.Syncs() != before; synced != opens {
						t.Fatalf("tick %d: fsynced %v for a Ready that opens the game %v", tick, synced, opens)
					}
					for _, m := range rd.Messages {
						if lockstep.SignedBy(m.Data) == ids[0] {
							own++
						}
					}
					readies++
				}
				for _, m := range rd.Messages {
					if err := nodes[1-i].Step(ids[i], m.Data); err != nil {
						t.Fatal(err)
					}
				}
				for _, e := range rd.Events {
					switch e.Kind {
					case lockstep.EventGameOver:
						over = true
					case lockstep.EventYourMove:
						if err := n.Choose(e.Moves[0]); err != nil {
							t.Fatal(err)
						}
					}
				}
				n.Advance(rd)
			}
			n.Tick()
		}
	}
	if !over {
		t.Fatal("the game did not finish")
	}
	if got := glog.Syncs() - opened; got != 1 || own < 10 {
		t.Fatalf("%d fsyncs over %d Readies that sent %d own messages: want 1 (the setup)", got, readies, own)
	}
	t.Logf("%d Readies, %d own messages sent, %d fsync", readies, own, glog.Syncs()-opened)
}

// The verify stage keeps each sender's frames in order, vouches for
// exactly the game frames with good signatures, and passes everything else
// on unvouched (forged, stranger's, chat), to be checked by Node.Step.
func TestVerifyFramesOrderAndVouching(t *testing.T) {
	setup, ids, nodes := testPair(t)
	var frames [2][][]byte // each player's signed frames, in order
	for r := 0; r < 6; r++ {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				for _, m := range rd.Messages {
					if lockstep.SignedBy(m.Data) == ids[i] {
						frames[i] = append(frames[i], m.Data)
					}
					_ = nodes[1-i].Step(ids[i], m.Data)
				}
				n.Advance(rd)
			}
		}
	}
	if len(frames[0]) < 3 || len(frames[1]) < 3 {
		t.Fatalf("too few frames: %d, %d", len(frames[0]), len(frames[1]))
	}
	v, err := lockstep.NewVerifier(setup)
	if err != nil {
		t.Fatal(err)
	}
	stranger := peer.ID("stranger")
	type sent struct {
		in     Inbound
		vouch  bool
		serial int
	}
	var all []sent
	for k := 0; k < len(frames[0]) || k < len(frames[1]); k++ {
		for i := range frames {
			if k < len(frames[i]) {
				all = append(all, sent{in: Inbound{From: ids[i], Kind: KindGame, Data: frames[i][k]}, vouch: true})
				forged := bytes.Clone(frames[i][k])
				forged[len(forged)-1] ^= 1
				all = append(all, sent{in: Inbound{From: ids[i], Kind: KindGame, Data: forged}})
				all = append(all, sent{in: Inbound{From: ids[i], Kind: KindChat, Data: []byte{byte(k)}}})
			}
		}
		all = append(all, sent{in: Inbound{From: stranger, Kind: KindGame, Data: frames[0][0]}, vouch: true}) // a relayed copy is still signed by its author
	}
	tr := &Transport{inbox: make(chan Inbound, len(all))}
	for i := range all {
		all[i].serial = i
		tr.inbox <- all[i].in
	}
	s := &Session{t: tr, v: v}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan checked)
	var wg sync.WaitGroup
	s.verifyFrames(ctx, out, &wg)
	last := map[peer.ID]int{}
	next := map[peer.ID]int{}
	for range all {
		c := <-out
		// It must be the next frame its sender sent.
		from := c.in.From
		j := next[from]
		for ; all[j].in.From != from; j++ {
		}
		next[from] = j + 1
		if !bytes.Equal(all[j].in.Data, c.in.Data) || all[j].in.Kind != c.in.Kind {
			t.Fatalf("sender %s: frame %d out of order", from, j)
		}
		if c.ok != all[j].vouch {
			t.Fatalf("frame %d (%v from %s): vouched %v, want %v", j, c.in.Kind, from, c.ok, all[j].vouch)
		}
		last[from] = j
	}
	cancel()
	wg.Wait()
	if len(last) != 3 {
		t.Fatalf("frames from %d senders, want 3", len(last))
	}
}

// testCfgs is the configs of an n-player game with fixed keys.
func testCfgs(t *testing.T, n int) []lockstep.Config {
	t.Helper()
	var cfgs []lockstep.Config
	setup := lockstep.Setup{Version: lockstep.Version, Name: "crash"}
	for i := 0; i < n; i++ {
		k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i + 20)}, 64)))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
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
					if err := logReady(glog, rd); err != nil {
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
			if i == 0 && tick%5 == 4 { // the session's lazy flush, once a tick of its own
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
