package savegame

import (
	"os"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Each person at the laptop has a key of their own, the same one every
// time the name comes back, kept private; a damaged key file is an error,
// never a silent new key (that would be a new seat ID).
func TestSeatKey(t *testing.T) {
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]peer.ID{}
	for _, name := range []string{"ann", "bob", "ann", strings.Repeat("x", 300), "../../etc"} {
		k, err := d.SeatKey(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := ids[name]; ok && prev != id {
			t.Errorf("%q: a second key %s, first %s", name, id, prev)
		}
		ids[name] = id
		fi, err := os.Stat(d.seatKeyPath(name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%q: key file %v, mode %v; want 0600", name, err, fi)
		}
		if !strings.HasPrefix(d.seatKeyPath(name), d.Path()+string(os.PathSeparator)+"seat-") {
			t.Errorf("%q: key file %s outside the directory", name, d.seatKeyPath(name))
		}
	}
	if ids["ann"] == ids["bob"] {
		t.Error("two people share a seat key")
	}
	if err := os.WriteFile(d.seatKeyPath("cat"), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SeatKey("cat"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged seat key: %v, want an error saying so", err)
	}
	if _, err := d.SeatKey(""); err == nil {
		t.Error("a seat key without a name")
	}
}
