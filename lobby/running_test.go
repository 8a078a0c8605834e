package lobby

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/p2ptest"
	"aeroplane/lockstep"
)

// A player's word about its running game goes through the lobby parser
// and back unchanged, and the answer is told from a table's.
func TestRunningRoundTrip(t *testing.T) {
	id := p2ptest.RandomID(t)
	var gid lockstep.GameID
	for i := range gid {
		gid[i] = byte(i)
	}
	r := Running{Lobby: "friday", Name: "ann", Game: gid, Roll: 143, Leader: engine.Yellow, Watchers: 3, Chat: true,
		Players: []RunningSeat{{ID: id, Name: "ann", Colour: engine.Red}},
		Bots:    []RunningSeat{{Name: "greedy", Colour: engine.Blue}}}
	info, got, err := decodeAnswer(EncodeRunning(r))
	if err != nil || info != nil || got == nil || !reflect.DeepEqual(*got, r) {
		t.Fatalf("decoded %+v %+v %v, want %+v", info, got, err, r)
	}
	none := r
	none.Leader, none.Watchers, none.Chat, none.Roll = engine.NoColour, 0, false, 0
	if _, got, err := decodeAnswer(EncodeRunning(none)); err != nil || !reflect.DeepEqual(*got, none) {
		t.Fatalf("no leader yet: %+v %v", got, err)
	}
	table := encodeLobbyMsg(lobbyMsg{T: lobbyInfo, Lobby: "friday", Name: "ann", Free: 1, Taken: 1})
	if info, run, err := decodeAnswer(table); err != nil || info == nil || run != nil {
		t.Fatalf("a table's info: %+v %+v %v", info, run, err)
	}
}

func TestRunningRejects(t *testing.T) {
	id := p2ptest.RandomID(t).String()
	gid := strings.Repeat("ab", 32)
	p := `"p":[{"id":"` + id + `","n":"a"}]`
	cases := map[string]string{
		"no game":         `{"t":"running","l":"g",` + p + `}`,
		"short game":      `{"t":"running","l":"g","g":"abcd",` + p + `}`,
		"game not hex":    `{"t":"running","l":"g","g":"` + strings.Repeat("zz", 32) + `",` + p + `}`,
		"leader range":    `{"t":"running","l":"g","g":"` + gid + `","ld":5,` + p + `}`,
		"watchers":        `{"t":"running","l":"g","g":"` + gid + `","wa":-1,` + p + `}`,
		"free seats":      `{"t":"running","l":"g","g":"` + gid + `","f":1,` + p + `}`,
		"no players":      `{"t":"running","l":"g","g":"` + gid + `"}`,
		"game in info":    `{"t":"info","l":"g","g":"` + gid + `"}`,
		"roll in join":    `{"t":"join","l":"g","ro":3}`,
		"watchers in ros": `{"t":"roster","l":"g","wa":2,` + p + `}`,
		"quiet in roster": `{"t":"roster","l":"g","q":true,` + p + `}`,
	}
	for name, in := range cases {
		if _, err := decodeLobbyMsg([]byte(in)); !errors.Is(err, errLobbyMsg) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
