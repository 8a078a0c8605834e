//go:build unix

package savegame

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f without waiting for it.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
