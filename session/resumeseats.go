package session

import (
	"slices"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// takenSeats are the seat changes among a saved game's seat owners
// (savegame.Saved.Seats, lockstep's Seats): the newcomers seated before
// its log stopped, in the order they were seated, only the last of each
// seat. A game taken up from its log (after a crash or another day)
// shows them in their seats, names them and counts them as members from
// the start, since a restored node tells no past event.
func takenSeats(seats []lockstep.SeatOwner) []lockstep.SeatOwner {
	var out []lockstep.SeatOwner
	for _, o := range seats {
		if o.From == 0 || o.Bot || o.Player == "" {
			continue
		}
		out = slices.DeleteFunc(out, func(x lockstep.SeatOwner) bool { return x.Colour == o.Colour })
		out = append(out, o)
	}
	return out
}

// seatName is how a seat's owner is named: this player by its own name,
// another by the name saved for it ("" if none: a short ID is shown).
func seatName(id, self peer.ID, selfName string, names map[peer.ID]string) string {
	if id == self {
		return selfName
	}
	return names[id]
}
