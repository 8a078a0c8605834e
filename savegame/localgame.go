package savegame

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// An offline game (every player at this program, with bots) keeps its
// log, game-DATE-TIME-ID.log (the first seat's node's: its nodes share one
// in-process network, so it holds every seat's messages and is the one
// verify and replay read), and beside it each person's dice secret,
// game-DATE-TIME-ID-seat-PEER.secret (0600), each other person's node's
// own log, seat-DATE-TIME-ID-PEER.log (not a game-*.log: it is that
// node's account, which it is restored from), and the players' names,
// game-DATE-TIME-ID.names. With these it can be continued another day
// (PausedLocal, then Resume and OpenLocalSeatLog). Find never reads it (the automatic resume
// after a crash is the LAN's), so the one-hour limit does not apply.

// LocalSaved is an offline game PausedLocal found.
type LocalSaved struct {
	Saved
	// Secrets are the dice secrets of the game's players by seat ID.
	Secrets map[peer.ID][32]byte
	// Names are its players' names as they were saved.
	Names map[peer.ID]string
}

// localSecretPath names the dice secret of seat beside an offline log.
func localSecretPath(logPath string, seat peer.ID) string {
	return strings.TrimSuffix(logPath, ".log") + "-seat-" + seat.String() + ".secret"
}

// LocalSeatLogPath names the log of seat's node beside the offline game
// log logPath (a person's but the first player's).
func LocalSeatLogPath(logPath string, seat peer.ID) string {
	base := strings.TrimPrefix(strings.TrimSuffix(filepath.Base(logPath), ".log"), "game-")
	return filepath.Join(filepath.Dir(logPath), "seat-"+base+"-"+seat.String()+".log")
}

// OpenLocalSeatLog opens (or starts) the log of seat's node beside the
// offline game log logPath, with the records already in it.
func OpenLocalSeatLog(logPath string, seat peer.ID) (*Log, []lockstep.Record, error) {
	return OpenLog(LocalSeatLogPath(logPath, seat))
}

// CreateLocalGame starts the files of a new offline game that can be
// continued: the dice secret of each of setup's players (secrets, one
// per player), then its log, named by at. A player missing from secrets
// or a seat ID that is not a plain file name is refused before anything
// is written.
func (d *Dir) CreateLocalGame(setup lockstep.Setup, at time.Time, secrets map[peer.ID][32]byte) (*Log, error) {
	players := setup.Players()
	for _, id := range players {
		if err := checkSeat(setup, id); err != nil {
			return nil, err
		}
		if _, ok := secrets[id]; !ok {
			return nil, fmt.Errorf("not saving game %q: no dice secret for seat %s", setup.Name, lockstep.ShortID(id))
		}
	}
	logPath := d.localLogPath(setup.GameID(), at)
	for _, id := range players {
		if err := writeSecret(localSecretPath(logPath, id), secrets[id]); err != nil {
			return nil, fmt.Errorf("game %s: %w (make %s writable, or choose another data directory)", setup.GameID(), err, d.path)
		}
	}
	return createLog(logPath)
}

// PausedLocal lists the offline games self can continue, newest first:
// every game-DATE-TIME-ID.log in d that self plays, unfinished, not
// halted, not marked closed, with a record and every player's secret
// beside it, whatever its age. A log it cannot use is skipped and why is
// in the errors beside: another player's game (ErrNotMine), a log whose
// content is another game than its name says, a damaged log, a missing
// secret (a game from before offline games could be continued).
func (d *Dir) PausedLocal(self peer.ID) ([]*LocalSaved, []error) {
	idLen := len(lockstep.GameID{}.String())
	digits := func(n int) string { return strings.Repeat("[0-9]", n) }
	paths, _ := filepath.Glob(filepath.Join(d.path, "game-"+digits(8)+"-"+digits(6)+"-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	return continuable(paths, func(p string) (*LocalSaved, error) { return d.loadLocal(p, self) },
		func(s *LocalSaved, at time.Time) { s.At = at })
}

// loadLocal reads one offline log: nil when there is nothing to continue.
func (d *Dir) loadLocal(logPath string, self peer.ID) (*LocalSaved, error) {
	recs, setup, err := readGame(logPath)
	if err != nil || recs == nil {
		return nil, err
	}
	gid := setup.GameID()
	switch {
	case !strings.HasSuffix(strings.TrimSuffix(filepath.Base(logPath), ".log"), "-"+gid.String()):
		return nil, fmt.Errorf("it holds game %s, not the one its name says", gid)
	case d.Closed(gid):
		return nil, nil
	case !slices.Contains(setup.Players(), self):
		return nil, ErrNotMine
	}
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		return nil, err
	}
	if v.Phase == lockstep.PhaseHalted || v.Phase == lockstep.PhaseOver {
		return nil, nil
	}
	s := &LocalSaved{Saved: Saved{Setup: setup, Path: logPath, Rolls: v.Rolls, Paused: v.Paused, PausedAt: v.PausedAt}, Secrets: map[peer.ID][32]byte{}}
	for _, id := range setup.Players() {
		sec, err := readSecret(localSecretPath(logPath, id))
		if err != nil {
			return nil, err
		}
		s.Secrets[id] = sec
	}
	s.Entropy = s.Secrets[self]
	for _, id := range setup.Players() {
		if id == self {
			continue
		}
		if _, err := os.Stat(LocalSeatLogPath(logPath, id)); err != nil {
			return nil, fmt.Errorf("the log of seat %s is missing: %w", lockstep.ShortID(id), err)
		}
	}
	s.Names = map[peer.ID]string{}
	if f, err := os.Open(strings.TrimSuffix(logPath, ".log") + ".names"); err == nil {
		s.Names = ParseNames(io.LimitReader(f, maxNamesFile))
		f.Close()
	}
	return s, nil
}
