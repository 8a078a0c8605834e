package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
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

// nameFile is where the player's name is kept between runs, in the data
// directory (each --data is one player, like each --identity).
const nameFile = "player-name"

// maxNameFile bounds the name file's read: a name is at most a few dozen
// bytes, and anything longer is not one we wrote.
const maxNameFile = 256

// RememberedName is the name the player gave last time in the data
// directory dir, or "" if there is none (or the file is not one this
// program wrote: too long, or not text). The caller cleans it as any
// name (p2p.CleanName) before use.
func RememberedName(dir string) string {
	f, err := os.Open(filepath.Join(dir, nameFile))
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxNameFile+1))
	if err != nil || len(b) > maxNameFile || !utf8.Valid(b) {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// RememberName keeps name for the next run in the data directory dir
// (which exists), replacing the file whole (a crash leaves the old name
// or the new one, never half of one).
func RememberName(dir, name string) error {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > maxNameFile {
		return fmt.Errorf("not remembering a name of %d bytes", len(name))
	}
	tmp, err := os.CreateTemp(dir, nameFile+".*")
	if err != nil {
		return fmt.Errorf("remembering the name: %w", err)
	}
	_, err = tmp.WriteString(name + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, nameFile))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("remembering the name: %w", err)
	}
	return nil
}
