package p2p

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

// Whatever is at the identity path that is not a regular file is named at
// once: nothing is followed, waited on, replaced or left behind.
func TestIdentityRefusesNonRegular(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.key")
	if _, err := LoadOrCreateIdentity(good); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"dangling symlink", func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "nowhere"), p) }, "a symbolic link"},
		{"symlink to a key", func(p string) error { return os.Symlink(good, p) }, "a symbolic link"},
		{"symlink loop", func(p string) error { return os.Symlink(p, p) }, "a symbolic link"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "a FIFO"},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, "a directory"},
		{"device", func(p string) error { return os.Symlink("/dev/zero", p) }, "a symbolic link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "identity.key")
			if err := tc.make(path); err != nil {
				t.Fatalf("making %s: %v", tc.name, err)
			}
			_, err := LoadOrCreateIdentity(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--identity") {
				t.Fatalf("LoadOrCreateIdentity on %s: %v, want an error saying %q and naming --identity", tc.name, err, tc.want)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".identity-*"))
			if len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

// A file too large to be a key is refused without reading it all.
func TestIdentityRefusesHuge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity.key")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateIdentity(path); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("1 MiB identity: %v", err)
	}
}
