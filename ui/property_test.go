package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"pgregory.net/rapid"
)

// TestAnyInputIsHarmless: whatever keys and clicks arrive, in any state,
// the interface never panics, never draws outside the screen, and only
// sends commands that make sense now: a roll only when the die waits for
// this player, a choice only among the moves offered.
func TestAnyInputIsHarmless(t *testing.T) {
	specials := []tcell.Key{tcell.KeyEnter, tcell.KeyEscape, tcell.KeyTab, tcell.KeyBacktab, tcell.KeyUp, tcell.KeyDown,
		tcell.KeyLeft, tcell.KeyRight, tcell.KeyBackspace2, tcell.KeyPgUp, tcell.KeyPgDn, tcell.KeyF1, tcell.KeyDelete}
	rapid.Check(t, func(rt *rapid.T) {
		u, f := choosingUI(rt)
		inGame := true
		switch rapid.IntRange(0, 4).Draw(rt, "state") {
		case 1:
			u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
		case 2:
			u.Apply(GameOver{Ranking: []engine.Colour{1, 0, 2, 3}, LogPath: "/x"})
		case 3:
			u, f = lobbyUI()
			inGame = false
		case 4:
			u, f = lobbyUI()
			u.Apply(table4(false))
			inGame = false
		}
		stopped := false
		u.stop = func() { stopped = true }
		n := rapid.IntRange(1, 25).Draw(rt, "n")
		for i := 0; i < n && !stopped; i++ {
			canRoll := u.canRoll()
			var offered []string
			if u.rolled != nil && u.rolled.YouChoose && u.free() {
				for _, m := range u.rolled.Moves {
					offered = append(offered, "choose "+m.String())
				}
			}
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				u.HandleKey(ch(rapid.SampledFrom([]rune(" 0123456789abcdefghijklmnoprstuvwxyz?[]")).Draw(rt, "rune")))
			case 1:
				u.HandleKey(key(rapid.SampledFrom(specials).Draw(rt, "key")))
			case 2:
				u.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(rapid.IntRange(0, 79).Draw(rt, "x"), rapid.IntRange(0, 23).Draw(rt, "y"), tcell.Button1, 0))
			}
			for _, c := range f.took() {
				if !inGame {
					continue // lobby and seats: any command may be fine; no panic is the point
				}
				switch {
				case c == "roll" && !canRoll:
					rt.Fatalf("roll sent when the die did not wait for us")
				case strings.HasPrefix(c, "choose ") && !contains(offered, c):
					rt.Fatalf("%s sent; offered %v", c, offered)
				case strings.HasPrefix(c, "create") || strings.HasPrefix(c, "join") || strings.HasPrefix(c, "seat") || c == "start":
					rt.Fatalf("%s sent in the middle of a game", c)
				}
			}
		}
		w, h := rapid.IntRange(10, 200).Draw(rt, "w"), rapid.IntRange(3, 60).Draw(rt, "h")
		s := newSim(rt, w, h)
		u.Draw(s, w, h)
	})
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
