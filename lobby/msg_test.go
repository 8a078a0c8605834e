package lobby

import (
	"aeroplane/internal/p2ptest"
	"errors"
	"reflect"
	"testing"
)

func TestLobbyMsgRoundTrip(t *testing.T) {
	id, id2 := p2ptest.RandomID(t).String(), p2ptest.RandomID(t).String()
	cases := []lobbyMsg{
		{T: lobbyJoin, Lobby: "g", Name: "Ada", Addrs: []string{"/ip4/10.213.0.2/tcp/1"}},
		{T: lobbyJoin, Lobby: "g", Name: "Ada", Want: 4},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Free: 2},
		{T: lobbyStart, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Setup: []byte{1, 2, 3}},
		{T: lobbyStart, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Setup: []byte{1, 2, 3}, Quiet: true},
		{T: lobbyFull, Lobby: "g"},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo", Colour: 2, Ready: true}}, Free: 1,
			Bots: []botEntry{{Colour: 0, Kind: "random"}, {Colour: 3, Kind: "greedy"}}, Rules: "takeoff=six,overshoot=stay,stack=off,flyjump=on", Ver: 7},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Free: 2, Pace: 1001},
		{T: lobbyStart, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}}, Setup: []byte{1, 2, 3}, Pace: 1},
		{T: lobbyColour, Lobby: "g", Colour: 3},
		{T: lobbyReady, Lobby: "g", Ready: true, Ver: 9},
		{T: lobbyLeave, Lobby: "g"},
		{T: lobbyJoin, Lobby: "g", Name: "Wendy", Seat: id2},
		{T: lobbyJoin, Lobby: "g", Name: "Wendy", Seat: id2, Phone: true},
		{T: lobbyColour, Lobby: "g", Colour: 2, Seat: id2},
		{T: lobbyReady, Lobby: "g", Ready: true, Ver: 3, Seat: id2},
		{T: lobbyLeave, Lobby: "g", Seat: id2},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}, {ID: id2, Name: "Wendy", Colour: 1, Via: id}}, Free: 1},
		{T: lobbyRoster, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}, {ID: id2, Name: "Wendy", Colour: 1, Via: id, Phone: true}}, Free: 1},
		{T: lobbyStart, Lobby: "g", Players: []rosterEntry{{ID: id, Name: "Bo"}, {ID: id2, Name: "Wendy", Colour: 1, Via: id}}, Setup: []byte{1}},
		{T: lobbyInfo, Lobby: "g", Name: "Ada", Free: 2, Taken: 2, Rules: "takeoff=even,overshoot=bounce,stack=on,flyjump=off"},
	}
	for _, m := range cases {
		got, err := decodeLobbyMsg(encodeLobbyMsg(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%s: got %+v, %v", m.T, got, err)
		}
	}
}

