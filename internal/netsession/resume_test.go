package netsession

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/memnet"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// playedLog plays a two-player game in memory (nonce tells games apart)
// and returns player 0's ID and its log records, stopped after rolls
// rolls or at the end (rolls 0).
func playedLog(t *testing.T, nonce byte, rolls uint64) (peer.ID, []lockstep.Record) {
	t.Helper()
	setup := lockstep.Setup{Version: lockstep.Version, Name: "resume", Rules: engine.DefaultRules(), Nonce: [16]byte{nonce}}
	var cfgs []lockstep.Config
	for i := 0; i < 2; i++ {
		k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i + 40)}, 64)))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	net := memnet.New(cfgs[0].Self, cfgs[1].Self)
	defer net.Close()
	// Player 0's log as its driver writes it; its records once the stop
	// is reached (the driver may write more before it sees the cancel).
	var mu sync.Mutex
	var written, recs []lockstep.Record
	_, errs := net.Play(ctx, nodes, memnet.PlayConfig{
		Log: func(i int) lockstep.Log {
			if i == 0 {
				return recordLog(func(r []lockstep.Record) { mu.Lock(); written = append(written, r...); mu.Unlock() })
			}
			return recordLog(func([]lockstep.Record) {})
		},
		OnReady: func(i int, rd lockstep.Ready) {
			mu.Lock()
			defer mu.Unlock()
			if i == 0 && recs == nil && (rd.State.Phase == lockstep.PhaseOver || rolls > 0 && rd.State.Roll >= rolls) {
				recs = append([]lockstep.Record(nil), written...)
				cancel()
			}
		}})
	if recs == nil {
		t.Fatalf("the game did not reach its end: %v", errs)
	}
	return cfgs[0].Self, recs
}

// recordLog is a game log that hands what is written to a function.
type recordLog func([]lockstep.Record)

func (l recordLog) Write(r []lockstep.Record) error { l(r); return nil }
func (l recordLog) Sync() error                     { return nil }

func writeGame(t *testing.T, dir string, recs []lockstep.Record, secret bool, age time.Duration) string {
	t.Helper()
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "game-"+setup.GameID().String())
	if err := os.WriteFile(base+".log", append(lockstep.LogHeader(), lockstep.EncodeRecords(recs...)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if secret {
		if err := os.WriteFile(base+".secret", bytes.Repeat([]byte{7}, 32), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-age)
	if err := os.Chtimes(base+".log", at, at); err != nil {
		t.Fatal(err)
	}
	return base
}

func TestFindInterrupted(t *testing.T) {
	self, cut := playedLog(t, 1, 12)
	_, older := playedLog(t, 2, 30)
	_, done := playedLog(t, 3, 0)
	stranger, _ := peer.Decode("12D3KooWGAGoAbSHgEbLM9FhfSF2dVoFjFbBNM163LtG1zxf7Ymh")
	for _, tc := range []struct {
		name    string
		make    func(dir string)
		who     peer.ID
		want    string // the game's log base name found, "" for none
		skipped string // in the skipped errors, if any
	}{
		{"nothing in the data directory", func(string) {}, self, "", ""},
		{"a game cut short is found", func(d string) { writeGame(t, d, cut, true, time.Minute) }, self, "cut", ""},
		{"the newest of two is found", func(d string) {
			writeGame(t, d, older, true, 10*time.Minute)
			writeGame(t, d, cut, true, time.Minute)
		}, self, "cut", ""},
		{"a finished game is not", func(d string) { writeGame(t, d, done, true, time.Minute) }, self, "", ""},
		{"a game closed (left on purpose, or over) is not", func(d string) {
			base := writeGame(t, d, cut, true, time.Minute)
			if err := markClosed(d, strings.TrimPrefix(filepath.Base(base), "game-"), "left on purpose"); err != nil {
				t.Fatal(err)
			}
		}, self, "", ""},
		{"a game over an hour old is not", func(d string) { writeGame(t, d, cut, true, 2*time.Hour) }, self, "", ""},
		{"another player's game is skipped", func(d string) { writeGame(t, d, cut, true, time.Minute) }, stranger, "", "not a game of ours"},
		{"a game without its secret is skipped, saying why", func(d string) { writeGame(t, d, cut, false, time.Minute) }, self, "", "dice secret"},
		{"a game alone with bots (another name, no secret) is not even read", func(d string) {
			base := writeGame(t, d, cut, false, time.Minute)
			if err := os.Rename(base+".log", filepath.Join(d, "game-20261130-050000-"+strings.TrimPrefix(filepath.Base(base), "game-")+".log")); err != nil {
				t.Fatal(err)
			}
		}, self, "", ""},
		{"a torn tail is cut, as a restart does", func(d string) {
			base := writeGame(t, d, cut, true, time.Minute)
			f, err := os.OpenFile(base+".log", os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte{0, 0, 1})
			f.Close()
		}, self, "cut", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.make(dir)
			g, skipped := findInterrupted(dir, tc.who, time.Now())
			var msgs []string
			for _, err := range skipped {
				msgs = append(msgs, err.Error())
			}
			if got := strings.Join(msgs, "; "); tc.skipped == "" && got != "" || !strings.Contains(got, tc.skipped) {
				t.Errorf("skipped %q, want %q", got, tc.skipped)
			}
			switch {
			case tc.want == "" && g != nil:
				t.Fatalf("found %s, want none", g.logPath)
			case tc.want == "":
			case g == nil:
				t.Fatal("found nothing")
			case g.setup.Nonce[0] != 1 || g.rolls < 11 || g.entropy[0] != 7:
				t.Fatalf("found %s after %d rolls (nonce %d), want the game cut after 12 rolls", g.logPath, g.rolls, g.setup.Nonce[0])
			}
		})
	}
}
