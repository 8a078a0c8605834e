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

// held are the directories this process has locked, by absolute path. A
// lock is kept until the process ends (the kernel drops it then, also
// after kill -9), so any number of Opens in one process share it.
var held struct {
	sync.Mutex
	dirs map[string]*os.File
}

// lockDir takes the data directory's lock for this process, or says who
// has it.
func lockDir(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	held.Lock()
	defer held.Unlock()
	if held.dirs[abs] != nil {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(abs, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return fmt.Errorf("%w (%s): close the other one, or give this one its own --data DIR and --identity FILE to play as another player", ErrInUse, path)
	}
	if held.dirs == nil {
		held.dirs = map[string]*os.File{}
	}
	held.dirs[abs] = f
	return nil
}
