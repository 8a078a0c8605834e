package ui

import (
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"

	"github.com/gdamore/tcell/v2"
)

// goOnSession is a fake session that answers the lone player's question.
type goOnSession struct {
	*fakeSession
	endErr error
}

func (g goOnSession) GoOn() error { return g.rec("go on") }
func (g goOnSession) EndGame() error {
	_ = g.rec("end game")
	return g.endErr
}

func aloneUI(t fataler, goOner bool) (*UI, *fakeSession) {
	u, f := choosingUI(t)
	if goOner {
		u.sess = goOnSession{fakeSession: f}
	}
	u.Apply(AloneDecision{Missing: []string{"bob"}})
	return u, f
}

// TestAloneQuestion: an AloneDecision opens the question, which takes
// every key; w or Esc keeps waiting (g asks again while it is open); g
// goes on; e ends the game and goes back to the lobby. An empty
// AloneDecision, a new game or the game's end closes it.
func TestAloneQuestion(t *testing.T) {
	cases := []struct {
		name   string
		keys   []*tcell.EventKey
		calls  []string
		asking bool
		mode   mode
	}{
		{"asked at once", nil, nil, true, modeGame},
		{"other keys wait for the answer", []*tcell.EventKey{ch('1'), ch('q'), ch('t'), key(tcell.KeyEnter)}, nil, true, modeGame},
		{"w keeps waiting", []*tcell.EventKey{ch('w'), ch('2')}, []string{"choose R2"}, false, modeGame},
		{"esc keeps waiting", []*tcell.EventKey{key(tcell.KeyEscape)}, nil, false, modeGame},
		{"g asks again", []*tcell.EventKey{ch('w'), ch('g')}, nil, true, modeGame},
		{"g goes on", []*tcell.EventKey{ch('g')}, []string{"go on"}, false, modeGame},
		{"e ends the game", []*tcell.EventKey{ch('e')}, []string{"end game"}, false, modeLobby},
		{"asked again, then e", []*tcell.EventKey{ch('w'), ch('g'), ch('e')}, []string{"end game"}, false, modeLobby},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, f := aloneUI(t, true)
			for _, k := range c.keys {
				u.HandleKey(k)
			}
			if got := f.took(); !reflect.DeepEqual(got, c.calls) {
				t.Errorf("commands %q, want %q", got, c.calls)
			}
			if u.askAlone != c.asking || u.mode != c.mode {
				t.Errorf("asking %v in mode %d, want %v in %d", u.askAlone, u.mode, c.asking, c.mode)
			}
		})
	}
	closers := map[string]Event{
		"answered elsewhere": AloneDecision{},
		"game over":          GameOver{Ranking: []engine.Colour{0, 3, 1, 2}},
		"new game":           GameStarted{Position: mustPos(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -"), Rules: engine.DefaultRules()},
	}
	for name, e := range closers {
		u, _ := aloneUI(t, true)
		u.Apply(e)
		if u.askAlone || u.canAskAlone() {
			t.Errorf("%s: the question stays open", name)
		}
	}
	// A refused EndGame stays in the game and says why.
	u, f := choosingUI(t)
	u.sess = goOnSession{fakeSession: f, endErr: Errorf("err.noend")}
	u.Apply(AloneDecision{Missing: []string{"bob"}})
	u.HandleKey(ch('e'))
	if u.mode != modeGame || u.notice != "No game is on to end." {
		t.Errorf("refused end: mode %d, notice %q", u.mode, u.notice)
	}
	// Without a GoOner the question is still asked (keep waiting is
	// always an answer) but g asks nothing of the session.
	u, f = aloneUI(t, false)
	u.HandleKey(ch('g'))
	if got := f.took(); len(got) != 0 || u.askAlone {
		t.Errorf("without a GoOner: commands %q, asking %v", got, u.askAlone)
	}
}

// TestLeftAndSolo: a Left event says who left and which colour a bot
// flies, in the events and the player list; SoloDice is said on and off.
func TestLeftAndSolo(t *testing.T) {
	cases := []struct {
		lang string
		want []string
	}{
		{"en", []string{"bob left — a bot flies Yellow", "left (a bot flies)"}},
		{"ru", []string{"bob вышел — Жёлтый теперь ведёт бот"}},
	}
	for _, c := range cases {
		u, _ := choosingUI(t)
		langUI(u, c.lang)
		u.Apply(Left{Colour: engine.Yellow, Name: "bob"})
		got := render(t, u, 120, 40)
		for _, w := range c.want {
			if !strings.Contains(got, w) && !strings.Contains(strings.Join(u.events, "\n"), w) {
				t.Errorf("%s: %q missing:\n%s", c.lang, w, got)
			}
		}
	}
	u, _ := choosingUI(t)
	u.Apply(SoloDice{On: true})
	if got := render(t, u, 120, 40); !strings.Contains(got, "Your own dice alone make") {
		t.Errorf("the turn panel does not say the dice are this player's alone:\n%s", got)
	}
	u.Apply(SoloDice{On: false})
	if got := render(t, u, 120, 40); strings.Contains(got, "Your own dice alone make") {
		t.Errorf("the turn panel still says the dice are this player's alone:\n%s", got)
	}
	ev := strings.Join(u.events, "\n")
	if !strings.Contains(ev, "Only your own dice chain") || !strings.Contains(ev, "reveals are in the rolls again") {
		t.Errorf("solo dice not said:\n%s", ev)
	}
}

// TestRematchTableLeavesTheBoard: after the game is over, the rematch's
// table (a TableUpdate not started) replaces the finished board, so the
// table's keys (ready, start) work; during a game such a table changes
// nothing.
func TestRematchTableLeavesTheBoard(t *testing.T) {
	u, f := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
	u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
	u.HandleKey(ch('r'))
	tb := table4(false)
	tb.Seats[0].Ready = false
	u.Apply(tb)
	if u.mode != modeTable || u.over != nil || u.overlay == overlayEnd {
		t.Fatalf("after the rematch's table: mode %d, over %v, overlay %d", u.mode, u.over, u.overlay)
	}
	u.HandleKey(key(tcell.KeyEnter))
	if got := f.took(); !reflect.DeepEqual(got, []string{"rematch", "start"}) {
		t.Errorf("commands %q, want rematch then start", got)
	}
	if got := render(t, u, 80, 24); !strings.Contains(got, "alice") || strings.Contains(got, "game is over") {
		t.Errorf("not the table:\n%s", got)
	}
	g, _ := choosingUI(t)
	g.Apply(table4(false))
	if g.mode != modeGame || g.rolled == nil {
		t.Errorf("a table mid-game left the board: mode %d", g.mode)
	}
}

// TestAloneGolden pins the lone player's question and the "left" line.
func TestAloneGolden(t *testing.T) {
	u, _ := aloneUI(t, true)
	checkGolden(t, "alone-en-80x24", render(t, u, 80, 24))
	u, _ = choosingUI(t)
	u.Apply(Left{Colour: engine.Yellow, Name: "bob"})
	checkGolden(t, "left-en-80x24", render(t, u, 80, 24))
}

// TestPlayerListStatus: the player list says who is online, absent (a
// bot flies), back (until that seat's next move) and left (a bot flies).
func TestPlayerListStatus(t *testing.T) {
	cases := []struct {
		name string
		evs  []Event
		want string
	}{
		{"online", nil, "bob Q9x8y7 online"},
		{"absent", []Event{Presence{Colour: engine.Yellow, Name: "bob"}}, "bob Q9x8y7 absent (a bot flies)"},
		{"back", []Event{Presence{Colour: engine.Yellow, Name: "bob"}, Presence{Colour: engine.Yellow, Name: "bob", Present: true}}, "bob Q9x8y7 back"},
		{"left", []Event{Presence{Colour: engine.Yellow, Name: "bob"}, Left{Colour: engine.Yellow, Name: "bob"}}, "bob Q9x8y7 left (a bot flies)"},
	}
	for _, c := range cases {
		u, _ := choosingUI(t)
		for _, e := range c.evs {
			u.Apply(e)
		}
		if got := render(t, u, 120, 40); !strings.Contains(got, c.want) {
			t.Errorf("%s: no %q:\n%s", c.name, c.want, got)
		}
	}
}
