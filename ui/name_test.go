package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// The name given in the lobby is told to Options.NameSet once the session
// took it, and comes back from the data directory on the next run; a file
// that is not a name this program wrote is no name.
func TestNameRemembered(t *testing.T) {
	dir := t.TempDir()
	if n := RememberedName(dir); n != "" {
		t.Fatalf("a fresh directory remembers %q", n)
	}
	f := newFake()
	u := New(f, Options{Lang: "en", NameSet: func(n string) {
		if err := RememberName(dir, n); err != nil {
			t.Error(err)
		}
	}})
	u.Apply(LobbyUpdate{Me: Peer{ID: "me", Name: "alice"}})
	u.HandleKey(ch('n'))
	for range len("alice") {
		u.HandleKey(key(tcell.KeyBackspace2))
	}
	typeText(u, "Mei Lin")
	u.HandleKey(key(tcell.KeyEnter))
	if got := RememberedName(dir); got != "Mei Lin" {
		t.Errorf("after renaming in the lobby the next run offers %q, want %q", got, "Mei Lin")
	}
	if err := RememberName(dir, "Zoë"); err != nil || RememberedName(dir) != "Zoë" {
		t.Errorf("a second name replaces the first: %v, %q", err, RememberedName(dir))
	}
	for name, content := range map[string]string{
		"too long": strings.Repeat("x", maxNameFile+1),
		"not text": "\xff\xfe",
	} {
		if err := os.WriteFile(filepath.Join(dir, nameFile), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := RememberedName(dir); got != "" {
			t.Errorf("%s: remembered %q", name, got)
		}
	}
	if err := RememberName(dir, "  "); err == nil {
		t.Error("an empty name was remembered")
	}
	if ents, _ := filepath.Glob(filepath.Join(dir, nameFile+".*")); len(ents) != 0 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// FuzzRememberedName: whatever the name file holds, the name read back is
// valid text of at most maxNameFile bytes without surrounding space, and
// remembering it again gives it back unchanged.
func FuzzRememberedName(f *testing.F) {
	for _, s := range []string{"Mei Lin\n", "", "\xff", "  x  ", strings.Repeat("é", 200), "a\nb"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, nameFile), b, 0o600); err != nil {
			t.Fatal(err)
		}
		n := RememberedName(dir)
		if len(n) > maxNameFile || !utf8.ValidString(n) || strings.TrimSpace(n) != n {
			t.Fatalf("read %q from %q", n, b)
		}
		if n == "" {
			return
		}
		if err := RememberName(dir, n); err != nil || RememberedName(dir) != n {
			t.Fatalf("%q does not come back: %v, %q", n, err, RememberedName(dir))
		}
	})
}
