package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// chooserSession is a fake session whose lobby lets players choose
// colours and say ready, as the LAN session does.
type chooserSession struct{ *fakeSession }

func (c chooserSession) ChooseColour(col engine.Colour) error {
	return c.rec(fmt.Sprintf("colour %c", col.Letter()))
}
func (c chooserSession) SetReady(r bool) error { return c.rec(fmt.Sprintf("ready %v", r)) }

// guestTable: bob created the game (Red, ready), alice sits at Blue (not
// ready), Yellow is open and Green is a free colour out of the game.
func guestTable() TableUpdate {
	t := TableUpdate{GameID: "bob 1a2b"}
	t.Seats[engine.Red] = Seat{Kind: SeatHuman, Name: "bob", PeerID: "12D3KooWqrstuvQ9x8y7", Present: true, Ready: true}
	t.Seats[engine.Blue] = Seat{Kind: SeatHuman, Name: "alice", PeerID: "12D3KooWabcdefXyZ123", You: true, Present: true}
	t.Seats[engine.Yellow] = Seat{Kind: SeatOpen}
	t.Seats[engine.Green] = Seat{Kind: SeatUnused}
	return t
}

func seatUI(chooser bool, tab TableUpdate) (*UI, *fakeSession) {
	f := newFake()
	var s Session = f
	if chooser {
		s = chooserSession{f}
	}
	u := New(s, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/1"}})
	u.Apply(tab)
	return u, f
}

// The table on the screen says each seat's colour, who sits there, and
// whether each player is ready; the bottom line offers the colour and
// ready keys, and to a guest no bot key.
func TestSeatTableShowsReadyAndColours(t *testing.T) {
	u, _ := seatUI(true, guestTable())
	scr := render(t, u, 80, 24)
	lines := strings.Split(scr, "\n")
	want := map[string]string{
		"R bob":                            "ready",
		"B alice":                          "you — not ready",
		"Y open":                           "",
		"G free colour (not in this game)": "",
	}
	for prefix, status := range want {
		found := false
		for _, l := range lines {
			if i := strings.Index(l, prefix); i >= 0 {
				found = strings.Contains(l[i:], status)
				break
			}
		}
		if !found {
			t.Errorf("no line %q … %q on\n%s", prefix, status, scr)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, "R bob") && (strings.Contains(l, "not ready") || !strings.Contains(l, "online — ready")) {
			t.Errorf("bob's line %q: want online — ready", l)
		}
	}
	bottom := bottomOf(scr)
	for _, k := range []string{"↑↓ choose seat", "c sit here", "r ready / not ready", "enter ready, start"} {
		if !strings.Contains(bottom, k) {
			t.Errorf("bottom line %q lacks %q", bottom, k)
		}
	}
	if strings.Contains(bottom, "bot / open seat") {
		t.Errorf("a guest is offered the bot key: %q", bottom)
	}
	if !strings.Contains(scr, ">") {
		t.Errorf("no seat cursor for a player who chooses colours:\n%s", scr)
	}
}

// The colour key takes the seat under the cursor if it is free, else the
// next free colour after the player's own; the ready key toggles the
// player's ready as the table shows it.
func TestSeatKeys(t *testing.T) {
	down := key(tcell.KeyDown)
	full := guestTable()
	full.Seats[engine.Yellow] = Seat{Kind: SeatBot, Name: "random", Present: true, Ready: true}
	full.Seats[engine.Green] = Seat{Kind: SeatHuman, Name: "carol", PeerID: "12D3KooWzzzzzzCarol1", Present: true}
	ready := guestTable()
	ready.Seats[engine.Blue].Ready = true
	cases := []struct {
		name   string
		table  TableUpdate
		keys   []*tcell.EventKey
		want   []string
		notice string
	}{
		{"cursor on the open seat", guestTable(), []*tcell.EventKey{down, down, ch('c')}, []string{"colour Y"}, ""},
		{"cursor on the out-of-game colour", guestTable(), []*tcell.EventKey{ch('k'), ch('c')}, []string{"colour G"}, ""},
		{"cursor on someone: the next free after mine", guestTable(), []*tcell.EventKey{ch('c')}, []string{"colour Y"}, ""},
		{"cursor on my own seat", guestTable(), []*tcell.EventKey{ch('j'), ch('c')}, []string{"colour Y"}, ""},
		{"no free colour", full, []*tcell.EventKey{ch('c')}, nil, "no colour is free"},
		{"ready", guestTable(), []*tcell.EventKey{ch('r')}, []string{"ready true"}, ""},
		{"not ready any more", ready, []*tcell.EventKey{ch('r')}, []string{"ready false"}, ""},
		{"enter says ready (Start)", guestTable(), []*tcell.EventKey{key(tcell.KeyEnter)}, []string{"start"}, ""},
		{"a guest has no bot key", guestTable(), []*tcell.EventKey{down, down, ch('b')}, nil, ""},
	}
	for _, c := range cases {
		u, f := seatUI(true, c.table)
		for _, k := range c.keys {
			u.HandleKey(k)
		}
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: commands %q, want %q", c.name, got, c.want)
		}
		if u.notice != c.notice {
			t.Errorf("%s: notice %q, want %q", c.name, u.notice, c.notice)
		}
	}
}

