package ui

import (
	"errors"
	"os"
	"path/filepath"
)

// StateDir is where the game keeps its logs and saved games:
// $XDG_STATE_HOME/aeroplane, else ~/.local/state/aeroplane (Go has no
// os.UserStateDir). It does not create the directory.
func StateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "aeroplane"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", errors.New("no state directory: set XDG_STATE_HOME or HOME")
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "aeroplane"), nil
}
