package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
)

// The lobby lists a saved game to continue after the running ones:
// "continue: ann, bob, cat — roll 143, saved Tuesday", and its number
// continues it.
func TestLobbyContinueGames(t *testing.T) {
	u, f := lobbyUI()
	u.Apply(LobbyUpdate{
		Me:       Peer{ID: "me", Name: "ann", Addr: "/ip4/10.0.0.1/tcp/4001"},
		Running:  []RunningGame{{Lobby: "zed 0001", Players: []string{"zed", "yan"}, Roll: 12, Leader: engine.Red}},
		Continue: []SavedGame{{Lobby: "tuesday 9c1e", Players: []string{"ann", "bob", "cat"}, Roll: 143, Saved: time.Date(2026, 12, 1, 21, 30, 0, 0, time.UTC)}},
	})
	scr := render(t, u, 80, 24)
	checkGolden(t, "lobby-continue-80x24", scr)
	if want := "2) continue: ann, bob, cat — roll 143, saved Tuesday (2026-12-01)"; !strings.Contains(scr, want) {
		t.Errorf("the lobby lacks %q:\n%s", want, scr)
	}
	for _, c := range []struct {
		key  rune
		want []string
	}{{'1', []string{"watch zed 0001"}}, {'2', []string{"continue tuesday 9c1e"}}, {'3', nil}} {
		u.HandleKey(ch(c.key))
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("key %c: %v, want %v", c.key, got, c.want)
		}
	}
}
