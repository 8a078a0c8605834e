package ui

import (
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
)

// TestGameReopenedLeavesTheEnd: an end this player reached alone and
// that a roll-back undid (the others, a majority, played on without it)
// closes the game-over box and gives the board back: the game goes on,
// and the next roll of this player's is asked and taken. Without
// GameReopened, later rolls and waits leave the end shown.
func TestGameReopenedLeavesTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []Event
		over   bool
		calls  []string
	}{
		{"the end stays without a reopen", []Event{
			DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}}, true, nil},
		{"a reopen gives the game back", []Event{GameReopened{},
			DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}}, false, []string{"roll"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, f := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
			u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
			for _, e := range tc.events {
				u.Apply(e)
			}
			u.HandleKey(ch(' '))
			if (u.over != nil) != tc.over || (u.overlay == overlayEnd) != tc.over || u.inGame() == tc.over {
				t.Fatalf("over %v, overlay %d, in game %v; want over %v", u.over, u.overlay, u.inGame(), tc.over)
			}
			if got := f.took(); !reflect.DeepEqual(got, tc.calls) {
				t.Errorf("commands %q, want %q", got, tc.calls)
			}
			got := render(t, u, 80, 24)
			if offered := strings.Contains(got, "space roll"); offered == tc.over {
				t.Errorf("the roll key offered %v, want %v:\n%s", offered, !tc.over, got)
			}
			if said := strings.Contains(strings.Join(u.events, "\n"), "The end was undone"); said == tc.over {
				t.Errorf("the undone end said %v, want %v", said, !tc.over)
			}
		})
	}
}
