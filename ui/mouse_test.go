package ui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// mouseRig runs the real tview loop on a simulation screen, so that a
// test clicks as a person does: tcell mouse events, pressed and released
// on the cells where a text is drawn.
type mouseRig struct {
	t    *testing.T
	sim  tcell.SimulationScreen
	f    *fakeSession
	a    *app
	done chan struct{} // closed when Run has returned
}

func startRig(t *testing.T, s Session, f *fakeSession, evs ...Event) *mouseRig {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	a := newApp(s, Options{Lang: "en"}, sim)
	sim.SetSize(80, 24)
	r := &mouseRig{t: t, sim: sim, f: f, a: a, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		if err := a.run(context.Background()); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	for _, e := range evs {
		f.ev <- e
	}
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			a.tv.Stop()
			<-r.done
		}
	})
	return r
}

// screen is what the screen shows, read on the interface's goroutine
// (which draws it).
func (r *mouseRig) screen() (cells []tcell.SimCell, w, h int) {
	read := make(chan struct{})
	go func() {
		r.a.tv.QueueUpdate(func() {
			c, cw, ch := r.sim.GetContents()
			cells, w, h = append([]tcell.SimCell(nil), c...), cw, ch
		})
		close(read)
	}()
	select {
	case <-read:
	case <-r.done:
		r.t.Fatal("the interface has stopped")
	}
	return cells, w, h
}

// text is the screen as text, for failure messages.
func (r *mouseRig) text() string {
	cells, w, h := r.screen()
	var b strings.Builder
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			b.WriteString(string(cells[y*w+x].Runes))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// find is the cell where text starts on the screen.
func (r *mouseRig) find(text string) (x, y int, ok bool) {
	cells, w, h := r.screen()
	for y := 0; y < h; y++ {
		var row []rune
		var at []int
		for x := 0; x < w; x++ {
			for _, c := range cells[y*w+x].Runes {
				row, at = append(row, c), append(at, x)
			}
		}
		if i := strings.Index(string(row), text); i >= 0 {
			return at[len([]rune(string(row)[:i]))], y, true
		}
	}
	return 0, 0, false
}

// waitFor waits until text is on the screen.
func (r *mouseRig) waitFor(text string) {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, _, ok := r.find(text); ok {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%q never appeared on the screen:\n%s", text, r.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// click waits for text on the screen and clicks its first cell.
func (r *mouseRig) click(text string) {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second) // a hang guard, not a speed claim
	for {
		if x, y, ok := r.find(text); ok {
			r.sim.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
			r.sim.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%q never appeared on the screen:\n%s", text, r.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// want waits for the session to have been sent the commands.
func (r *mouseRig) want(cmds ...string) {
	r.t.Helper()
	var got []string
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < len(cmds) && time.Now().Before(deadline) {
		got = append(got, r.f.took()...)
		time.Sleep(5 * time.Millisecond)
	}
	if !reflect.DeepEqual(got, cmds) {
		r.t.Fatalf("sent %q, want %q:\n%s", got, cmds, r.text())
	}
}

func gameEvents(t *testing.T, pos string) []Event {
	return []Event{
		LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice"}},
		table4(true),
		GameStarted{Position: mustPos(t, pos), Rules: engine.DefaultRules()},
	}
}

// TestMouseGame: in a game the roll line and the key line's roll roll,
// a move in the list plays it.
func TestMouseGame(t *testing.T) {
	f := newFake()
	evs := append(gameEvents(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -"),
		DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
	r := startRig(t, f, f, evs...)
	r.click("roll the die")
	r.want("roll")
	r.click("space roll")
	r.want("roll")
	f.ev <- Rolled{Colour: engine.Red, Roll: 4, Moves: []engine.Move{{Colour: engine.Red, Plane: 0}, {Colour: engine.Red, Plane: 2}, {Colour: engine.Red, Plane: 3}}, YouChoose: true}
	r.click("2) R2 L→3")
	r.want("choose R2")
	r.click("3) R3 H→L")
	r.want("choose R3")
}

// TestMouseLobby: a click on a game joins it, the twelfth too (no key
// reaches it), and the key line's create creates.
func TestMouseLobby(t *testing.T) {
	f := newFake()
	var games []Game
	for i := 0; i < 12; i++ {
		games = append(games, Game{ID: "g" + itoa(i), Host: Peer{Name: "host" + itoa(i)}})
	}
	r := startRig(t, f, f, LobbyUpdate{Me: Peer{ID: "me", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/4001"}, Games: games})
	r.click("host1's game")
	r.want("join g1")
	r.click("c create game")
	r.want("create " + engine.DefaultRules().String())
	r.click("PgUp/PgDn scroll") // a click on the scroll key scrolls, like PgUp: nothing above yet
	r.sim.InjectKey(tcell.KeyPgDn, 0, tcell.ModNone)
	r.sim.InjectKey(tcell.KeyPgDn, 0, tcell.ModNone)
	r.click("host11's game")
	r.want("join g11")
	r.click("Own planes on one square")
	r.click("c create game")
	off := engine.DefaultRules()
	off.NoStacks = true
	r.want("create " + off.String())
}

// TestMouseTable: a click on a seat puts the cursor there, and the key
// line's bot key then gives that seat a bot.
func TestMouseTable(t *testing.T) {
	f := newFake()
	tb := table4(false)
	tb.Seats[3] = Seat{}
	r := startRig(t, f, f, LobbyUpdate{Me: Peer{ID: "me", Name: "alice"}}, tb)
	r.click("G open")
	r.click("b bot / open seat")
	r.want(fmt.Sprintf("seat G %q", engine.BotKinds()[0]))
	r.click("Own planes on one square")
	off := engine.DefaultRules()
	off.NoStacks = true
	r.want("rules " + off.String())
}

// TestMouseDialogs: the key line's quit asks first, and the question's
// buttons answer it: stay, then leave for good (which ends Run); the
// lone player's question goes on with bots by a click.
func TestMouseDialogs(t *testing.T) {
	f := newFake()
	r := startRig(t, leaverSession{f}, f, gameEvents(t, "H,H,H,H/-/H,H,H,H/- R 0 -")...)
	r.waitFor("The game begins") // q in the lobby quits at once
	r.click("q quit")
	r.click("n/esc stay")
	r.click("q quit")
	r.click("y leave for good")
	r.want("leave")
	f.ev <- LeaveDone{} // the session has told the others
	r.want("close")
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		t.Fatal("leaving by a click did not end Run")
	}

	g := goOnSession{fakeSession: newFake()}
	r = startRig(t, g, g.fakeSession, append(gameEvents(t, "H,H,H,H/-/H,H,H,H/- R 0 -"), AloneDecision{Missing: []string{"bob"}})...)
	r.click("g go on with bots")
	r.want("go on")
}
