package savegame

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A seat taken as a newcomer is continued another day like a player's
// game: Paused lists its game-take-….log, however old, with the seat
// (Take), the secret beside that log, and the newcomer among the players
// the game expects back in place of the seat's bot. A take log that
// does not seat this player (a seat never given: the program stopped
// before it was seated; a copy of another newcomer's), one holding
// another game than its name says, one without its secret, is refused
// saying why; a closed one is not listed.
func TestPausedTakenSeat(t *testing.T) {
	recs := takeseatLog(t)
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	var newcomer peer.ID
	colour := engine.NoColour
	for _, o := range v.Seats {
		if o.From > 0 {
			newcomer, colour = o.Player, o.Colour
		}
	}
	setup := setupOf(t, recs)
	mid := 2 * len(recs) / 3
	// write puts a newcomer's log of records n in d, two days old, and
	// returns its path.
	write := func(t *testing.T, d *Dir, n int) string {
		g, err := d.CreateTaken(setup, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Log.Write(recs[:n]); err != nil {
			t.Fatal(err)
		}
		if err := g.Log.Close(); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-48 * time.Hour)
		if err := os.Chtimes(g.Log.Path(), at, at); err != nil {
			t.Fatal(err)
		}
		return g.Log.Path()
	}
	for _, c := range []struct {
		name    string
		make    func(t *testing.T, d *Dir)
		self    peer.ID
		listed  bool
		skipped string
	}{
		{"seated, two days old", func(t *testing.T, d *Dir) { write(t, d, mid) }, newcomer, true, ""},
		{"a seat asked for and never given, beside the one given", func(t *testing.T, d *Dir) {
			write(t, d, 4)
			write(t, d, mid)
		}, newcomer, true, "holds no seat it took"},
		{"never seated", func(t *testing.T, d *Dir) { write(t, d, 4) }, newcomer, false, "holds no seat it took"},
		{"another newcomer's log copied in", func(t *testing.T, d *Dir) { write(t, d, mid) }, testkit.ID(99), false, "not a game of ours"},
		{"a player of the setup holds no taken seat in it", func(t *testing.T, d *Dir) { write(t, d, mid) }, setup.Players()[0], false, "holds no seat it took"},
		{"another game's take log renamed to this one", func(t *testing.T, d *Dir) {
			p := write(t, d, mid)
			other := strings.TrimSuffix(p, setup.GameID().String()+".log") + lockstep.GameID{1}.String()
			if err := os.Rename(p, other+".log"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(takeSecretPath(p), other+".secret"); err != nil {
				t.Fatal(err)
			}
		}, newcomer, false, "not the one its name says"},
		{"without its secret", func(t *testing.T, d *Dir) {
			if err := os.Remove(takeSecretPath(write(t, d, mid))); err != nil {
				t.Fatal(err)
			}
		}, newcomer, false, "dice secret"},
		{"closed", func(t *testing.T, d *Dir) {
			write(t, d, mid)
			if err := d.MarkClosed(setup.GameID(), "left on purpose"); err != nil {
				t.Fatal(err)
			}
		}, newcomer, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := openDir(t)
			c.make(t, d)
			if s, _ := d.Find(Query{Self: c.self, Now: time.Now()}); s != nil {
				t.Fatalf("Find resumes %s by itself: older than ResumeWithin", s.Path)
			}
			got, skipped := d.Paused(c.self, setup.Name)
			var msgs []string
			for _, err := range skipped {
				msgs = append(msgs, err.Error())
			}
			if m := strings.Join(msgs, "; "); c.skipped == "" && m != "" || !strings.Contains(m, c.skipped) {
				t.Errorf("skipped %q, want %q", m, c.skipped)
			}
			if !c.listed {
				if len(got) != 0 {
					t.Fatalf("Paused lists %s", got[0].Path)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("Paused lists %d games, want the taken seat's (skipped %q)", len(got), msgs)
			}
			s := got[0]
			secret, err := readSecret(takeSecretPath(s.Path))
			switch {
			case err != nil:
				t.Fatal(err)
			case s.Take == nil || s.Take.Colour != colour:
				t.Fatalf("the seat continued: %v, want %s", s.Take, colour)
			case s.Entropy != secret || !strings.HasPrefix(filepath.Base(s.Path), "game-take-"):
				t.Fatalf("continued from %s with entropy %x, want its take log's secret %x", s.Path, s.Entropy, secret)
			case time.Since(s.At) < 24*time.Hour || s.Rolls == 0:
				t.Fatalf("saved %v after %d rolls", s.At, s.Rolls)
			}
			want := append(setup.Players(), newcomer)
			if !slices.Equal(sortedIDs(s.Players), sortedIDs(want)) {
				t.Errorf("the players expected back: %v, want the setup's and the newcomer %v", s.Players, want)
			}
			if !slices.Contains(s.Members(), newcomer) {
				t.Errorf("the game's members %v leave out the newcomer", s.Members())
			}
			if _, err := d.Resume(s); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// takeseatLog is lockstep's golden log of a game a newcomer took a
// bot's seat in.
func takeseatLog(t *testing.T) []lockstep.Record {
	t.Helper()
	data, err := os.ReadFile("../lockstep/testdata/takeseat.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func sortedIDs(ids []peer.ID) []peer.ID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}
