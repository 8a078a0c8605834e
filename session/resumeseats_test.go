package session

import (
	"slices"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A game taken up from its log shows the newcomers its log seats: the
// seat changes are the last newcomer of each seat, in the order seated,
// and the translator counts that seat a person's (no longer paced as a
// bot's) and the newcomer's colour as its own.
func TestTakenSeatsResumed(t *testing.T) {
	ann, carol, zoe := testkit.ID(1), testkit.ID(4), testkit.ID(5)
	seats := []lockstep.SeatOwner{
		{Colour: engine.Red, Player: ann},
		{Colour: engine.Blue, Bot: true},
		{Colour: engine.Green, Bot: true},
		{Colour: engine.Blue, Player: carol, From: 30},
		{Colour: engine.Green, Player: carol, From: 50}, // never both: the last of a seat counts
		{Colour: engine.Green, Player: zoe, From: 70},
	}
	got := takenSeats(seats)
	want := []lockstep.SeatOwner{seats[3], seats[5]}
	if !slices.Equal(got, want) {
		t.Fatalf("takenSeats %v, want %v", got, want)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "t", Rules: engine.DefaultRules(), Seats: []lockstep.Seat{
		{Colour: engine.Red, Player: ann}, {Colour: engine.Blue, Bot: "random"}, {Colour: engine.Green, Bot: "random"}}}
	tr := NewTranslator(setup, carol, nil, "")
	for _, o := range got {
		tr.SetName(o.Player, seatName(o.Player, carol, "carol", map[peer.ID]string{zoe: "zoe"}))
		tr.SeatTaken(o.Colour, o.Player)
	}
	if f := tr.BotFlown(); f[engine.Blue] || f[engine.Green] {
		t.Errorf("the seats taken are still paced as bots': %v", f)
	}
	if tr.ColourOf(carol) != engine.Blue || tr.ColourOf(zoe) != engine.Green || tr.name(zoe) != "zoe" || tr.name(carol) != "carol" {
		t.Errorf("colours %s %s, names %q %q", tr.ColourOf(carol), tr.ColourOf(zoe), tr.name(carol), tr.name(zoe))
	}
	table := tableOf(setup, nil, carol)
	for _, o := range got {
		table = tableTaken(table, lockstep.Event{Colour: o.Colour, Peer: o.Player}, seatName(o.Player, carol, "carol", map[peer.ID]string{zoe: "zoe"}), carol)
	}
	if s := table.Seats[engine.Blue]; s.Kind != ui.SeatHuman || !s.You || s.Name != "carol" {
		t.Errorf("carol's seat shows as %+v", s)
	}
}
