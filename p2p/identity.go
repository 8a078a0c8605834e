package p2p

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
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

// maxIdentitySize bounds what is read from the identity path: a libp2p
// Ed25519 key is 68 bytes, so anything much larger is not one.
const maxIdentitySize = 4 << 10

// LoadOrCreateIdentity reads the Ed25519 key at path, or creates one there
// (mode 0600, parent directory 0700) if nothing is there. The same key
// means the same peer ID, which is how a restarted peer takes its seat back.
//
// It ends in one pass, whatever is at path: only a regular file is read; a
// symbolic link (even a dangling one), a FIFO, a device or a directory is
// an error at once, never followed, waited on or replaced.
func LoadOrCreateIdentity(path string) (crypto.PrivKey, error) {
	key, err := readIdentity(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key, err = createIdentity(path)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it between our read and our link: it
		// won, and its file is whole (it was linked complete). Reading it
		// is the last step: no second attempt at creating.
		return readIdentity(path)
	}
	return key, err
}

// readIdentity reads the key at path, or returns an error wrapping
// fs.ErrNotExist if nothing at all is there.
func readIdentity(path string) (crypto.PrivKey, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("reading identity %s: %w", path, err)
	}
	if err := regularIdentity(path, st); err != nil {
		return nil, err
	}
	// The Stat of the open file decides, whatever was swapped in at the
	// path since the Lstat (identityOpenFlags).
	f, err := os.OpenFile(path, os.O_RDONLY|identityOpenFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("reading identity %s: %w (pass --identity FILE to use another file)", path, err)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("reading identity %s: %w", path, err)
	}
	if err := regularIdentity(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIdentitySize+1))
	if err != nil {
		return nil, fmt.Errorf("reading identity %s: %w", path, err)
	}
	if len(data) > maxIdentitySize {
		return nil, fmt.Errorf("identity %s is %d bytes or more, too large for a key (move it away to make a new identity, or pass --identity FILE)", path, maxIdentitySize+1)
	}
	return parseIdentity(path, data)
}

// regularIdentity refuses anything at path but a regular file.
func regularIdentity(path string, st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("identity %s is %s, not a key file: remove it to make a new identity there, or pass --identity FILE", path, what)
}

// createIdentity makes a new key and links it at path; an error wrapping
// fs.ErrExist means something appeared at path meanwhile.
func createIdentity(path string) (crypto.PrivKey, error) {
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
	// Write to a temporary file and link it into place so a crash never
	// leaves half a key that would later be rejected (or, worse, be a
	// different identity).
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
	// identity, exactly one wins and the other reads the winner's key. A
	// dangling symbolic link at path also makes the link fail with
	// ErrExist, which readIdentity then names.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		return nil, fmt.Errorf("saving identity %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		// The new name must survive a machine crash, or the next start
		// would make a second identity and lose the seat.
		_ = d.Sync()
		d.Close()
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
