package savegame

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Game is a game's files opened for play: its log (open, to write) and
// this player's dice entropy.
type Game struct {
	Setup   lockstep.Setup
	Entropy [32]byte
	Log     *Log
	// Records are those already in the log: empty for a new game, the
	// node's past when resuming (lockstep.Restore).
	Records []lockstep.Record
}

// ErrExists is wrapped by Create's refusal of a game already on disk.
var ErrExists = errors.New("this game is already on disk")

// Create starts the files of a new game that self plays: it checks the
// Setup, then that the game is not already on disk, and only then writes:
// the secret (drawn from entropy, crypto/rand if nil), then the log.
//
// The precise rule: Create refuses a game whose log holds a record or
// that was closed (a creator replaying an old game's Setup, or a game
// ID's second start), and it never replaces a secret. A secret already
// there beside a log with no record is kept: that game stopped before its
// first record, so it committed to nothing, and the same game is simply
// started again (a headless peer that died between creating a rematch's
// files and playing it). Resuming a game with records is Resume's, which
// writes no secret either.
func (d *Dir) Create(setup lockstep.Setup, self peer.ID, entropy io.Reader) (*Game, error) {
	if err := setup.Validate(); err != nil {
		return nil, fmt.Errorf("not saving game %q: %w", setup.Name, err)
	}
	if !slices.Contains(setup.Players(), self) {
		return nil, fmt.Errorf("not saving game %q: this player (%s) holds no seat in it", setup.Name, lockstep.ShortID(self))
	}
	gid := setup.GameID()
	logPath := d.LogPath(gid)
	if _, err := os.Stat(d.closedPath(gid)); err == nil {
		return nil, fmt.Errorf("game %s was played here before and closed (%s): %w; start a new game", gid, filepath.Base(d.closedPath(gid)), ErrExists)
	}
	if data, err := os.ReadFile(logPath); err == nil {
		recs, _, perr := parseLog(data)
		switch {
		case perr != nil:
			return nil, fmt.Errorf("game %s: its log %s is damaged: %w (move it away to start afresh)", gid, logPath, perr)
		case len(recs) > 0:
			return nil, fmt.Errorf("game %s: its log %s already holds %d records: %w; a game is never started twice, start a new one", gid, logPath, len(recs), ErrExists)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("game %s: reading its log: %w", gid, err)
	}
	g := &Game{Setup: setup}
	secret, err := readSecret(d.secretPath(gid))
	switch {
	case err == nil:
		g.Entropy = secret // see above: it committed to nothing
	case errors.Is(err, errNoSecret):
		if entropy == nil {
			entropy = rand.Reader
		}
		if _, err := io.ReadFull(entropy, g.Entropy[:]); err != nil {
			return nil, fmt.Errorf("drawing the dice entropy: %w", err)
		}
		if err := writeSecret(d.secretPath(gid), g.Entropy); err != nil {
			return nil, fmt.Errorf("game %s: %w (make %s writable, or choose another data directory)", gid, err, d.path)
		}
	default:
		return nil, fmt.Errorf("game %s: %w (move it away to start afresh)", gid, err)
	}
	l, recs, err := OpenLog(logPath)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		// Written to since the check above: another process plays it.
		l.Close()
		return nil, fmt.Errorf("game %s: its log %s was written meanwhile: %w", gid, logPath, ErrExists)
	}
	g.Log = l
	return g, nil
}

// Resume opens a saved game, as Find returned it, to play on: its log
// (torn tail cut) and the entropy Find read. It writes no secret.
func (d *Dir) Resume(s *Saved) (*Game, error) {
	if s.Over {
		return nil, fmt.Errorf("game %s is over: nothing to resume", s.Setup.GameID())
	}
	l, recs, err := OpenLog(s.Path)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		setup, err := lockstep.DecodeSetup(recs[0].Data)
		if err != nil || setup.GameID() != s.Setup.GameID() {
			l.Close()
			return nil, fmt.Errorf("game log %s changed since it was found (move it away to start afresh)", s.Path)
		}
	}
	return &Game{Setup: s.Setup, Entropy: s.Entropy, Log: l, Records: recs}, nil
}

// CreateLocal starts the log of a game alone with bots, named by its start
// time too. It has no secret and is never resumed.
func (d *Dir) CreateLocal(gid lockstep.GameID, at time.Time) (*Log, error) {
	return createLog(d.localLogPath(gid, at))
}

// CreateTaken starts the log of a running game this program takes a seat
// in (a newcomer's, lockstep's Take): named by the time it came, with
// fresh dice entropy written down beside it first (game-take-….secret,
// 0600, as a player's), so that a newcomer seated before a crash resumes
// its seat (Find). aeroplane verify checks it like a player's log.
func (d *Dir) CreateTaken(setup lockstep.Setup, at time.Time) (*Game, error) {
	if err := setup.Validate(); err != nil {
		return nil, fmt.Errorf("not saving game %q: %w", setup.Name, err)
	}
	g := &Game{Setup: setup}
	if _, err := io.ReadFull(rand.Reader, g.Entropy[:]); err != nil {
		return nil, fmt.Errorf("drawing the dice entropy: %w", err)
	}
	logPath := d.takeLogPath(setup.GameID(), at)
	if err := writeSecret(takeSecretPath(logPath), g.Entropy); err != nil {
		return nil, fmt.Errorf("game %s: %w (make %s writable, or choose another data directory)", setup.GameID(), err, d.path)
	}
	l, err := createLog(logPath)
	if err != nil {
		return nil, err
	}
	g.Log = l
	return g, nil
}

// CreateWatched starts the log of a game this program watches and plays
// no seat in (a spectator's, written as it verifies the game): named by
// the time the watching began, with no secret, never resumed and never
// read by Find. aeroplane verify checks it like a player's log.
func (d *Dir) CreateWatched(gid lockstep.GameID, at time.Time) (*Log, error) {
	return createLog(d.watchLogPath(gid, at))
}

// MarkClosed records that game gid is not to be resumed, and why ("over",
// "halted", "left on purpose").
func (d *Dir) MarkClosed(gid lockstep.GameID, why string) error {
	path := d.closedPath(gid)
	if err := writeFileSync(path, []byte(why+"\n"), os.O_TRUNC, 0o644); err != nil {
		return fmt.Errorf("marking game %s closed: %w", gid, err)
	}
	return syncDir(d.path)
}

// Closed reports whether game gid was marked closed.
func (d *Dir) Closed(gid lockstep.GameID) bool {
	_, err := os.Stat(d.closedPath(gid))
	return err == nil
}
