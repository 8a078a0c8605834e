package savegame

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/quick"

	"aeroplane/lockstep"
)

// No game ID and no lobby name, however hostile, names a file outside the
// directory or a file that is not one of its kinds.
func TestNamesStayInside(t *testing.T) {
	d := openDir(t)
	gameName := regexp.MustCompile(`^game-[0-9a-f]{16}\.(log|secret|closed)$`)
	check := func(gid [32]byte) bool {
		g := lockstep.GameID(gid)
		for _, p := range []string{d.LogPath(g), d.secretPath(g), d.closedPath(g)} {
			if filepath.Dir(p) != d.Path() || !gameName.MatchString(filepath.Base(p)) {
				t.Logf("%x: %s", gid, p)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, nil); err != nil {
		t.Error(err)
	}
	for _, lobby := range []string{"", "friday", "../../etc/passwd", "/abs", "a/b", "..", "x\x00y", "日本語", strings.Repeat("z", 300), strings.Repeat("/..", 200)} {
		p := d.runPath(lobby)
		if filepath.Dir(p) != d.Path() || !regexp.MustCompile(`^current-h?[0-9a-f]*$`).MatchString(filepath.Base(p)) || len(filepath.Base(p)) > 255 {
			t.Errorf("lobby %q: run pointer at %s", lobby, p)
		}
		if err := d.SetRun(lobby, Run{Game: "0123456789abcdef", Number: 2, Prev: "fedcba9876543210"}); err != nil {
			t.Errorf("lobby %q: %v", lobby, err)
		}
		if r, err := d.Run(lobby); err != nil || r.Game != "0123456789abcdef" || r.Number != 2 || r.Prev != "fedcba9876543210" {
			t.Errorf("lobby %q: read back %+v, %v", lobby, r, err)
		}
	}
	ents, _ := filepath.Glob(filepath.Join(d.Path(), "current-*"))
	if len(ents) != 10 {
		t.Errorf("%d files for the run pointers of 10 lobbies, want one each: %v", len(ents), ents)
	}
}

// The run pointer's parser: what headless wrote before and after --games,
// and a file that tries to name a path.
func TestParseRun(t *testing.T) {
	id, prev := "0123456789abcdef", "fedcba9876543210"
	for _, c := range []struct {
		in   string
		want Run
		err  bool
	}{
		{id + " 7\n", Run{Game: id, Number: 7}, false},
		{id + "\n", Run{Game: id, Number: 1}, false},
		{id + " x\n", Run{Game: id, Number: 1}, false},
		{id + " -3\n", Run{Game: id, Number: 1}, false},
		{id + " 8 " + prev + "\n", Run{Game: id, Number: 8, Prev: prev}, false},
		{id + " 1 " + prev + "\n", Run{Game: id, Number: 1}, false},
		{id + " 8 ../../x\n", Run{Game: id, Number: 8}, false},
		{"../../etc/passwd 2\n", Run{}, true},
		{"0123456789ABCDEF 2\n", Run{}, true},
		{"", Run{}, true},
		{"   \n", Run{}, true},
		{strings.Repeat(id+" ", 100), Run{}, true},
	} {
		got, err := ParseRun([]byte(c.in))
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseRun(%q) = %+v, %v; want %+v (error %v)", c.in, got, err, c.want, c.err)
		}
		if err == nil {
			if back, err := ParseRun([]byte(got.String())); err != nil || back != got {
				t.Errorf("%+v does not read back: %+v, %v", got, back, err)
			}
		}
	}
}

// FuzzParseRun: whatever the file holds, ParseRun does not panic, and what
// it accepts names a game ID and reads back the same.
func FuzzParseRun(f *testing.F) {
	f.Add([]byte("0123456789abcdef 7\n"))
	f.Add([]byte("0123456789abcdef 8 fedcba9876543210\n"))
	f.Add([]byte("../../x 2"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRun(b)
		if err != nil {
			return
		}
		if !isGameID(r.Game) || r.Number < 1 || r.Prev != "" && !isGameID(r.Prev) {
			t.Fatalf("accepted %q as %+v", b, r)
		}
		if back, err := ParseRun([]byte(r.String())); err != nil || back != r {
			t.Fatalf("%+v reads back as %+v, %v", r, back, err)
		}
		if bytes.ContainsAny([]byte(r.Game+r.Prev), "/.\\") {
			t.Fatalf("a path in %+v", r)
		}
	})
}
