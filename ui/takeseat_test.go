package ui

import (
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"

	"github.com/gdamore/tcell/v2"
)

// In the lobby, s asks for the number of a running game (as the list
// numbers it, after the tables) and, if the person likes, a colour by
// name or letter; the session is asked for that seat, or for the first
// free one. A number that is no running game, or a word that is no
// colour, asks nothing and says what to type. Without a running game
// with a seat a bot flies, s does nothing.
func TestTakeSeatKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		typed string
		want  []string
		note  string
	}{
		{"the first free seat", "2", []string{"take friday 3f2a none"}, ""},
		{"a colour by name", "2 blue", []string{"take friday 3f2a Blue"}, ""},
		{"a colour by letter", "3 G", []string{"take zed 0001 Green"}, ""},
		{"a table's number", "1", nil, `No running game "1"`},
		{"past the list", "4", nil, `No running game "4"`},
		{"not a colour", "2 purple", nil, `No running game "2 purple"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, f := runningLobbyUI()
			u.lobby.Running[0].Free, u.lobby.Running[1].Free = 1, 2
			u.HandleKey(ch('j'))
			if tc.name == "the first free seat" {
				checkGolden(t, "lobby-takeseat-80x24", render(t, u, 80, 24))
			}
			typeText(u, tc.typed)
			u.HandleKey(key(tcell.KeyEnter))
			if got := f.took(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("typed %q: %v, want %v", tc.typed, got, tc.want)
			}
			if !strings.Contains(u.notice, tc.note) || (tc.note == "") != (u.notice == "") {
				t.Errorf("typed %q: notice %q, want %q", tc.typed, u.notice, tc.note)
			}
		})
	}
	u, f := runningLobbyUI()
	u.HandleKey(ch('j'))
	if u.input != inputNone || len(f.took()) != 0 {
		t.Errorf("j without a free seat listed: input %d, calls %v", u.input, f.took())
	}
}

// While watching a game still played, j asks for a seat in it (the
// first a bot flies); not once the watched game is over, and not on a
// player's own screen.
func TestTakeSeatWhileWatching(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    *Watching
		want []string
	}{
		{"watching", &Watching{Lobby: "friday 3f2a", From: "ann", Records: 40, Roll: 12}, []string{"take friday 3f2a none"}},
		{"watched to the end", &Watching{Lobby: "friday 3f2a", Over: true}, nil},
		{"a player's screen", nil, nil},
	} {
		u, f := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H B 0 -", engine.DefaultRules())
		if tc.w != nil {
			u.Apply(*tc.w)
		}
		u.HandleKey(ch('j'))
		if got := f.took(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: j: %v, want %v", tc.name, got, tc.want)
		}
	}
}
