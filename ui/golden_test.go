package ui

import (
	"path/filepath"
	"strconv"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
)

func mustPos(t fataler, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// table4 seats a person at Red and three bots.
func table4(started bool) TableUpdate {
	t := TableUpdate{GameID: "solo", Host: true, Started: started}
	t.Seats[0] = Seat{Kind: SeatHuman, Name: "alice", PeerID: "12D3KooWabcdefXyZ123", You: true, Present: true, Ready: true}
	t.Seats[1] = Seat{Kind: SeatBot, Name: "random", Present: true, Ready: true}
	t.Seats[2] = Seat{Kind: SeatHuman, Name: "bob", PeerID: "12D3KooWqrstuvQ9x8y7", Present: true, Ready: true}
	t.Seats[3] = Seat{Kind: SeatBot, Name: "random", Present: true, Ready: true}
	return t
}

// gameUI is an interface in the middle of a game at the given position.
func gameUI(t fataler, pos string, rules engine.Rules) (*UI, *fakeSession) {
	f := newFake()
	u := New(f, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice"}})
	u.Apply(table4(true))
	p := mustPos(t, pos)
	u.Apply(GameStarted{Position: p, Rules: rules})
	return u, f
}

func render(t testing.TB, u *UI, w, h int) string {
	s := newSim(t, w, h)
	u.Draw(s, w, h)
	return screenText(s)
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func TestBoardGolden(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T) *UI
	}{
		{"start", func(t *testing.T) *UI {
			u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", engine.DefaultRules())
			u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
			return u
		}},
		{"choose", func(t *testing.T) *UI {
			// Red rolled 4: R0+R1 stack on 13 could jump, R2 in L, R3 taxi.
			u, _ := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -", engine.DefaultRules())
			u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
			u.Apply(Rolled{Colour: engine.Red, Roll: 4, Moves: []engine.Move{{Colour: engine.Red, Plane: 0}, {Colour: engine.Red, Plane: 2}, {Colour: engine.Red, Plane: 3}}, YouChoose: true})
			return u
		}},
		{"shortcut", func(t *testing.T) *UI {
			// Red's plane on 15 rolls 2: lands on 17 and takes the shortcut across Yellow's H3.
			u, _ := gameUI(t, "15,H,H,H/H,H,H,H/H,H,H,52/H,16,H,H R 0 -", engine.DefaultRules())
			u.Apply(Rolled{Colour: engine.Red, Roll: 2, Moves: []engine.Move{{Colour: engine.Red, Plane: 0}}, YouChoose: true})
			return u
		}},
		{"over", func(t *testing.T) *UI {
			u, _ := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
			u.Apply(GameOver{Ranking: []engine.Colour{engine.Red, engine.Green, engine.Blue, engine.Yellow}, LogPath: "/home/alice/.local/state/aeroplane/games/g1.log"})
			return u
		}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(c.name+"-"+itoa(size[0]), func(t *testing.T) {
				u := c.setup(t)
				got := render(t, u, size[0], size[1])
				checkGolden(t, c.name+"-"+itoa(size[0])+"x"+itoa(size[1]), got)
			})
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
