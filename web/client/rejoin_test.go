package client

import (
	"slices"
	"testing"
)

// recorder is a Socket that keeps the lobby commands sent on it.
type recorder struct{ cmds []LobbyCmd }

func (r *recorder) Send(msg []byte) error {
	f, err := DecodeFrame(msg)
	if err != nil {
		return err
	}
	c, err := ParseLobbyCmd(f.Data)
	if err != nil {
		return err
	}
	r.cmds = append(r.cmds, c)
	return nil
}

func (r *recorder) Recv() <-chan []byte { return nil }

// A rejoiner (a rematch, a page coming back) sits the person when a
// table comes without them, at most maxRejoinSits times and one at a
// time, and asks for their colour once per seat they are put at; the
// tables it is handed still reach the page.
func TestRejoinerSitsAndAsksForItsColour(t *testing.T) {
	me := "12D3KooWme"
	at := func(colour string) Table {
		return Table{Lobby: "L", Players: []TablePlayer{{ID: "other", Colour: "R"}, {ID: me, Colour: colour}}}
	}
	away := Table{Lobby: "L", Players: []TablePlayer{{ID: "other", Colour: "R"}}}
	refused := Table{Error: "no", ErrorKey: "err.lobbygone"}
	sit, ask := LobbyCmd{T: CmdSit, Name: "Wendy", Lang: "zh"}, LobbyCmd{T: CmdColour, Colour: "G", Lang: "zh"}
	for _, tc := range []struct {
		name   string
		tables []Table
		want   []LobbyCmd
	}{
		{"seated at its colour already", []Table{at("G"), at("G")}, nil},
		{"seated elsewhere: asks once", []Table{at("B"), at("B"), at("B")}, []LobbyCmd{ask}},
		{"moved again: asks again", []Table{at("B"), at("Y"), at("Y")}, []LobbyCmd{ask, ask}},
		{"a stale table, then the new one", []Table{at("G"), away, at("B"), at("G")}, []LobbyCmd{sit, ask}},
		{"no sit twice while one is pending", []Table{away, away, away}, []LobbyCmd{sit}},
		{"a refused sit is tried again, up to the bound", []Table{away, refused, away, refused, away, refused, away, refused, away}, []LobbyCmd{sit, sit, sit}},
		{"no table yet: nothing", []Table{{}, refused}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &recorder{}
			var seen []Table
			r := &rejoiner{s: s, id: me, name: "Wendy", colour: "G", lang: "zh", then: func(tb Table) { seen = append(seen, tb) }}
			for _, tb := range tc.tables {
				r.table(tb)
			}
			if !slices.EqualFunc(s.cmds, tc.want, func(a, b LobbyCmd) bool { return a == b }) {
				t.Errorf("sent %+v, want %+v", s.cmds, tc.want)
			}
			if len(seen) != len(tc.tables) {
				t.Errorf("the page saw %d tables of %d", len(seen), len(tc.tables))
			}
		})
	}
}
