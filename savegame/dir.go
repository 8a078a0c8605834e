package savegame

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"aeroplane/lockstep"
)

// Dir is the data directory: every game's files, named only here.
type Dir struct {
	path string
}

// Open opens the data directory at path, creating it (mode 0700, as it
// holds the dice secrets) if its parent exists, and checks that a file
// can be created in it. A missing parent is refused rather than created:
// it is more likely a typo than a wish for a new tree. The directory is
// this process's until it ends: Open in another running program fails
// with ErrInUse.
func Open(path string) (*Dir, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.IsDir():
		return nil, fmt.Errorf("cannot save games in %s: it is a file, not a directory (move it away)", path)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		parent := filepath.Dir(filepath.Clean(path))
		if pfi, perr := os.Stat(parent); perr != nil {
			return nil, fmt.Errorf("cannot save games in %s: its parent %s does not exist (create it first)", path, parent)
		} else if !pfi.IsDir() {
			return nil, fmt.Errorf("cannot save games in %s: its parent %s is a file, not a directory", path, parent)
		}
		if err := os.Mkdir(path, 0o700); err != nil {
			return nil, fmt.Errorf("cannot create %s for saved games: %w (make %s writable)", path, err, parent)
		}
		if err := syncDir(parent); err != nil {
			return nil, fmt.Errorf("cannot save games in %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	f, err := os.CreateTemp(path, ".write-test-*")
	if err != nil {
		return nil, fmt.Errorf("cannot save games in %s: %w (make it writable)", path, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return nil, fmt.Errorf("cannot save games in %s: %w", path, err)
	}
	if err := lockDir(path); err != nil {
		return nil, err
	}
	return &Dir{path: path}, nil
}

// Path is the directory's path.
func (d *Dir) Path() string { return d.path }

// The file names. ID is always lockstep.GameID.String(), hex digits only,
// and a lobby name is written in hex: nothing a peer chooses reaches the
// path's syntax.
func (d *Dir) name(gid lockstep.GameID, ext string) string {
	return filepath.Join(d.path, "game-"+gid.String()+ext)
}

// LogPath is where game gid's log lives (a LAN game, resumable).
func (d *Dir) LogPath(gid lockstep.GameID) string { return d.name(gid, ".log") }

func (d *Dir) secretPath(gid lockstep.GameID) string { return d.name(gid, ".secret") }
func (d *Dir) closedPath(gid lockstep.GameID) string { return d.name(gid, ".closed") }

// localLogPath names a game alone with bots by its start time too: it has
// no secret and is never resumed, and Find does not even read it.
func (d *Dir) localLogPath(gid lockstep.GameID, at time.Time) string {
	return filepath.Join(d.path, fmt.Sprintf("game-%s-%s.log", at.UTC().Format("20060102-150405"), gid))
}

// watchLogPath names a watched game's log: game-watch-DATE-TIME-ID.log.
func (d *Dir) watchLogPath(gid lockstep.GameID, at time.Time) string {
	return filepath.Join(d.path, fmt.Sprintf("game-watch-%s-%s.log", at.UTC().Format("20060102-150405.000"), gid))
}

// takeLogPath names the log of a game this program joined late, taking a
// seat: game-take-DATE-TIME-ID.log.
func (d *Dir) takeLogPath(gid lockstep.GameID, at time.Time) string {
	return filepath.Join(d.path, fmt.Sprintf("game-take-%s-%s.log", at.UTC().Format("20060102-150405.000"), gid))
}

// takeSecretPath names the dice secret beside a newcomer's log:
// game-take-DATE-TIME-ID.secret.
func takeSecretPath(logPath string) string { return strings.TrimSuffix(logPath, ".log") + ".secret" }

// isTakeLog says whether a log's name is a newcomer's (takeLogPath).
func isTakeLog(logPath string) bool { return strings.HasPrefix(filepath.Base(logPath), "game-take-") }

// runPath names lobby's run pointer by the name in hex; a name too long
// for a file name (past maxHexName bytes) by its SHA-256 instead.
func (d *Dir) runPath(lobby string) string {
	if len(lobby) > maxHexName {
		return filepath.Join(d.path, fmt.Sprintf("current-h%x", sha256.Sum256([]byte(lobby))))
	}
	return filepath.Join(d.path, fmt.Sprintf("current-%x", lobby))
}

// maxHexName keeps a run pointer's name under 255 bytes.
const maxHexName = 100

// syncDir makes the directory entries in dir durable. A variable so that
// tests can count the calls.
var syncDir = func(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("opening the directory %s to flush it: %w", dir, err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("flushing the directory %s: %w", dir, err)
	}
	return nil
}

// writeFileSync writes a small file with mode and fsyncs it.
func writeFileSync(path string, data []byte, flag int, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replaceFile writes data to path atomically: a crash leaves the old
// contents or the new, never half.
func replaceFile(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".new"
	if err := writeFileSync(tmp, data, os.O_TRUNC, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}
