package ui

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// leaverSession is a fake session that can leave a game for good.
type leaverSession struct{ *fakeSession }

func (l leaverSession) Leave() error { return l.rec("leave") }

func leaverUI(t fataler, leaver bool) (*UI, *fakeSession, *bool) {
	u, f := choosingUI(t)
	if leaver {
		u.sess = leaverSession{f}
	}
	stopped := new(bool)
	u.stop = func() { *stopped = true }
	return u, f, stopped
}

// TestQuitMidGameAsks: q or Ctrl-C during a game only asks; while asked,
// no other key does anything; n or Esc stays; y leaves the game for good
// (Leave on a Leaver) and quits once the session says LeaveDone
// (TestLeavingStaysLive). Outside a running game q quits at once.
func TestQuitMidGameAsks(t *testing.T) {
	cases := []struct {
		name    string
		leaver  bool
		keys    []*tcell.EventKey
		stopped bool
		calls   []string
		asking  bool
	}{
		{"q asks", true, []*tcell.EventKey{ch('q')}, false, nil, true},
		{"Ctrl-C asks", true, []*tcell.EventKey{key(tcell.KeyCtrlC)}, false, nil, true},
		{"other keys wait for the answer", true, []*tcell.EventKey{ch('q'), ch('1'), key(tcell.KeyEnter), ch('q'), key(tcell.KeyCtrlC), ch('t'), ch('?')}, false, nil, true},
		{"n stays", true, []*tcell.EventKey{ch('q'), ch('n'), ch('2')}, false, []string{"choose R2"}, false},
		{"Esc stays", true, []*tcell.EventKey{key(tcell.KeyCtrlC), key(tcell.KeyEscape)}, false, nil, false},
		{"y leaves for good, quitting at LeaveDone", true, []*tcell.EventKey{ch('q'), ch('y')}, false, []string{"leave"}, false},
		{"y after Ctrl-C leaves", true, []*tcell.EventKey{key(tcell.KeyCtrlC), ch('y')}, false, []string{"leave"}, false},
		{"leaving: q quits without waiting", true, []*tcell.EventKey{ch('q'), ch('y'), ch('1'), ch('q')}, true, []string{"leave"}, false},
		{"without a Leaver y just quits", false, []*tcell.EventKey{ch('q'), ch('y')}, true, nil, false},
		{"y alone does nothing", true, []*tcell.EventKey{ch('y')}, false, nil, false},
		{"p pauses: quits keeping the game, no leave", true, []*tcell.EventKey{ch('q'), ch('p')}, true, []string{"pause"}, false},
		{"p alone does nothing", true, []*tcell.EventKey{ch('p')}, false, nil, false},
		{"typing: q is a letter", true, []*tcell.EventKey{ch('t'), ch('q')}, false, nil, false},
		{"typing: Ctrl-C asks", true, []*tcell.EventKey{ch('t'), key(tcell.KeyCtrlC), ch('y')}, false, []string{"leave"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, f, stopped := leaverUI(t, c.leaver)
			for _, k := range c.keys {
				u.HandleKey(k)
			}
			if *stopped != c.stopped {
				t.Errorf("stopped %v, want %v", *stopped, c.stopped)
			}
			if got := f.took(); !reflect.DeepEqual(got, c.calls) {
				t.Errorf("commands %q, want %q", got, c.calls)
			}
			if u.confirm != c.asking {
				t.Errorf("asking %v, want %v", u.confirm, c.asking)
			}
		})
	}
	// Outside a running game q quits as before, without asking.
	over := func() (*UI, *fakeSession) {
		u, f := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
		u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
		return u, f
	}
	table := func() (*UI, *fakeSession) { return seatUI(true, guestTable()) }
	for name, mk := range map[string]func() (*UI, *fakeSession){"lobby": lobbyUI, "table": table, "over": over} {
		for _, k := range []*tcell.EventKey{ch('q'), key(tcell.KeyCtrlC)} {
			u, f := mk()
			stopped := false
			u.stop = func() { stopped = true }
			u.HandleKey(k)
			if !stopped || u.confirm || len(f.took()) != 0 {
				t.Errorf("%s, %s: stopped %v, asking %v", name, k.Name(), stopped, u.confirm)
			}
		}
	}
	// The game ending while asked closes the question.
	u, _, _ := leaverUI(t, true)
	u.HandleKey(ch('q'))
	u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
	if u.confirm {
		t.Error("the question stays open after the game is over")
	}
}

// TestLeaveGolden pins the question, in scripts of different widths and
// over the too-small screen.
func TestLeaveGolden(t *testing.T) {
	for _, c := range []struct {
		lang string
		w, h int
	}{{"en", 80, 24}, {"zh", 80, 24}, {"hi", 80, 24}, {"el", 80, 24}, {"en", 60, 20}} {
		u, _, _ := leaverUI(t, true)
		langUI(u, c.lang)
		u.HandleKey(ch('q'))
		name := "leave-" + c.lang + "-" + itoa(c.w) + "x" + itoa(c.h)
		got := render(t, u, c.w, c.h)
		checkGolden(t, name, got)
		if c.lang == "en" && !strings.Contains(got, "y leave for good") {
			t.Errorf("%s: no answer keys:\n%s", name, got)
		}
	}
}

// refusingLeaver is a Leaver whose Leave is refused.
type refusingLeaver struct{ *fakeSession }

func (l refusingLeaver) Leave() error { l.rec("leave"); return errors.New("no game is on") }

// TestLeavingStaysLive: Leave returns at once and the screen says
// "leaving…" while the session tells the others; the game's events still
// reach the board, and LeaveDone quits. A refused Leave quits at once.
func TestLeavingStaysLive(t *testing.T) {
	u, _, stopped := leaverUI(t, true)
	u.HandleKey(ch('q'))
	u.HandleKey(ch('y'))
	if *stopped || !u.leaving {
		t.Fatalf("after y: stopped %v, leaving %v; want the leaving state", *stopped, u.leaving)
	}
	got := render(t, u, 80, 24)
	if !strings.Contains(got, "Leaving…") || !strings.Contains(got, "q quit now") {
		t.Errorf("the leaving state is not on screen:\n%s", got)
	}
	checkGolden(t, "leaving-en-80x24", got)
	before := u.pos
	after, _, err := before.Play(u.playing, u.rolled.Roll, u.rolled.Moves[0])
	if err != nil {
		t.Fatal(err)
	}
	u.Apply(Moved{Before: before, After: after})
	if u.pos != after {
		t.Error("a move while leaving did not reach the board")
	}
	u.Apply(AloneDecision{Missing: []string{"bob"}})
	if u.askAlone {
		t.Error("a lone decision was asked of a player who is leaving")
	}
	u.Apply(LeaveDone{})
	if !*stopped {
		t.Error("LeaveDone did not quit")
	}

	u, f := choosingUI(t)
	u.sess = refusingLeaver{f}
	quit := false
	u.stop = func() { quit = true }
	u.HandleKey(ch('q'))
	u.HandleKey(ch('y'))
	if !quit || u.leaving {
		t.Errorf("a refused Leave: stopped %v, leaving %v; want quit at once", quit, u.leaving)
	}
	// A LeaveDone nobody waits for does nothing.
	u, _, stopped = leaverUI(t, true)
	u.Apply(LeaveDone{})
	if *stopped {
		t.Error("a stray LeaveDone quit")
	}
}
