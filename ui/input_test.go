package ui

import (
	"reflect"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

func key(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }
func ch(r rune) *tcell.EventKey       { return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) }

func typeText(u *UI, s string) {
	for _, r := range s {
		u.HandleKey(ch(r))
	}
}

func lobbyUI() (*UI, *fakeSession) {
	f := newFake()
	u := New(f, Options{Lang: "en"})
	u.Apply(LobbyUpdate{
		Me:    Peer{ID: "me", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/4001"},
		Games: []Game{{ID: "g-bob", Host: Peer{Name: "bob"}}, {ID: "g-carol", Host: Peer{Name: "carol"}, Taken: 1, Seats: 2}},
	})
	return u, f
}

// choosingUI is Red to choose after a roll of 4 (see the "choose" golden).
func choosingUI(t fataler) (*UI, *fakeSession) {
	u, f := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -", engine.DefaultRules())
	u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
	u.Apply(Rolled{Colour: engine.Red, Roll: 4, Moves: []engine.Move{{Colour: engine.Red, Plane: 0}, {Colour: engine.Red, Plane: 2}, {Colour: engine.Red, Plane: 3}}, YouChoose: true})
	return u, f
}

func TestKeysToCommands(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t fataler) (*UI, *fakeSession)
		keys  []*tcell.EventKey
		text  string // typed after keys
		after []*tcell.EventKey
		want  []string
	}{
		{"create with default rules", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('c')}, "", nil, []string{"create takeoff=even,overshoot=bounce,stack=on,flyjump=off"}},
		{"rule keys change the new game", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('t'), ch('o'), ch('k'), ch('f'), ch('c')}, "", nil, []string{"create takeoff=six,overshoot=stay,stack=off,flyjump=on"}},
		{"join the second game", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('2')}, "", nil, []string{"join g-carol"}},
		{"no game 5 to join", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('5')}, "", nil, nil},
		{"rename", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('n'), key(tcell.KeyBackspace2), key(tcell.KeyBackspace2)}, "x q", []*tcell.EventKey{key(tcell.KeyEnter)}, []string{"name alix q"}},
		{"connect by address", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('a')}, "/ip4/10.0.0.9/tcp/1", []*tcell.EventKey{key(tcell.KeyEnter)}, []string{"connect /ip4/10.0.0.9/tcp/1"}},
		{"escape cancels typing", func(fataler) (*UI, *fakeSession) { return lobbyUI() },
			[]*tcell.EventKey{ch('a')}, "abc", []*tcell.EventKey{key(tcell.KeyEscape), ch('c')}, []string{"create takeoff=even,overshoot=bounce,stack=on,flyjump=off"}},
		{"seat keys", func(t fataler) (*UI, *fakeSession) {
			u, f := lobbyUI()
			u.Apply(table4(false))
			return u, f
		}, []*tcell.EventKey{key(tcell.KeyDown), ch('b'), key(tcell.KeyDown), key(tcell.KeyDown), ch('b'), key(tcell.KeyUp), key(tcell.KeyUp), key(tcell.KeyUp), ch('b'), key(tcell.KeyEnter)}, "", nil,
			[]string{`seat B "` + nextKind("random") + `"`, `seat G "` + nextKind("random") + `"`, "start"}},
		{"rule keys at the creator's table", func(t fataler) (*UI, *fakeSession) {
			u, f := lobbyUI()
			u.Apply(table4(false))
			return u, f
		}, []*tcell.EventKey{ch('2'), ch('4'), ch('t'), ch('o')}, "", nil,
			// The fake's table keeps its rules: each key changes one option of them.
			[]string{"rules takeoff=even,overshoot=stay,stack=on,flyjump=off", "rules takeoff=even,overshoot=bounce,stack=on,flyjump=on"}},
		{"no rule keys at another's table", func(t fataler) (*UI, *fakeSession) {
			u, f := lobbyUI()
			tb := table4(false)
			tb.Host = false
			u.Apply(tb)
			return u, f
		}, []*tcell.EventKey{ch('1'), ch('2'), ch('3'), ch('4')}, "", nil, nil},
		{"roll on your turn", func(t fataler) (*UI, *fakeSession) {
			u, f := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", engine.DefaultRules())
			u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
			return u, f
		}, []*tcell.EventKey{ch('1'), key(tcell.KeyEnter), ch(' '), ch(' ')}, "", nil, []string{"roll", "roll"}},
		{"no roll on another's turn", func(t fataler) (*UI, *fakeSession) {
			u, f := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H B 0 -", engine.DefaultRules())
			u.Apply(DiceWaiting{ToMove: engine.Blue, Waiting: []string{"random"}})
			return u, f
		}, []*tcell.EventKey{ch(' '), ch('r'), ch('1'), key(tcell.KeyEnter), ch('c'), ch('b')}, "", nil, nil},
		{"choose by number", choosingUI, []*tcell.EventKey{ch('4'), ch('3')}, "", nil, []string{"choose R3"}},
		{"choose by tab and enter", choosingUI, []*tcell.EventKey{key(tcell.KeyTab), key(tcell.KeyTab), key(tcell.KeyTab), key(tcell.KeyBacktab), key(tcell.KeyEnter)}, "", nil, []string{"choose R3"}},
		{"help hides the game keys", choosingUI, []*tcell.EventKey{ch('?'), ch('1'), ch('?'), ch('2')}, "", nil, []string{"choose R2"}},
		{"chat", choosingUI, []*tcell.EventKey{ch('t')}, "gg 1 q", []*tcell.EventKey{key(tcell.KeyEnter)}, []string{"chat gg 1 q"}},
		{"rematch at the end", func(t fataler) (*UI, *fakeSession) {
			u, f := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
			u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
			return u, f
		}, []*tcell.EventKey{ch(' '), ch('r')}, "", nil, []string{"rematch"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, f := c.setup(t)
			for _, k := range c.keys {
				u.HandleKey(k)
			}
			typeText(u, c.text)
			for _, k := range c.after {
				u.HandleKey(k)
			}
			if got := f.took(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("commands %q, want %q", got, c.want)
			}
		})
	}
}

