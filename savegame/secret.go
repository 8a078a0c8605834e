package savegame

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// secretSize is the dice entropy's size (lockstep.Config.Entropy).
const secretSize = 32

// errNoSecret: the secret file is not there.
var errNoSecret = errors.New("no dice secret")

// writeSecret creates path holding secret, mode 0600, and never replaces a
// file already there: the secret is written and fsynced under a temporary
// name, then hard-linked to its name (link fails if the name exists, so a
// concurrent or replayed create cannot overwrite it), then the directory
// is fsynced, so the name survives a machine crash with the contents.
func writeSecret(path string, secret [secretSize]byte) error {
	tmp := path + ".new"
	if err := writeFileSync(tmp, secret[:], os.O_TRUNC, 0o600); err != nil {
		return fmt.Errorf("saving the dice secret: %w", err)
	}
	// O_TRUNC keeps the mode of a stale tmp file left by a crash.
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("saving the dice secret: %w", err)
	}
	err := os.Link(tmp, path)
	if rerr := os.Remove(tmp); err == nil && rerr != nil {
		err = rerr
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("saving the dice secret: %s already exists: %w", filepath.Base(path), fs.ErrExist)
		}
		return fmt.Errorf("saving the dice secret: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// readSecret reads the secret at path: errNoSecret if absent, an error if
// it is not exactly secretSize bytes.
func readSecret(path string) ([secretSize]byte, error) {
	var s [secretSize]byte
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, fmt.Errorf("its dice secret %s is missing: %w", filepath.Base(path), errNoSecret)
	case err != nil:
		return s, fmt.Errorf("its dice secret %s cannot be read: %w", filepath.Base(path), err)
	case len(b) != secretSize:
		return s, fmt.Errorf("its dice secret %s is damaged (%d bytes, want %d)", filepath.Base(path), len(b), secretSize)
	}
	copy(s[:], b)
	return s, nil
}
