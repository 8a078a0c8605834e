package netsession

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Resuming a game after a crash. Every game keeps its log (game-ID.log)
// and this player's dice secret (game-ID.secret) in the data directory; a
// game whose log is not over when the program starts again was cut short
// by a crash (a kill, a power cut): the program takes its seat back at
// once, as `aeroplane headless` does, and lockstep catches it up (and
// fetches back what the crash took from the log, lockstep/recover.go).
// A game that ended, or that the player left on purpose (quitting the
// program while it is on), is marked game-ID.closed, so it is not
// resumed, and its log need not be read at the next start; neither is a
// game whose log has not been written to for resumeWithin, whose players
// have long gone. The search runs beside the lobby, so a data directory
// full of games never delays the start.

// resumeWithin is how recent an interrupted game's log must be to resume.
const resumeWithin = time.Hour

// interrupted is a game to resume.
type interrupted struct {
	setup   lockstep.Setup
	entropy [32]byte
	logPath string
	rolls   uint64 // rolls its log had agreed when it stopped
}

// findInterrupted returns the newest game in dir that self plays, whose
// log is not over, not left on purpose and written to within resumeWithin
// of now, or nil. Logs it cannot use are skipped, and said so in the
// error list it returns beside (for the log file; they never stop a start).
func findInterrupted(dir string, self peer.ID, now time.Time) (*interrupted, []error) {
	// LAN games only: game-ID.log beside game-ID.secret (a game alone
	// with bots, LocalSession's, is named game-DATE-TIME-ID.log and has
	// no secret to resume with).
	idLen := len(lockstep.GameID{}.String())
	paths, _ := filepath.Glob(filepath.Join(dir, "game-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	type cand struct {
		path string
		mod  time.Time
	}
	var cands []cand
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && now.Sub(st.ModTime()) <= resumeWithin {
			cands = append(cands, cand{p, st.ModTime()})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return b.mod.Compare(a.mod) })
	var skipped []error
	for _, c := range cands {
		g, err := loadInterrupted(c.path, self)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("not resuming %s: %w", filepath.Base(c.path), err))
			continue
		}
		if g != nil {
			return g, skipped
		}
	}
	return nil, skipped
}

var errNotMine = errors.New("not a game of ours")

// loadInterrupted reads one game log: nil when it is over or closed.
func loadInterrupted(logPath string, self peer.ID) (*interrupted, error) {
	base := strings.TrimSuffix(logPath, ".log")
	if _, err := os.Stat(base + ".closed"); err == nil {
		return nil, nil
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		return nil, err
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil && !errors.Is(err, lockstep.ErrTornTail) {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, nil // stopped before its first record: nothing was sent
	}
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(setup.Players(), self) {
		return nil, errNotMine
	}
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		return nil, err
	}
	if v.Phase == lockstep.PhaseOver || v.Phase == lockstep.PhaseHalted {
		return nil, nil
	}
	secret, err := os.ReadFile(base + ".secret")
	if err != nil || len(secret) != 32 {
		return nil, fmt.Errorf("its dice secret %s is missing or damaged", filepath.Base(base)+".secret")
	}
	g := &interrupted{setup: setup, logPath: logPath, rolls: v.Rolls}
	copy(g.entropy[:], secret)
	return g, nil
}

// markClosed records that game gid is not to be resumed, and why ("over",
// "left on purpose").
func markClosed(dir, gid, why string) error {
	return os.WriteFile(filepath.Join(dir, "game-"+gid+".closed"), []byte(why+"\n"), 0o644)
}
