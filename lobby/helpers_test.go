package lobby

import (
	"bytes"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// ids are deterministic peer IDs with real Ed25519 keys, so a Setup built
// from them passes lockstep's checks.
var ids = func() []peer.ID {
	var out []peer.ID
	for i := 0; i < 6; i++ {
		k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i + 1)}, 64)))
		if err != nil {
			panic(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			panic(err)
		}
		out = append(out, id)
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
