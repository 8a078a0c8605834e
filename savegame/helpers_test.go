package savegame

import (
	"bytes"
	"os"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// playedLog plays a two-player game in lobby "resume" in memory (nonce
// tells games apart) and returns player 0's ID and its log records,
// stopped after rolls rolls or at the end (rolls 0).
func playedLog(t testing.TB, nonce byte, rolls uint64) (peer.ID, []lockstep.Record) {
	t.Helper()
	setup := lockstep.Setup{Version: lockstep.Version, Name: "resume", Rules: engine.DefaultRules(), Nonce: [16]byte{nonce}}
	var cfgs []lockstep.Config
	for i := 0; i < 2; i++ {
		k, id := testkit.Key(i+40), testkit.ID(i+40)
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(2 * i), Player: id})
		cfgs = append(cfgs, lockstep.Config{Self: id, Key: k, Entropy: [32]byte{byte(i), nonce}, AutoRoll: true})
	}
	var nodes []*lockstep.Node
	for _, c := range cfgs {
		c.Setup = setup
		n, err := lockstep.NewNode(c)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	var recs []lockstep.Record
	for tick := 0; tick < 20000; tick++ {
		for i, n := range nodes {
			for n.HasReady() {
				rd := n.Ready()
				if i == 0 {
					recs = append(recs, rd.LogEntries...)
				}
				for _, m := range rd.Messages {
					_ = nodes[1-i].Step(cfgs[i].Self, m.Data)
				}
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						if err := n.Choose(e.Moves[0]); err != nil {
							t.Fatal(err)
						}
					}
				}
				n.Advance(rd)
				if i == 0 && (rd.State.Phase == lockstep.PhaseOver || rolls > 0 && rd.State.Roll >= rolls) {
					return cfgs[0].Self, recs
				}
			}
			n.Tick()
		}
	}
	t.Fatal("the game did not reach its end")
	return "", nil
}

func setupOf(t testing.TB, recs []lockstep.Record) lockstep.Setup {
	t.Helper()
	s, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func logBytes(recs []lockstep.Record) []byte {
	return append(lockstep.LogHeader(), lockstep.EncodeRecords(recs...)...)
}

// writeGame puts a game's log (and its secret, of 7s) in d, its log last
// written age ago.
func writeGame(t testing.TB, d *Dir, recs []lockstep.Record, secret bool, age time.Duration) lockstep.GameID {
	t.Helper()
	setup := setupOf(t, recs)
	gid := setup.GameID()
	if err := os.WriteFile(d.LogPath(gid), logBytes(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	if secret {
		if err := os.WriteFile(d.secretPath(gid), bytes.Repeat([]byte{7}, 32), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-age)
	if err := os.Chtimes(d.LogPath(gid), at, at); err != nil {
		t.Fatal(err)
	}
	return gid
}

func openDir(t testing.TB) *Dir {
	t.Helper()
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// countDirSyncs counts syncDir's calls per directory for the test.
func countDirSyncs(t *testing.T) map[string]int {
	t.Helper()
	counts := map[string]int{}
	orig := syncDir
	syncDir = func(dir string) error {
		counts[dir]++
		return orig(dir)
	}
	t.Cleanup(func() { syncDir = orig })
	return counts
}

func timeNow() time.Time { return time.Now() }
