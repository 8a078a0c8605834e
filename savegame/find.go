package savegame

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ResumeWithin is how recent a game's log must be to resume it: after
// that its players have long gone.
const ResumeWithin = time.Hour

// Saved is a game found on disk (Find).
type Saved struct {
	Setup   lockstep.Setup
	Entropy [32]byte // this player's dice secret (zero for a game that is over)
	Path    string   // its log
	Rolls   uint64   // rolls its log had agreed when it stopped
	// Over: the game ended (only with Query.Over); History is what it
	// ended on, from which headless derives the rematch.
	Over    bool
	History [32]byte
	// At is when its log was last written (Paused).
	At time.Time
	// Paused: its players paused it together (lockstep's Pause) at roll
	// PausedAt. It is continued by choice (Paused lists it), never
	// resumed by itself.
	Paused   bool
	PausedAt uint64
	// Take is the seat this player took as a newcomer (lockstep's Take)
	// and was seated in before the log stopped; nil for a seat of the
	// Setup. Its log is a game-take-….log, its secret beside it.
	Take *lockstep.Take
	// Players are the people who held a seat when the log stopped, in
	// the order of lockstep's Seats: the Setup's players who did not
	// leave, each newcomer seated (Take) in place of the seat's earlier
	// owner. They are whom a continued game expects back.
	Players []peer.ID
	// Seats are who flew each seat from which roll (lockstep's Seats),
	// the newcomers seated among them (From > 0).
	Seats []lockstep.SeatOwner
}

// AtRoll is the roll a lobby entry names the game by: where it was
// paused, as the players' screens and `aeroplane verify` said when it
// was; for a game every player left unfinished, the rolls it had agreed.
func (s *Saved) AtRoll() uint64 {
	if s.Paused {
		return s.PausedAt
	}
	return s.Rolls
}

