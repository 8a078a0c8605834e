package p2p

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func TestIdentityPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "identity.key")
	k1, err := LoadOrCreateIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	k2, err := LoadOrCreateIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	id1, _ := peer.IDFromPrivateKey(k1)
	id2, _ := peer.IDFromPrivateKey(k2)
	if id1 != id2 || k1.Type() != crypto.Ed25519 {
		t.Fatalf("reloaded identity %s differs from %s", id2, id1)
	}
}

// Peers started at once on the same file agree on one identity.
func TestIdentityConcurrentCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity.key")
	ids := make([]peer.ID, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			k, err := LoadOrCreateIdentity(path)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i], _ = peer.IDFromPrivateKey(k)
		})
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("identities differ: %s vs %s", id, ids[0])
		}
	}
}

func TestIdentityRejectsGarbage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity.key")
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadOrCreateIdentity(path)
	if err == nil || !strings.Contains(err.Error(), "move it away") {
		t.Fatalf("garbage identity: %v", err)
	}
	k, _, _ := crypto.GenerateSecp256k1Key(rand.Reader)
	raw, _ := crypto.MarshalPrivateKey(k)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateIdentity(path); err == nil || !strings.Contains(err.Error(), "want Ed25519") {
		t.Fatalf("secp256k1 identity: %v", err)
	}
}