// The creator gives a free colour out of the game to a bot with the bot
// key, and can move itself too.
func TestSeatKeysCreator(t *testing.T) {
	tab := guestTable()
	tab.Host = true
	tab.Seats[engine.Red], tab.Seats[engine.Blue] = tab.Seats[engine.Blue], tab.Seats[engine.Red]
	tab.Seats[engine.Red].Ready = false
	u, f := seatUI(true, tab)
	u.HandleKey(ch('k'))
	u.HandleKey(ch('b'))
	u.HandleKey(ch('c'))
	want := []string{fmt.Sprintf("seat G %q", engine.BotKinds()[0]), "colour G"}
	if got := f.took(); !reflect.DeepEqual(got, want) {
		t.Errorf("commands %q, want %q", got, want)
	}
	if bottom := bottomOf(render(t, u, 80, 24)); !strings.Contains(bottom, "b bot / open seat") || !strings.Contains(bottom, "c sit here") {
		t.Errorf("creator's bottom line %q", bottom)
	}
}

// A session without colour choice (solo) offers neither key, and a guest
// there has no seat cursor.
func TestSeatKeysNeedAChooser(t *testing.T) {
	u, f := seatUI(false, guestTable())
	for _, k := range []*tcell.EventKey{ch('c'), ch('r'), key(tcell.KeyDown)} {
		u.HandleKey(k)
	}
	if got := f.took(); len(got) != 0 {
		t.Errorf("commands %q without a chooser", got)
	}
	scr := render(t, u, 80, 24)
	if b := bottomOf(scr); strings.Contains(b, "sit here") || strings.Contains(b, "ready / not ready") {
		t.Errorf("bottom line %q offers chooser keys", b)
	}
	if strings.Contains(scr, "not ready") {
		t.Errorf("a session without ready steps shows 'not ready':\n%s", scr)
	}
}

// bottomOf is the last rows of a screen, where the key lines are.
func bottomOf(scr string) string {
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-maxKeyLines, 0):], "\n")
}

// removerSession also lets the creator take a seat back.
type removerSession struct{ chooserSession }

func (r removerSession) RemoveSeat(c engine.Colour) error {
	return r.rec(fmt.Sprintf("remove %c", c.Letter()))
}

// The creator removes, with x on the seat, a player who is not ready; not
// a ready one, not itself, not as a guest, not without the session's say.
func TestRemoveSeatKey(t *testing.T) {
	notReady := creatorTable()
	notReady.Seats[engine.Blue].Ready = false
	guest := guestTable()
	cases := []struct {
		name    string
		table   TableUpdate
		remover bool
		keys    []*tcell.EventKey
		want    []string
	}{
		{"a player not ready", notReady, true, []*tcell.EventKey{ch('j'), ch('x')}, []string{"remove B"}},
		{"a ready player", creatorTable(), true, []*tcell.EventKey{ch('j'), ch('x')}, nil},
		{"itself", notReady, true, []*tcell.EventKey{ch('x')}, nil},
		{"an open seat", notReady, true, []*tcell.EventKey{ch('j'), ch('j'), ch('x')}, nil},
		{"a guest", guest, true, []*tcell.EventKey{ch('k'), ch('k'), ch('k'), ch('x')}, nil},
		{"a session without removal", notReady, false, []*tcell.EventKey{ch('j'), ch('x')}, nil},
	}
	for _, c := range cases {
		f := newFake()
		var s Session = chooserSession{f}
		if c.remover {
			s = removerSession{chooserSession{f}}
		}
		u := New(s, Options{Lang: "en"})
		u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/1"}})
		u.Apply(c.table)
		for _, k := range c.keys {
			u.HandleKey(k)
		}
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: commands %q, want %q", c.name, got, c.want)
		}
	}
}

// After a game over, the rematch's table (a TableUpdate not started)
// takes the player from the finished board to the table, where the keys
// for colour and ready are offered; before, the screen stayed on the
// finished board.
func TestRematchTableLeavesTheFinishedBoard(t *testing.T) {
	u, _ := seatUI(true, guestTable())
	started := guestTable()
	started.Started = true
	u.Apply(started)
	pos, err := engine.NewGame(engine.Red, engine.Blue, engine.Yellow)
	if err != nil {
		t.Fatal(err)
	}
	u.Apply(GameStarted{Position: pos, Rules: engine.DefaultRules()})
	u.Apply(GameOver{})
	if u.mode != modeGame || u.overlay != overlayEnd {
		t.Fatalf("after the game over: mode %v overlay %v, want the game's end", u.mode, u.overlay)
	}
	u.Apply(guestTable())
	if u.mode != modeTable || u.overlay != overlayNone {
		t.Fatalf("after the rematch's table: mode %v overlay %v, want the table", u.mode, u.overlay)
	}
	if bottom := bottomOf(render(t, u, 80, 24)); !strings.Contains(bottom, "r ready / not ready") {
		t.Errorf("bottom line %q offers no ready key", bottom)
	}
}
