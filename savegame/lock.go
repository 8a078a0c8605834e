package savegame

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ErrInUse refuses a data directory another running program holds: two
// programs on one directory would share a player's saved games and never
// see each other on the LAN (they are the same player).
var ErrInUse = errors.New("another aeroplane is using this data directory")

// ErrIdentityInUse refuses an identity file another running program plays
// as: two programs with one peer ID on the LAN cannot tell each other
// apart, so each finds nobody, which looks like broken discovery.
var ErrIdentityInUse = errors.New("another aeroplane is playing as this identity")

// held are the files this process has locked, by absolute path. A lock is
// kept until the process ends (the kernel drops it then, also after kill
// -9), so any number of Opens in one process share it.
var held struct {
	sync.Mutex
	files map[string]*os.File
}

// lockDir takes the data directory's lock for this process, or says who
// has it.
func lockDir(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	busy, err := lockOnce(filepath.Join(abs, ".lock"), os.O_RDWR|os.O_CREATE)
	if err != nil {
		return fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	if busy {
		return fmt.Errorf("%w (%s): close the other one, or give this one its own --data DIR and --identity FILE to play as another player", ErrInUse, path)
	}
	return nil
}

// LockIdentity takes the lock of the identity file at path (which must
// exist: p2p.LoadOrCreateIdentity made it) for this process, so that a
// second program playing as the same peer stops with ErrIdentityInUse
// instead of starting a lobby nobody can see. The lock is the file's own
// flock, held until the process ends; it never writes the file.
func LockIdentity(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("identity %s: %w", path, err)
	}
	busy, err := lockOnce(abs, os.O_RDONLY)
	if err != nil {
		return fmt.Errorf("identity %s: %w (pass --identity FILE to use another file)", path, err)
	}
	if busy {
		return fmt.Errorf("%w (%s): close the other one, or give this one its own --identity FILE and --data DIR to play as another player", ErrIdentityInUse, path)
	}
	return nil
}

// lockOnce flocks the file at abs for this process unless it already
// holds it; busy reports another process holding it.
func lockOnce(abs string, flag int) (busy bool, err error) {
	held.Lock()
	defer held.Unlock()
	if held.files[abs] != nil {
		return false, nil
	}
	f, err := os.OpenFile(abs, flag, 0o600)
	if err != nil {
		return false, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return true, nil
	}
	if held.files == nil {
		held.files = map[string]*os.File{}
	}
	held.files[abs] = f
	return false, nil
}
