package savegame

import (
	"slices"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The players a continued game expects back are each seat's last owner
// when the log stopped: a newcomer in place of the bot or of the player
// who left the seat, never a bot, nor a player gone for good whose seat
// a bot flies; a newcomer who left in turn is not expected either.
func TestHolders(t *testing.T) {
	ann, bob, dave, carol, zoe := testkit.ID(1), testkit.ID(2), testkit.ID(3), testkit.ID(4), testkit.ID(5)
	setup := []lockstep.SeatOwner{
		{Colour: engine.Red, Player: ann},
		{Colour: engine.Blue, Player: bob},
		{Colour: engine.Yellow, Player: dave},
		{Colour: engine.Green, Bot: true},
	}
	left := func(ids ...peer.ID) []lockstep.Event {
		var evs []lockstep.Event
		for _, id := range ids {
			evs = append(evs, lockstep.Event{Kind: lockstep.EventLeft, Peer: id})
		}
		return evs
	}
	for _, c := range []struct {
		name   string
		seats  []lockstep.SeatOwner
		events []lockstep.Event
		want   []peer.ID
	}{
		{"the setup's players", setup, nil, []peer.ID{ann, bob, dave}},
		{"a player who left", setup, left(dave), []peer.ID{ann, bob}},
		{"a newcomer in the bot's seat", append(slices.Clone(setup), lockstep.SeatOwner{Colour: engine.Green, Player: carol, From: 40}), nil, []peer.ID{ann, bob, dave, carol}},
		{"a newcomer in a left player's seat", append(slices.Clone(setup), lockstep.SeatOwner{Colour: engine.Yellow, Player: carol, From: 40}), left(dave), []peer.ID{ann, bob, carol}},
		{"a newcomer who left, its seat taken by another", append(slices.Clone(setup),
			lockstep.SeatOwner{Colour: engine.Green, Player: carol, From: 40},
			lockstep.SeatOwner{Colour: engine.Green, Player: zoe, From: 90}), left(carol), []peer.ID{ann, bob, dave, zoe}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := holders(&lockstep.Verification{Seats: c.seats, Events: c.events}); !slices.Equal(got, c.want) {
				t.Errorf("holders %v, want %v", got, c.want)
			}
		})
	}
}
