package savegame

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// dirState is every file in a directory with its bytes.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// Create checks a game completely before it writes anything. A Setup of
// a game already on disk (a creator replaying an old game's Setup) is
// refused and the old game's secret and log stay as they were; a secret
// is never replaced, and kept when its log holds no record (that game
// committed to nothing). Headless, before this package, wrote the new
// secret first and refused after, losing the old game's secret; the
// interactive client wrote it and then restored the old log with it.
func TestCreateNeverOverwrites(t *testing.T) {
	self, recs := playedLog(t, 1, 3)
	setup := setupOf(t, recs)
	gid := setup.GameID()
	stranger, _ := peer.Decode("12D3KooWGAGoAbSHgEbLM9FhfSF2dVoFjFbBNM163LtG1zxf7Ymh")
	old := bytes.Repeat([]byte{7}, 32)
	bad := setup
	bad.Seats = nil
	type files struct{ log, secret, closed []byte }
	for _, c := range []struct {
		name    string
		before  files
		setup   lockstep.Setup
		self    peer.ID
		want    string // "" created; else in the error
		isExist bool
		reused  bool // the old secret is the game's entropy
	}{
		{"a new game", files{}, setup, self, "", false, false},
		{"replayed Setup: log with records and its secret", files{log: logBytes(recs), secret: old}, setup, self, "already holds", true, false},
		{"replayed Setup: log with records, secret lost", files{log: logBytes(recs)}, setup, self, "already holds", true, false},
		{"replayed Setup of a game closed", files{secret: old, closed: []byte("over\n")}, setup, self, "closed", true, false},
		{"stopped before its first record: the secret is kept", files{log: lockstep.LogHeader(), secret: old}, setup, self, "", false, true},
		{"stopped inside the header: the secret is kept", files{log: lockstep.LogHeader()[:5], secret: old}, setup, self, "", false, true},
		{"a secret without a log is kept", files{secret: old}, setup, self, "", false, true},
		{"a damaged secret is not replaced", files{secret: old[:5]}, setup, self, "damaged", false, false},
		{"a damaged log is not replaced", files{log: []byte("not a log, not at all"), secret: old}, setup, self, "damaged", false, false},
		{"not our game", files{}, setup, stranger, "no seat", false, false},
		{"a bad Setup", files{}, bad, self, "bad setup", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := openDir(t)
			for p, b := range map[string][]byte{d.LogPath(gid): c.before.log, d.secretPath(gid): c.before.secret, d.closedPath(gid): c.before.closed} {
				if b != nil {
					if err := os.WriteFile(p, b, 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			before := dirState(t, d.Path())
			g, err := d.Create(c.setup, c.self, bytes.NewReader(bytes.Repeat([]byte{9}, 32)))
			if c.want != "" {
				if err == nil {
					g.Log.Close()
					t.Fatal("created")
				}
				if !strings.Contains(err.Error(), c.want) || errors.Is(err, ErrExists) != c.isExist {
					t.Fatalf("err %v, want %q (ErrExists %v)", err, c.want, c.isExist)
				}
				if after := dirState(t, d.Path()); !equalMaps(before, after) {
					t.Fatalf("a refused game changed the directory:\nbefore %q\nafter  %q", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer g.Log.Close()
			want := bytes.Repeat([]byte{9}, 32)
			if c.reused {
				want = old
			}
			if !bytes.Equal(g.Entropy[:], want) || len(g.Records) != 0 {
				t.Fatalf("entropy %x, %d records; want %x and a new game", g.Entropy[:4], len(g.Records), want[:4])
			}
			st, err := os.Stat(d.secretPath(gid))
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(d.secretPath(gid)); !bytes.Equal(b, want) {
				t.Fatalf("secret on disk %x, want %x", b[:4], want[:4])
			}
			if !c.reused && st.Mode().Perm() != 0o600 {
				t.Fatalf("secret mode %v, want 0600", st.Mode().Perm())
			}
			if b, _ := os.ReadFile(d.LogPath(gid)); !bytes.Equal(b, lockstep.LogHeader()) {
				t.Fatalf("log %q, want the header", b)
			}
			if _, err := os.Stat(d.secretPath(gid) + ".new"); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the secret's temporary file is left: %v", err)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// The secret is created exclusively: a second Create of the same game
// after the first wrote its first record is refused, and the secret is
// the first one's.
func TestCreateTwice(t *testing.T) {
	self, recs := playedLog(t, 1, 3)
	setup := setupOf(t, recs)
	d := openDir(t)
	g, err := d.Create(setup, self, bytes.NewReader(bytes.Repeat([]byte{1}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Log.Append(recs[:2]); err != nil {
		t.Fatal(err)
	}
	g.Log.Close()
	if _, err := d.Create(setup, self, bytes.NewReader(bytes.Repeat([]byte{2}, 32))); !errors.Is(err, ErrExists) {
		t.Fatalf("second create: %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(d.secretPath(setup.GameID())); !bytes.Equal(b, bytes.Repeat([]byte{1}, 32)) {
		t.Fatalf("secret %x after the second create, want the first's", b)
	}
}

// Resume reopens what Find found: the same records (a torn tail cut) and
// the secret, never writing one.
func TestResume(t *testing.T) {
	self, recs := playedLog(t, 1, 12)
	d := openDir(t)
	gid := writeGame(t, d, recs, true, 0)
	f, _ := os.OpenFile(d.LogPath(gid), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{0, 0, 1})
	f.Close()
	s, skipped := d.Find(Query{Self: self, Now: timeNow()})
	if s == nil {
		t.Fatalf("nothing found: %v", skipped)
	}
	g, err := d.Resume(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Log.Close()
	if len(g.Records) != len(recs) || g.Entropy[0] != 7 || g.Setup.GameID() != gid {
		t.Fatalf("resumed %d records, entropy %x; want %d and the secret", len(g.Records), g.Entropy[:2], len(recs))
	}
	if b, _ := os.ReadFile(d.LogPath(gid)); !bytes.Equal(b, logBytes(recs)) {
		t.Fatal("the torn tail was not cut")
	}
}

// A game alone with bots gets a log of its own name, refused if it exists.
func TestCreateLocal(t *testing.T) {
	d := openDir(t)
	gid := lockstep.GameID{1, 2, 3}
	at := timeNow()
	l, err := d.CreateLocal(gid, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(l.Path(), "-"+gid.String()+".log") || filepath.Dir(l.Path()) != d.Path() {
		t.Fatalf("local log at %s", l.Path())
	}
	if _, err := d.CreateLocal(gid, at); err == nil {
		t.Fatal("a local log was created twice")
	}
	if s, _ := d.Find(Query{Self: "x", Now: at}); s != nil {
		t.Fatal("found a local game to resume")
	}
}

// A newcomer's log (CreateTaken) is one of its own, named game-take-…,
// with dice entropy of its own kept beside it (game-take-….secret, 0600,
// never the players' game-ID.secret): Find never offers it to the
// Setup's players.
func TestCreateTaken(t *testing.T) {
	d := openDir(t)
	_, recs := playedLog(t, 7, 10)
	setup := setupOf(t, recs)
	at := timeNow()
	g, err := d.CreateTaken(setup, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Log.Write(recs); err != nil {
		t.Fatal(err)
	}
	if err := g.Log.Close(); err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(g.Log.Path())
	if !strings.HasPrefix(base, "game-take-") || !strings.HasSuffix(base, "-"+setup.GameID().String()+".log") || g.Entropy == ([32]byte{}) {
		t.Fatalf("taken game's log %s, entropy %x", base, g.Entropy)
	}
	if _, err := os.Stat(d.secretPath(setup.GameID())); err == nil {
		t.Fatal("a newcomer's dice secret was written as a player's")
	}
	if st, err := os.Stat(takeSecretPath(g.Log.Path())); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the newcomer's secret beside its log: %v, %v", st, err)
	}
	if secret, err := readSecret(takeSecretPath(g.Log.Path())); err != nil || secret != g.Entropy {
		t.Fatalf("the newcomer's secret reads %x, %v; its entropy is %x", secret, err, g.Entropy)
	}
	for _, p := range setup.Players() {
		if s, _ := d.Find(Query{Self: p, Now: at}); s != nil {
			t.Fatalf("Find offers the taken game's log %s to resume", s.Path)
		}
	}
	// The names go beside its own log, the newcomer's among them.
	newcomer, stranger := testkit.ID(71), testkit.ID(72)
	names := map[peer.ID]string{setup.Players()[0]: "ann", newcomer: "zoe", stranger: "eve"}
	if err := d.SaveNamesBeside(g.Log.Path(), setup, names, newcomer); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(strings.TrimSuffix(g.Log.Path(), ".log") + ".names")
	if err != nil {
		t.Fatal(err)
	}
	got := ParseNames(f)
	f.Close()
	if got[setup.Players()[0]] != "ann" || got[newcomer] != "zoe" || got[stranger] != "" {
		t.Errorf("names beside the taken log: %v", got)
	}
	if again := d.NamesBeside(g.Log.Path()); again[newcomer] != "zoe" || len(again) != len(got) {
		t.Errorf("NamesBeside the taken log: %v, want %v", again, got)
	}
	if err := d.SaveNamesBeside(filepath.Join(t.TempDir(), "game-x.log"), setup, names); err == nil {
		t.Error("names saved beside a log outside the directory")
	}
}

// A newcomer seated before its program stopped resumes its seat: Find
// offers its taken log (the newest, within the hour) with the seat and
// its secret; not a newcomer that was never seated, not the Setup's
// players, not once the game is marked closed.
func TestFindResumesATakenSeat(t *testing.T) {
	data, err := os.ReadFile("../lockstep/testdata/takeseat.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
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
	if newcomer == "" {
		t.Fatal("the golden takeseat.log names no newcomer")
	}
	setup := setupOf(t, recs)
	for _, c := range []struct {
		name    string
		records int
		self    peer.ID
		closed  bool
		want    bool
	}{
		{"seated, mid-game", 2 * len(recs) / 3, newcomer, false, true},
		{"not seated yet", 4, newcomer, false, false},
		{"a player of the setup", 2 * len(recs) / 3, setup.Players()[0], false, false},
		{"closed", 2 * len(recs) / 3, newcomer, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := openDir(t)
			at := timeNow()
			g, err := d.CreateTaken(setup, at)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Log.Write(recs[:c.records]); err != nil {
				t.Fatal(err)
			}
			if err := g.Log.Close(); err != nil {
				t.Fatal(err)
			}
			if c.closed {
				if err := d.MarkClosed(setup.GameID(), "over"); err != nil {
					t.Fatal(err)
				}
			}
			s, skipped := d.Find(Query{Self: c.self, Now: at, Lobby: setup.Name})
			switch {
			case !c.want && s != nil:
				t.Fatalf("Find offers %s to resume", s.Path)
			case !c.want:
				return
			case s == nil:
				t.Fatalf("Find offers nothing to resume (%v)", skipped)
			case s.Take == nil || s.Take.Colour != colour || s.Entropy != g.Entropy || s.Path != g.Log.Path():
				t.Fatalf("Find: take %v, entropy %x, path %s; want %s, %x, %s", s.Take, s.Entropy, s.Path, colour, g.Entropy, g.Log.Path())
			}
			if _, err := d.Resume(s); err != nil {
				t.Fatal(err)
			}
		})
	}
}
