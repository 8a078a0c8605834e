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

// Find: the newest game of ours, not closed, within the hour; every log
// it cannot use is skipped, saying why.
func TestFindInterrupted(t *testing.T) {
	self, cut := playedLog(t, 1, 12)
	_, older := playedLog(t, 2, 30)
	_, done := playedLog(t, 3, 0)
	stranger, _ := peer.Decode("12D3KooWGAGoAbSHgEbLM9FhfSF2dVoFjFbBNM163LtG1zxf7Ymh")
	mine := Query{Self: self}
	for _, tc := range []struct {
		name    string
		make    func(d *Dir)
		q       Query
		want    byte   // the nonce of the game found, 0 for none
		over    bool   // found as over
		skipped string // in the skipped errors, if any
	}{
		{"nothing in the data directory", func(*Dir) {}, mine, 0, false, ""},
		{"a game cut short is found", func(d *Dir) { writeGame(t, d, cut, true, time.Minute) }, mine, 1, false, ""},
		{"the newest of two is found", func(d *Dir) {
			writeGame(t, d, older, true, 10*time.Minute)
			writeGame(t, d, cut, true, time.Minute)
		}, mine, 1, false, ""},
		{"the newest is closed: the older is found", func(d *Dir) {
			writeGame(t, d, older, true, 10*time.Minute)
			d.MarkClosed(writeGame(t, d, cut, true, time.Minute), "left on purpose")
		}, mine, 2, false, ""},
		{"a finished game is not", func(d *Dir) { writeGame(t, d, done, true, time.Minute) }, mine, 0, false, ""},
		{"a finished game is, when asked for", func(d *Dir) { writeGame(t, d, done, false, time.Minute) }, Query{Self: self, Over: true}, 3, true, ""},
		{"a finished game is passed over for an older one", func(d *Dir) {
			writeGame(t, d, cut, true, 10*time.Minute)
			writeGame(t, d, done, true, time.Minute)
		}, mine, 1, false, ""},
		{"a game closed is not", func(d *Dir) { d.MarkClosed(writeGame(t, d, cut, true, time.Minute), "left on purpose") }, mine, 0, false, ""},
		{"a game over an hour old is not", func(d *Dir) { writeGame(t, d, cut, true, 2*time.Hour) }, mine, 0, false, ""},
		{"another player's game is skipped", func(d *Dir) { writeGame(t, d, cut, true, time.Minute) }, Query{Self: stranger}, 0, false, "not a game of ours"},
		{"another lobby's game is not", func(d *Dir) { writeGame(t, d, cut, true, time.Minute) }, Query{Self: self, Lobby: "friday"}, 0, false, ""},
		{"its lobby's game is", func(d *Dir) { writeGame(t, d, cut, true, time.Minute) }, Query{Self: self, Lobby: "resume"}, 1, false, ""},
		{"a game without its secret is skipped, saying why", func(d *Dir) { writeGame(t, d, cut, false, time.Minute) }, mine, 0, false, "dice secret"},
		{"a damaged log is skipped, saying why", func(d *Dir) {
			gid := writeGame(t, d, cut, true, time.Minute)
			b, _ := os.ReadFile(d.LogPath(gid))
			b[len(lockstep.LogHeader())+20] ^= 0xff // inside the first record
			os.WriteFile(d.LogPath(gid), b, 0o644)
		}, mine, 0, false, "corrupt"},
		{"a log under another game's name is skipped, saying why", func(d *Dir) {
			gid := writeGame(t, d, cut, true, time.Minute)
			os.Rename(d.LogPath(gid), d.LogPath(lockstep.GameID{1}))
		}, mine, 0, false, "not the one its name says"},
		{"a log that stopped before its first record is not", func(d *Dir) {
			os.WriteFile(d.LogPath(lockstep.GameID{1}), lockstep.LogHeader(), 0o644)
		}, mine, 0, false, ""},
		{"a game alone with bots (another name, no secret) is not even read", func(d *Dir) {
			gid := writeGame(t, d, cut, false, time.Minute)
			os.Rename(d.LogPath(gid), d.localLogPath(gid, time.Now()))
		}, mine, 0, false, ""},
		{"a torn tail is read past", func(d *Dir) {
			gid := writeGame(t, d, cut, true, time.Minute)
			f, _ := os.OpenFile(d.LogPath(gid), os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte{0, 0, 1})
			f.Close()
		}, mine, 1, false, ""},
		{"a zero-filled tail is read past", func(d *Dir) {
			gid := writeGame(t, d, cut, true, time.Minute)
			f, _ := os.OpenFile(d.LogPath(gid), os.O_APPEND|os.O_WRONLY, 0)
			f.Write(make([]byte, 512))
			f.Close()
		}, mine, 1, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openDir(t)
			tc.make(d)
			before := dirState(t, d.Path())
			tc.q.Now = time.Now()
			s, skipped := d.Find(tc.q)
			var msgs []string
			for _, err := range skipped {
				msgs = append(msgs, err.Error())
			}
			if got := strings.Join(msgs, "; "); tc.skipped == "" && got != "" || !strings.Contains(got, tc.skipped) {
				t.Errorf("skipped %q, want %q", got, tc.skipped)
			}
			if after := dirState(t, d.Path()); !equalMaps(before, after) {
				t.Errorf("Find changed the directory")
			}
			switch {
			case tc.want == 0 && s != nil:
				t.Fatalf("found %s, want none", s.Path)
			case tc.want == 0:
			case s == nil:
				t.Fatal("found nothing")
			case s.Setup.Nonce[0] != tc.want || s.Over != tc.over:
				t.Fatalf("found %s (nonce %d, over %v), want nonce %d over %v", filepath.Base(s.Path), s.Setup.Nonce[0], s.Over, tc.want, tc.over)
			case !s.Over && (s.Entropy[0] != 7 || s.Rolls < 11):
				t.Fatalf("found %s after %d rolls, entropy %x", s.Path, s.Rolls, s.Entropy[:2])
			}
		})
	}
}
