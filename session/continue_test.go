package session

import (
	"slices"
	"testing"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
)

// A saved game is offered to continue only while another of its players
// is on the LAN, with its people, roll and save time; Continue refuses a
// lobby it has no saved game of, saying so. A game this player played
// alone against bots needs nobody else: it is offered always.
func TestContinuableGames(t *testing.T) {
	recs, v := finishedLog(t)
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	players := setup.Players()
	dir, err := savegame.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 21, 30, 0, 0, time.UTC)
	solo := setup
	solo.Name, solo.Seats = "solo", slices.Clone(setup.Seats)
	for i := range solo.Seats {
		if solo.Seats[i].Player != players[0] {
			solo.Seats[i] = lockstep.Seat{Colour: solo.Seats[i].Colour, Bot: "greedy"}
		}
	}
	s := &NetSession{dir: dir, self: players[0], name: "ann",
		paused: []*savegame.Saved{{Setup: setup, Rolls: v.Rolls, At: at, Players: players}, {Setup: solo, Rolls: 12, At: at, Players: players[:1]}}}
	for _, c := range []struct {
		name string
		ads  []p2p.Advert
		want int
	}{
		{"nobody on the LAN", nil, 0},
		{"only this player", []p2p.Advert{{ID: players[0]}}, 0},
		{"a stranger", []p2p.Advert{{ID: "12D3KooWGAGoAbSHgEbLM9FhfSF2dVoFjFbBNM163LtG1zxf7Ymh"}}, 0},
		{"another of its players", []p2p.Advert{{ID: players[1]}}, 1},
	} {
		got := s.continuable(c.ads)
		if len(got) != c.want+1 || got[len(got)-1].Lobby != "solo" || len(got[len(got)-1].Players) != 1 {
			t.Fatalf("%s: offered %+v, want %d and the solo game", c.name, got, c.want)
		}
		if c.want == 1 {
			g := got[0]
			if g.Lobby != setup.Name || g.Roll != v.Rolls || !g.Saved.Equal(at) || len(g.Players) != len(players) || g.Players[0] != "ann" {
				t.Errorf("%s: offered %+v", c.name, g)
			}
		}
	}
	if err := s.Continue("no such lobby"); err == nil {
		t.Error("Continue of a lobby with no saved game: no error")
	}
}
