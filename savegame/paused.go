package savegame

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
func (d *Dir) Paused(self peer.ID, lobby string) ([]*Saved, []error) {
	idLen := len(lockstep.GameID{}.String())
	paths, _ := filepath.Glob(filepath.Join(d.path, "game-"+strings.Repeat("[0-9a-f]", idLen)+".log"))
	var out []*Saved
	var skipped []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		s, err := d.load(p, Query{Self: self, Lobby: lobby})
		if err != nil {
			skipped = append(skipped, fmt.Errorf("not continuing %s: %w", filepath.Base(p), err))
			continue
		}
		if s != nil {
			s.At = st.ModTime()
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *Saved) int { return b.At.Compare(a.At) })
	return out, skipped
}
