package session

import (
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ReplayOf is a verified game log as the interface replays it (ui.Replay):
// the table its Setup fixed, with the players' names (names, else short
// IDs), and every roll, move, absence, leave, cheat, halt and the end, as
// an observer saw them. records must be the log's (lockstep.Verify
// accepted them); v is that verification.
func ReplayOf(v *lockstep.Verification, names map[peer.ID]string) ui.Replay {
	r := ui.Replay{Table: tableOf(v.Setup, names, "")}
	obs := NewTranslator(v.Setup, "", names, "")
	for _, e := range obs.Translate(v.Events, lockstep.State{}) {
		switch e.(type) {
		case ui.GameStarted, ui.Rolled, ui.Moved, ui.Presence, ui.Left, ui.CheatDetected, ui.Notice, ui.GameOver:
			r.Events = append(r.Events, e)
		}
	}
	return r
}
