package savegame

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"aeroplane/lockstep"
)

// Run is where a headless --games run stands: game Game is number Number
// of the run, the rematch of game Prev (zero for the first). It only
// numbers the games: which game to resume is Find's.
type Run struct {
	Game   string // lockstep.GameID.String()
	Number int    // from 1
	Prev   string // "" for game 1
}

// maxRunFile bounds what ParseRun reads: a good pointer is under 60 bytes.
const maxRunFile = 256

// ParseRun reads a run pointer: "ID N" for game N of a run, "ID N PREV"
// for a rematch of game PREV, "ID" from before --games (game 1). A bad
// number is game 1; an ID that is not a game ID is an error, so the file
// can never name a path.
func ParseRun(b []byte) (Run, error) {
	if len(b) > maxRunFile {
		return Run{}, fmt.Errorf("run pointer of %d bytes, at most %d", len(b), maxRunFile)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return Run{}, errors.New("empty run pointer")
	}
	r := Run{Game: f[0], Number: 1}
	if !isGameID(r.Game) {
		return Run{}, fmt.Errorf("run pointer names %q, not a game ID", r.Game)
	}
	if len(f) > 1 {
		if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
			r.Number = n
		}
	}
	if len(f) > 2 && r.Number > 1 && isGameID(f[2]) {
		r.Prev = f[2]
	}
	return r, nil
}

// String is the pointer's file contents, which ParseRun reads back.
func (r Run) String() string {
	if r.Number > 1 && r.Prev != "" {
		return fmt.Sprintf("%s %d %s\n", r.Game, r.Number, r.Prev)
	}
	return fmt.Sprintf("%s %d\n", r.Game, r.Number)
}

func isGameID(s string) bool {
	if len(s) != len(lockstep.GameID{}.String()) {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Run reads lobby's run pointer: the zero Run (Number 0) if there is none
// or it cannot be read.
func (d *Dir) Run(lobby string) (Run, error) {
	f, err := os.Open(d.runPath(lobby))
	if errors.Is(err, fs.ErrNotExist) {
		return Run{}, nil
	}
	if err != nil {
		return Run{}, fmt.Errorf("reading the run pointer: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRunFile+1))
	if err != nil {
		return Run{}, fmt.Errorf("reading the run pointer: %w", err)
	}
	r, err := ParseRun(b)
	if err != nil {
		return Run{}, fmt.Errorf("the run pointer %s: %w", d.runPath(lobby), err)
	}
	return r, nil
}

// SetRun records where lobby's run stands; a crash leaves the old pointer
// or the new, never half of one.
func (d *Dir) SetRun(lobby string, r Run) error {
	if !isGameID(r.Game) || r.Number < 1 {
		return fmt.Errorf("bad run pointer %+v", r)
	}
	if err := replaceFile(d.runPath(lobby), []byte(r.String()), 0o644); err != nil {
		return fmt.Errorf("recording the current game in %s: %w", d.path, err)
	}
	return nil
}

// EndRun removes lobby's run pointer: a restart with this lobby starts a
// new run.
func (d *Dir) EndRun(lobby string) error {
	if err := os.Remove(d.runPath(lobby)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ending the run of %q: %w", lobby, err)
	}
	return syncDir(d.path)
}
