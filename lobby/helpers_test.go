package lobby

import (
	"testing"

	"aeroplane/internal/testkit"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ids are deterministic peer IDs with real Ed25519 keys, so a Setup built
// from them passes lockstep's checks.
var ids = func() []peer.ID {
	var out []peer.ID
	for i := 0; i < 6; i++ {
		out = append(out, testkit.ID(i+1))
	}
	return out
}()

var names = []string{"ann", "bob", "cat", "dan", "eve", "fay"}

func member(i int) Member { return Member{ID: ids[i], Name: names[i]} }

func mustTable(t *testing.T, cfg TableConfig) *Table {
	t.Helper()
	tb, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