func TestLobbyMsgRejects(t *testing.T) {
	id, id2 := p2ptest.RandomID(t).String(), p2ptest.RandomID(t).String()
	cases := map[string]string{
		"not json":         `{`,
		"type":             `{"t":"hack","l":"g"}`,
		"no lobby":         `{"t":"join","l":""}`,
		"control":          `{"t":"join","l":"g\u0007"}`,
		"bad addr":         `{"t":"join","l":"g","a":["nope"]}`,
		"bad id":           `{"t":"roster","l":"g","p":[{"id":"x","n":"a"}]}`,
		"dup id":           `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"},{"id":"` + id + `","n":"b"}]}`,
		"free":             `{"t":"roster","l":"g","f":9,"p":[{"id":"` + id + `","n":"a"}]}`,
		"start no setup":   `{"t":"start","l":"g","p":[{"id":"` + id + `","n":"a"}]}`,
		"setup in join":    `{"t":"join","l":"g","s":"AQ=="}`,
		"colour range":     `{"t":"colour","l":"g","c":4}`,
		"colour neg":       `{"t":"colour","l":"g","c":-1}`,
		"colour in join":   `{"t":"join","l":"g","c":2}`,
		"ready in join":    `{"t":"join","l":"g","r":true}`,
		"ver in join":      `{"t":"join","l":"g","v":3}`,
		"bot in colour":    `{"t":"colour","l":"g","b":[{"c":1,"k":"random"}]}`,
		"bad bot kind":     `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"b":[{"c":1,"k":"nosuch"}]}`,
		"bot colour":       `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"b":[{"c":7,"k":"random"}]}`,
		"bot on player":    `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a","c":1}],"b":[{"c":1,"k":"random"}]}`,
		"two bots":         `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"b":[{"c":1,"k":"random"},{"c":1,"k":"greedy"}]}`,
		"player colour":    `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a","c":4}]}`,
		"five seats":       `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"b":[{"c":1,"k":"random"},{"c":2,"k":"random"},{"c":3,"k":"random"},{"k":"random"}]}`,
		"rules garbage":    `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"ru":"takeoff=never"}`,
		"rules order":      `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"}],"ru":"stack=on,takeoff=even"}`,
		"rules in ready":   `{"t":"ready","l":"g","ru":"takeoff=even,overshoot=bounce,stack=on,flyjump=off"}`,
		"ready in redir":   `{"t":"redirect","l":"g","p":[{"id":"` + id + `","n":"a","r":true}]}`,
		"ver negative":     `{"t":"ready","l":"g","v":-1}`,
		"taken in join":    `{"t":"join","l":"g","k":1}`,
		"want in roster":   `{"t":"roster","l":"g","w":1,"p":[{"id":"` + id + `","n":"a"}]}`,
		"want range":       `{"t":"join","l":"g","w":5}`,
		"want negative":    `{"t":"join","l":"g","w":-1}`,
		"taken range":      `{"t":"info","l":"g","f":2,"k":3}`,
		"taken negative":   `{"t":"info","l":"g","k":-1}`,
		"pace in join":     `{"t":"join","l":"g","bp":5}`,
		"pace in info":     `{"t":"info","l":"g","bp":5}`,
		"pace too slow":    `{"t":"roster","l":"g","bp":5002,"p":[{"id":"` + id + `","n":"a"}]}`,
		"pace negative":    `{"t":"roster","l":"g","bp":-3,"p":[{"id":"` + id + `","n":"a"}]}`,
		"seat bad id":      `{"t":"join","l":"g","n":"w","st":"x"}`,
		"seat in roster":   `{"t":"roster","l":"g","st":"` + id2 + `","p":[{"id":"` + id + `","n":"a"}]}`,
		"seat in info":     `{"t":"info","l":"g","st":"` + id2 + `"}`,
		"phone no seat":    `{"t":"join","l":"g","n":"w","ph":true}`,
		"phone in ready":   `{"t":"ready","l":"g","st":"` + id2 + `","ph":true}`,
		"phone not hosted": `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a","ph":true}]}`,
		"via bad id":       `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"},{"id":"` + id2 + `","n":"w","c":1,"via":"x"}]}`,
		"via itself":       `{"t":"roster","l":"g","p":[{"id":"` + id2 + `","n":"w","via":"` + id2 + `"}]}`,
		"via with addrs":   `{"t":"roster","l":"g","p":[{"id":"` + id + `","n":"a"},{"id":"` + id2 + `","n":"w","c":1,"via":"` + id + `","a":["/ip4/10.0.0.1/tcp/1"]}]}`,
		"via in redir":     `{"t":"redirect","l":"g","p":[{"id":"` + id2 + `","n":"w","via":"` + id + `"}]}`,
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
	f.Add([]byte(`{"t":"colour","l":"g","c":2}`))
	f.Add([]byte(`{"t":"ready","l":"g","r":true,"v":4}`))
	f.Add([]byte(`{"t":"info","l":"g","n":"Ada","f":1,"ru":"takeoff=six,overshoot=bounce,stack=on,flyjump=off"}`))
	f.Add([]byte(`{"t":"info","l":"g","n":"Ada","f":1,"k":3}`))
	f.Add([]byte(`{"t":"join","l":"g","n":"Ada","w":3}`))
	f.Add([]byte(`{"t":"running","l":"g","n":"Ada","g":"abababababababababababababababababababababababababababababababab","ro":9,"ld":2,"wa":1,"wc":true,"p":[{"id":"x","n":"a"}],"b":[{"c":1,"k":"random"}]}`))
	f.Add([]byte(`{"t":"join","l":"g","n":"Wendy","st":"12D3KooWQYV9dGMFoRzNStwpXztXaBUjtPqi6aU76ZgUriHhKust"}`))
	f.Add([]byte(`{"t":"roster","l":"g","p":[{"id":"12D3KooWQYV9dGMFoRzNStwpXztXaBUjtPqi6aU76ZgUriHhKust","n":"w","c":1,"via":"12D3KooWKsMmqB1fjr3Cd4Rf3XhD6u2fVzgw5RUbC1mexgYMX3eA"}]}`))
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