func nextKind(k string) string {
	kinds := engine.BotKinds()
	for i, x := range kinds {
		if x == k && i+1 < len(kinds) {
			return kinds[i+1]
		}
	}
	return ""
}

// click finds where a plane is drawn and clicks there.
func click(t *testing.T, u *UI, c engine.Colour, i int) {
	t.Helper()
	s := newSim(t, 80, 24)
	u.Draw(s, 80, 24)
	var sp trackSpot
	if p := u.pos.Plane(c, i); p == engine.Hangar {
		sp = trackSpot{cell: board.hangar[c][i]}
	} else {
		sp, _ = board.placeSpot(c, p)
	}
	x, y, _, _ := u.layout.board.spotRect(sp)
	u.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, 0))
}

func TestMouseChoosesThePlane(t *testing.T) {
	cases := []struct {
		plane int
		want  []string
	}{
		{1, []string{"choose R0"}}, // R1 is in R0's stack: the stack's move
		{2, []string{"choose R2"}}, // in the launch area
		{3, []string{"choose R3"}}, // in the hangar: taxi
	}
	for _, c := range cases {
		u, f := choosingUI(t)
		click(t, u, engine.Red, c.plane)
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("click on R%d: %q, want %q", c.plane, got, c.want)
		}
	}
	// Clicking an opponent, an empty square or off the board does nothing.
	u, f := choosingUI(t)
	click(t, u, engine.Blue, 0)
	u.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(79, 23, tcell.Button1, 0))
	u.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(25, 6, tcell.Button1, 0))
	if got := f.took(); len(got) != 0 {
		t.Errorf("stray clicks sent %q", got)
	}
}

// TestHighlightTarget checks that the chosen move's destination (after the
// jump and the shortcut) is drawn reversed, and follows the selection.
func TestHighlightTarget(t *testing.T) {
	u, _ := choosingUI(t)
	reversedAt := func(sp trackSpot) bool {
		s := newSim(t, 80, 24)
		u.Draw(s, 80, 24)
		s.Show()
		x, y, _, _ := u.layout.board.spotRect(sp)
		cells, w, _ := s.GetContents()
		_, _, attr := cells[y*w+x].Style.Decompose()
		return attr&tcell.AttrReverse != 0
	}
	// R0x2 on 13 rolls 4: lands on 17, flies the shortcut to 29.
	if !reversedAt(board.track[engine.Absolute(engine.Red, 29)]) {
		t.Error("move 1: square 29 not highlighted")
	}
	if reversedAt(board.track[engine.Absolute(engine.Red, 17)]) {
		t.Error("move 1: square 17 highlighted: the highlight must show where the plane ends")
	}
	u.HandleKey(key(tcell.KeyTab)) // R2 from L with 4 → 3
	if !reversedAt(board.track[engine.Absolute(engine.Red, 3)]) {
		t.Error("move 2: square 3 not highlighted")
	}
	u.HandleKey(key(tcell.KeyTab)) // taxi → L
	if !reversedAt(trackSpot{cell: board.launch[engine.Red]}) {
		t.Error("move 3: launch area not highlighted")
	}
}
