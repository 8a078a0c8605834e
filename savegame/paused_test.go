package savegame

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The games to continue another day are every unfinished game of ours,
// however old (the automatic resume takes only those of the last hour),
// newest first; a finished, closed, copied or damaged one is not, and a
// copy says why.
func TestPausedGames(t *testing.T) {
	self, cut := playedLog(t, 1, 12)
	_, older := playedLog(t, 2, 30)
	_, done := playedLog(t, 3, 0)
	stranger, _ := peer.Decode("12D3KooWGAGoAbSHgEbLM9FhfSF2dVoFjFbBNM163LtG1zxf7Ymh")
	for _, tc := range []struct {
		name    string
		make    func(d *Dir)
		self    peer.ID
		lobby   string
		want    []byte // the nonces of the games listed, in order
		skipped string
	}{
		{"a game two days old is listed (and not resumed by itself)", func(d *Dir) { writeGame(t, d, cut, true, 48*time.Hour) }, self, "", []byte{1}, ""},
		{"newest first", func(d *Dir) {
			writeGame(t, d, older, true, 72*time.Hour)
			writeGame(t, d, cut, true, 30*time.Hour)
		}, self, "", []byte{1, 2}, ""},
		{"one lobby's", func(d *Dir) { writeGame(t, d, cut, true, 48*time.Hour) }, self, "friday", nil, ""},
		{"a finished game is not", func(d *Dir) { writeGame(t, d, done, true, 48*time.Hour) }, self, "", nil, ""},
		{"a closed game is not", func(d *Dir) { d.MarkClosed(writeGame(t, d, cut, true, 48*time.Hour), "left on purpose") }, self, "", nil, ""},
		{"a copy of another player's game is refused, saying why", func(d *Dir) { writeGame(t, d, cut, true, 48*time.Hour) }, stranger, "", nil, "not a game of ours"},
		{"another table's game copied over ours is refused, saying why", func(d *Dir) {
			gid := writeGame(t, d, cut, true, 48*time.Hour)
			os.Rename(d.LogPath(gid), d.LogPath(lockstep.GameID{1}))
		}, self, "", nil, "not the one its name says"},
		{"a game without its secret is refused, saying why", func(d *Dir) { writeGame(t, d, cut, false, 48*time.Hour) }, self, "", nil, "dice secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openDir(t)
			tc.make(d)
			if s, _ := d.Find(Query{Self: tc.self, Now: time.Now()}); s != nil {
				t.Fatalf("Find resumes %s by itself: older than ResumeWithin", s.Path)
			}
			got, skipped := d.Paused(tc.self, tc.lobby)
			var msgs []string
			for _, err := range skipped {
				msgs = append(msgs, err.Error())
			}
			if m := strings.Join(msgs, "; "); tc.skipped == "" && m != "" || !strings.Contains(m, tc.skipped) {
				t.Errorf("skipped %q, want %q", m, tc.skipped)
			}
			var nonces []byte
			for _, s := range got {
				nonces = append(nonces, s.Setup.Nonce[0])
				if s.Entropy[0] != 7 || s.Rolls < 11 || time.Since(s.At) < 24*time.Hour {
					t.Errorf("%s: entropy %x, %d rolls, saved %v", s.Path, s.Entropy[:2], s.Rolls, s.At)
				}
			}
			if string(nonces) != string(tc.want) {
				t.Fatalf("listed %v, want %v", nonces, tc.want)
			}
		})
	}
}

// A game its players paused together is continued by choice only: even
// written a minute ago, Find does not resume it by itself, and Paused
// lists it, saying it was paused and at which roll.
func TestPausedTogetherNotResumedByItself(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "lockstep", "testdata", "pause.log"))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := parseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	d := openDir(t)
	writeGame(t, d, recs, true, time.Minute)
	setup := setupOf(t, recs)
	self := setup.Players()[0]
	if s, skipped := d.Find(Query{Self: self, Now: time.Now()}); s != nil || len(skipped) != 0 {
		t.Fatalf("Find resumes the paused game by itself: %v, skipped %v", s, skipped)
	}
	got, skipped := d.Paused(self, "")
	if len(got) != 1 || !got[0].Paused || len(skipped) != 0 {
		t.Fatalf("Paused lists %v (skipped %v), want the paused game", got, skipped)
	}
	// Its lobby entry names the roll it paused at, as verify does, not
	// the rolls played before it.
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatal(err)
	}
	if g := got[0]; v.PausedAt == 0 || g.AtRoll() != v.PausedAt || g.AtRoll() == g.Rolls {
		t.Errorf("paused at roll %d, %d rolls: the entry says roll %d, want %d", v.PausedAt, g.Rolls, g.AtRoll(), v.PausedAt)
	}
}
