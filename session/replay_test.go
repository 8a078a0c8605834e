package session

import (
	"os"
	"testing"

	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A real game's log becomes a replay with one Moved per roll the log
// verifies, its seats named from the names given (short IDs otherwise),
// starting with the first board and ending with the game's end.
func TestReplayOfRealLog(t *testing.T) {
	data, err := os.ReadFile("../lockstep/testdata/game.log")
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatal(err)
	}
	players := v.Setup.Players()
	r := ReplayOf(v, map[peer.ID]string{players[0]: "Mei"})
	moved := 0
	for _, e := range r.Events {
		if _, ok := e.(ui.Moved); ok {
			moved++
		}
	}
	if uint64(moved) != v.Rolls {
		t.Errorf("%d moves in the replay, the log verifies %d rolls", moved, v.Rolls)
	}
	if _, ok := r.Events[0].(ui.GameStarted); !ok {
		t.Errorf("the replay starts with %T", r.Events[0])
	}
	if _, ok := r.Events[len(r.Events)-1].(ui.GameOver); !ok {
		t.Errorf("the replay ends with %T", r.Events[len(r.Events)-1])
	}
	names := map[string]bool{}
	for _, s := range r.Table.Seats {
		names[s.Name] = true
		if s.You {
			t.Errorf("a replay has no \"you\": %+v", s)
		}
	}
	if !names["Mei"] || !names[shortID(players[1])] || !r.Table.Started || r.Table.GameID != v.Setup.Name {
		t.Errorf("table %+v: want Mei, the other by short ID, the game's name", r.Table)
	}
}
