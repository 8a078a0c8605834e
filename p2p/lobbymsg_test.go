package p2p

import (
	"errors"
	"reflect"
	"testing"
)

func TestLobbyMsgRoundTrip(t *testing.T) {
	id := testID(t).String()
	cases := []lobbyMsg{
		{T: lobbyJoin, Lobby: "g", Name: "Ada", Addrs: []string{"/ip4/10.213.0.2/tcp/1"}},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Free: 2},
		{T: lobbyStart, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Setup: []byte{1, 2, 3}},
		{T: lobbyFull, Lobby: "g"},
	}
	for _, m := range cases {
		got, err := decodeLobbyMsg(encodeLobbyMsg(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%s: got %+v, %v", m.T, got, err)
		}
	}
}

func TestLobbyMsgRejects(t *testing.T) {
	id := testID(t).String()
	cases := map[string]string{
		"not json":       `{`,
		"type":           `{"t":"hack","l":"g"}`,
		"no lobby":       `{"t":"join","l":""}`,
		"control":        `{"t":"join","l":"g\u0007"}`,
		"bad addr":       `{"t":"join","l":"g","a":["nope"]}`,
		"bad id":         `{"t":"roster","l":"g","p":[{"id":"x","n":"a"}]}`,
		"dup id":         `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"},{"id":"` + id + `","n":"b"}]}`,
		"free":           `{"t":"roster","l":"g","f":9,"p":[{"id":"` + id + `","n":"a"}]}`,
		"start no setup": `{"t":"start","l":"g","p":[{"id":"` + id + `","n":"a"}]}`,
		"setup in join":  `{"t":"join","l":"g","s":"AQ=="}`,
	}
	for name, in := range cases {
		if _, err := decodeLobbyMsg([]byte(in)); !errors.Is(err, errLobbyMsg) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzDecodeLobbyMsg(f *testing.F) {
	f.Add(encodeLobbyMsg(lobbyMsg{T: lobbyJoin, Lobby: "g", Name: "Ada", Addrs: []string{"/ip4/10.213.0.2/tcp/1"}}))
	f.Add([]byte(`{"t":"start","l":"g","p":[{"id":"x"}],"s":"AQ=="}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeLobbyMsg(b)
		if err != nil {
			return
		}
		again, err := decodeLobbyMsg(encodeLobbyMsg(m))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("re-decode of %+v: %+v %v", m, again, err)
		}
	})
}