// Members are everyone who may speak in the game when it is taken up:
// the Setup's players and the newcomers seated since (Players).
func (s *Saved) Members() []peer.ID {
	out := s.Setup.Players()
	for _, id := range s.Players {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// holders are the people flying a seat at the end of a verified log
// (Saved.Players): each seat's last owner, unless a bot or gone for good.
func holders(v *lockstep.Verification) []peer.ID {
	left := map[peer.ID]bool{}
	for _, e := range v.Events {
		if e.Kind == lockstep.EventLeft {
			left[e.Peer] = true
		}
	}
	last := map[engine.Colour]lockstep.SeatOwner{}
	var order []engine.Colour
	for _, o := range v.Seats {
		if _, ok := last[o.Colour]; !ok {
			order = append(order, o.Colour)
		}
		last[o.Colour] = o // later owners come later
	}
	var out []peer.ID
	for _, c := range order {
		if o := last[c]; !o.Bot && o.Player != "" && !left[o.Player] && !slices.Contains(out, o.Player) {
			out = append(out, o.Player)
		}
	}
	return out
}

// Query says which game Find looks for.
type Query struct {
	Self peer.ID   // a game this player holds a seat in
	Now  time.Time // its log written to within ResumeWithin of Now
	// Lobby, if not empty, is the only lobby name (Setup.Name) wanted.
	Lobby string
	// Over also takes a game that ended but was not marked closed, as the
	// newest game (headless: the process stopped between two games of a
	// --games run). Without it such a game is passed over.
	Over bool
}

// ErrNotMine is wrapped by the reason a log of another player's game is
// skipped.
var ErrNotMine = errors.New("not a game of ours")

// Find returns the game to resume: the newest game in d (by the time its
// log was last written) that q.Self plays, not marked closed, with a
// record in its log, written to within ResumeWithin, not halted, not
// paused together (its players chose to continue it another day: Paused
// lists it), and not over (unless q.Over), or nil. Logs it cannot use are
// skipped, and why is in the error list it returns beside (for the
// diagnostics log: they never stop a start). It only reads: a torn tail is cut when the game
// is resumed (Resume).
func (d *Dir) Find(q Query) (*Saved, []error) {
	// LAN games only: game-ID.log, and a seat taken as a newcomer,
	// game-take-DATE-TIME-ID.log (a game alone with bots is named
	// game-DATE-TIME-ID.log and has no secret to resume with).
	idLen := len(lockstep.GameID{}.String())
	paths, _ := filepath.Glob(filepath.Join(d.path, "game-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	taken, _ := filepath.Glob(filepath.Join(d.path, "game-take-*-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	paths = append(paths, taken...)
	type cand struct {
		path string
		mod  time.Time
	}
	var cands []cand
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && q.Now.Sub(st.ModTime()) <= ResumeWithin {
			cands = append(cands, cand{p, st.ModTime()})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return b.mod.Compare(a.mod) })
	var skipped []error
	for _, c := range cands {
		s, err := d.load(c.path, q)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("not resuming %s: %w", filepath.Base(c.path), err))
			continue
		}
		if s != nil && !s.Paused {
			return s, skipped
		}
	}
	return nil, skipped
}

// load reads one game log: nil when it is not wanted.
func (d *Dir) load(logPath string, q Query) (*Saved, error) {
	name := strings.TrimSuffix(filepath.Base(logPath), ".log")
	if _, err := os.Stat(filepath.Join(d.path, name+".closed")); err == nil {
		return nil, nil
	}
	recs, setup, err := readGame(logPath)
	if err != nil || recs == nil {
		return nil, err
	}
	gid := setup.GameID()
	take := isTakeLog(logPath)
	switch {
	case take && !strings.HasSuffix(name, "-"+gid.String()):
		return nil, fmt.Errorf("it holds game %s, not the one its name says", gid)
	case take && d.Closed(gid):
		return nil, nil
	case !take && d.LogPath(gid) != logPath:
		return nil, fmt.Errorf("it holds game %s, not the one its name says", gid)
	case !take && !slices.Contains(setup.Players(), q.Self):
		return nil, ErrNotMine
	}
	if q.Lobby != "" && setup.Name != q.Lobby {
		return nil, nil
	}
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		return nil, err
	}
	s := &Saved{Setup: setup, Path: logPath, Rolls: v.Rolls, Paused: v.Paused, PausedAt: v.PausedAt, Players: holders(v), Seats: v.Seats}
	switch {
	case v.Phase == lockstep.PhaseHalted:
		return nil, nil
	case v.Phase == lockstep.PhaseOver && !q.Over:
		return nil, nil
	case v.Phase == lockstep.PhaseOver:
		s.Over, s.History = true, v.History
		return s, nil
	}
	secret := d.secretPath(gid)
	if take {
		// A newcomer resumes only a seat it was given: its own (the
		// last newcomer in it) by the log's own account.
		for _, o := range v.Seats {
			if o.Player == q.Self && o.From > 0 {
				s.Take = &lockstep.Take{Colour: o.Colour}
			} else if s.Take != nil && o.Colour == s.Take.Colour {
				s.Take = nil // taken from us again
			}
		}
		if s.Take == nil {
			return nil, fmt.Errorf("%w: this player holds no seat it took in it", ErrNotMine)
		}
		secret = takeSecretPath(logPath)
	}
	if s.Entropy, err = readSecret(secret); err != nil {
		return nil, err
	}
	return s, nil
}

// readGame reads a game log's records and its Setup; no records and no
// error for a log stopped before its first record (nothing was sent).
func readGame(logPath string) ([]lockstep.Record, lockstep.Setup, error) {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return nil, lockstep.Setup{}, err
	}
	recs, _, err := parseLog(data)
	if err != nil || len(recs) == 0 {
		return nil, lockstep.Setup{}, err
	}
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		return nil, lockstep.Setup{}, err
	}
	return recs, setup, nil
}
