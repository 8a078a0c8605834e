package ui

import (
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
	"github.com/gdamore/tcell/v2"
)

// pauseSession is a fake session that pauses the game for everyone.
type pauseSession struct{ *fakeSession }

func (p pauseSession) PauseTogether() error { return p.rec("pause together") }
func (p pauseSession) PlayOn() error        { return p.rec("play on") }

func pauseUI(t fataler) (*UI, *fakeSession) {
	u, f := choosingUI(t)
	u.sess = pauseSession{fakeSession: f}
	return u, f
}

// TestPauseQuestion: in a game p asks "pause the game for everyone?",
// which takes every key; y asks the others (once: p is gone after), n
// or Esc plays on; a session that cannot pause has no p.
func TestPauseQuestion(t *testing.T) {
	for _, c := range []struct {
		name   string
		keys   []*tcell.EventKey
		calls  []string
		asking bool
		sent   bool
	}{
		{"p asks", []*tcell.EventKey{ch('p')}, nil, true, false},
		{"other keys wait for the answer", []*tcell.EventKey{ch('p'), ch('1'), ch('t')}, nil, true, false},
		{"y pauses", []*tcell.EventKey{ch('p'), ch('y')}, []string{"pause together"}, false, true},
		{"n plays on", []*tcell.EventKey{ch('p'), ch('n'), ch('2')}, []string{"choose R2"}, false, false},
		{"esc plays on", []*tcell.EventKey{ch('p'), key(tcell.KeyEscape)}, nil, false, false},
		{"p again plays on", []*tcell.EventKey{ch('p'), ch('y'), ch('p')}, []string{"pause together", "play on"}, false, false},
		{"and may ask again", []*tcell.EventKey{ch('p'), ch('y'), ch('p'), ch('p'), ch('y')}, []string{"pause together", "play on", "pause together"}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, f := pauseUI(t)
			for _, k := range c.keys {
				u.HandleKey(k)
			}
			if got := f.took(); !reflect.DeepEqual(got, c.calls) {
				t.Errorf("commands %q, want %q", got, c.calls)
			}
			if u.askPause != c.asking || u.pauseSent != c.sent {
				t.Errorf("asking %v, sent %v; want %v, %v", u.askPause, u.pauseSent, c.asking, c.sent)
			}
		})
	}
	u, f := choosingUI(t) // a session without TablePauser
	u.HandleKey(ch('p'))
	if u.askPause || len(f.took()) != 0 {
		t.Fatal("p asked to pause a session that cannot")
	}
}

// TestPauseEvents: another player's request says how to join it, and
// the paused game goes back to the lobby saying so, in every language.
func TestPauseEvents(t *testing.T) {
	for _, lang := range []string{"en", "zh", "ru"} {
		u, _ := pauseUI(t)
		u.cat = i18n.New(lang)
		u.Apply(PauseAsked{Colour: engine.Blue, Name: "ann"})
		if last := u.events[len(u.events)-1]; !strings.Contains(last, "ann") || !strings.Contains(last, "p") {
			t.Fatalf("%s: the request reads %q", lang, last)
		}
		u.Apply(GamePaused{Roll: 31})
		if u.mode != modeLobby || u.inGame() || !strings.Contains(u.notice, "31") {
			t.Fatalf("%s: after GamePaused mode %d, in game %v, notice %q", lang, u.mode, u.inGame(), u.notice)
		}
	}
	u, _ := pauseUI(t)
	u.HandleKey(ch('p'))
	u.HandleKey(ch('y'))
	u.Apply(PauseAsked{Colour: engine.Blue, Name: "bob"})
	if last := u.events[len(u.events)-1]; !strings.Contains(last, "bob paused too") {
		t.Fatalf("after our own pause, bob's reads %q", last)
	}
	u.Apply(PauseLifted{Colour: engine.Blue, Name: "bob"})
	if last := u.events[len(u.events)-1]; !strings.Contains(last, "bob plays on") {
		t.Fatalf("bob's lift reads %q", last)
	}
}
