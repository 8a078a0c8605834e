package session

import (
	"slices"

	"aeroplane/lockstep"
	"aeroplane/ui"
)

// rollbackPresence shows back every player shown absent whom the state
// after a rollback no longer counts absent: this node had gone on alone
// with that player's seat flown, and the votes held settled the steps
// without its absence (a web player whose serving laptop died with the
// laptop's own player, back through another program: seatmove.go).
// lockstep says nothing more of it (no EventReturned: in the agreed
// history it never left).
func (t *Translator) rollbackPresence(st lockstep.State) []ui.Event {
	var out []ui.Event
	for _, seat := range t.setup.Seats {
		c := seat.Colour
		if seat.Player == "" || !t.away[c] || slices.Contains(st.Absent, seat.Player) {
			continue
		}
		t.away[c], t.flown[c] = false, false
		out = append(out, ui.Presence{Colour: c, Name: t.name(seat.Player), Present: true})
	}
	return out
}
