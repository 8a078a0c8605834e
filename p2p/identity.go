package p2p

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// DefaultIdentityPath is where a user's identity lives unless --identity
// names another file: os.UserConfigDir()/aeroplane/identity.key.
func DefaultIdentityPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the config directory for the identity key: %w (pass --identity FILE)", err)
	}
	return filepath.Join(dir, "aeroplane", "identity.key"), nil
}

// LoadOrCreateIdentity reads the Ed25519 key at path, or creates one there
// (mode 0600, parent directory 0700) if the file does not exist. The same key
// means the same peer ID, which is how a restarted peer takes its seat back.
func LoadOrCreateIdentity(path string) (crypto.PrivKey, error) {
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		return parseIdentity(path, data)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("reading identity %s: %w", path, err)
	}
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating identity: %w", err)
	}
	raw, err := crypto.MarshalPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encoding identity: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the directory for identity %s: %w", path, err)
	}
	// Write to a temporary file and rename so a crash never leaves half a key
	// that would later be rejected (or, worse, be a different identity).
	tmp, err := os.CreateTemp(filepath.Dir(path), ".identity-*")
	if err != nil {
		return nil, fmt.Errorf("creating identity %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("restricting identity %s: %w", path, err)
	}
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing identity %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing identity %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("writing identity %s: %w", path, err)
	}
	// Link instead of rename: if two processes race to create the same
	// identity, exactly one wins and the other reads the winner's key.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return LoadOrCreateIdentity(path)
		}
		return nil, fmt.Errorf("saving identity %s: %w", path, err)
	}
	return key, nil
}

func parseIdentity(path string, data []byte) (crypto.PrivKey, error) {
	key, err := crypto.UnmarshalPrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("identity %s is not a libp2p private key: %w (move it away to make a new identity)", path, err)
	}
	if key.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("identity %s holds a %v key, want Ed25519 (move it away to make a new identity)", path, key.Type())
	}
	return key, nil
}
