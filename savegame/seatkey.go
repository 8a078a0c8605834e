package savegame

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// seatKeyPath names the seat key of the person called name at this
// program: the name in hex, or its SHA-256 when too long for a file name,
// so no name a person types reaches the path's syntax.
func (d *Dir) seatKeyPath(name string) string {
	if len(name) > maxHexName {
		return filepath.Join(d.path, fmt.Sprintf("seat-h%x.key", sha256.Sum256([]byte(name))))
	}
	return filepath.Join(d.path, fmt.Sprintf("seat-%x.key", name))
}

// SeatKey is the key of the person called name playing at this program
// beside its owner (hot seat: several people at one laptop): each such
// person signs and commits its dice chain with a key of its own, as on a
// laptop of its own, and the same name at the same data directory is the
// same key, so the same seat ID, on every later day. The key is made
// from a 32-byte seed kept as a dice secret is (seat-HEX.key, mode 0600,
// written whole and never replaced); a damaged file is an error that
// names it.
func (d *Dir) SeatKey(name string) (crypto.PrivKey, error) {
	if name == "" {
		return nil, errors.New("a seat key needs the person's name")
	}
	path := d.seatKeyPath(name)
	seed, err := readSecret(path)
	if errors.Is(err, errNoSecret) {
		if _, err := rand.Read(seed[:]); err != nil {
			return nil, fmt.Errorf("making a seat key for %q: %w", name, err)
		}
		err = writeSecret(path, seed)
		if errors.Is(err, fs.ErrExist) {
			seed, err = readSecret(path) // another process made it first: its key is the one
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the seat key of %q: %w (move %s away to make a new one)", name, err, filepath.Base(path))
	}
	k, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		return nil, fmt.Errorf("the seat key of %q: %w", name, err)
	}
	return k, nil
}
