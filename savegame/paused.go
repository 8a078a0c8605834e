package savegame

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Paused lists the games self can continue another day, newest first:
// every game of self's in d that is unfinished, not halted, not marked
// closed, with a record in its log and its dice secret beside it,
// whatever its age (Find, the automatic resume after a crash, takes only
// those written within ResumeWithin). With lobby set, only that lobby's.
// A log it cannot use is skipped, and why is in the errors beside: a
// copy of another player's game ("not a game of ours"), a log whose
// content is another game than its name says (copied over), a damaged
// log, a missing secret. Saved.At is when each was last written.
//
// A seat self took as a newcomer (a game-take-….log) is listed as Find
// resumes it: only while its log's own account seats self in it
// (Saved.Take), with the secret beside that log; a take log of a seat
// never given, or taken from self again, or copied from another
// newcomer, is refused saying "holds no seat it took".
func (d *Dir) Paused(self peer.ID, lobby string) ([]*Saved, []error) {
	idLen := len(lockstep.GameID{}.String())
	paths, _ := filepath.Glob(filepath.Join(d.path, "game-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	taken, _ := filepath.Glob(filepath.Join(d.path, "game-take-*-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	paths = append(paths, taken...)
	out, skipped := continuable(paths, func(p string) (*Saved, error) { return d.load(p, Query{Self: self, Lobby: lobby}) },
		func(s *Saved, at time.Time) { s.At = at })
	// One game once: the newest log of it (a seat taken twice over).
	seen := map[lockstep.GameID]bool{}
	out = slices.DeleteFunc(out, func(s *Saved) bool {
		gid := s.Setup.GameID()
		dup := seen[gid]
		seen[gid] = true
		return dup
	})
	return out, skipped
}

// continuable loads every regular file of paths with load and stamps
// each game it keeps with the file's last write (when it was saved),
// newest first; a log load refuses is skipped and why is in the errors.
func continuable[S any](paths []string, load func(string) (*S, error), stamp func(*S, time.Time)) ([]*S, []error) {
	type dated struct {
		s  *S
		at time.Time
	}
	var kept []dated
	var skipped []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		s, err := load(p)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("not continuing %s: %w", filepath.Base(p), err))
			continue
		}
		if s != nil {
			stamp(s, st.ModTime())
			kept = append(kept, dated{s, st.ModTime()})
		}
	}
	slices.SortStableFunc(kept, func(a, b dated) int { return b.at.Compare(a.at) })
	out := make([]*S, len(kept))
	for i, k := range kept {
		out[i] = k.s
	}
	return out, skipped
}
