package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
	"github.com/gdamore/tcell/v2"
)

// spotText reads what the last draw put on a spot, its lines parted by |.
func spotText(t *testing.T, s tcell.SimulationScreen, l boardLayout, sp trackSpot) string {
	t.Helper()
	s.Show()
	x, y, w, h := l.spotRect(sp)
	cells, sw, _ := s.GetContents()
	var b strings.Builder
	for dy := 0; dy < h; dy++ {
		for dx := 0; dx < w; dx++ {
			b.WriteString(string(cells[(y+dy)*sw+x+dx].Runes))
		}
		b.WriteByte('|')
	}
	return b.String()
}

func redSquare(i int) trackSpot { return board.track[engine.Absolute(engine.Red, i)] }

// TestSelectedMovePath: the selected move shows its plane in parentheses,
// a dot on every square it passes, the stop before its flight and its end
// in brackets, at both sizes; tab moves the whole path to the next move.
func TestSelectedMovePath(t *testing.T) {
	type want struct {
		sp   trackSpot
		text string
	}
	cases := []struct {
		name string
		tabs int
		want []want
	}{
		// R0+R1 on 13 roll 4: 14, 15, 16, land on 17, fly to 29.
		{"stack flies the shortcut", 0, []want{
			{redSquare(13), "(2R)"}, {redSquare(14), pathDot}, {redSquare(15), pathDot},
			{redSquare(16), pathDot}, {redSquare(17), "r" + pathDot}, {redSquare(29), "r]"},
			// the flight along the dashed line, over Yellow's crossing square
			{trackSpot{cell: board.dashes[engine.Red][0]}, pathDot}, {trackSpot{cell: board.dashes[engine.Red][3]}, pathDot},
		}},
		// R2 in the launch area rolls 4: 0, 1, 2, 3.
		{"from the launch area", 1, []want{
			{trackSpot{cell: board.launch[engine.Red]}, "(R2)"}, {redSquare(0), pathDot},
			{redSquare(2), pathDot}, {redSquare(3), "[y"},
		}},
		// R3 taxis from its hangar place to the launch area.
		{"taxi", 2, []want{
			{trackSpot{cell: board.hangar[engine.Red][3]}, "(R3)"}, {trackSpot{cell: board.launch[engine.Red]}, "[R2]"},
		}},
	}
	for _, size := range [][2]int{{80, 24}, {78, 22}, {120, 40}} {
		for _, c := range cases {
			u, _ := choosingUI(t)
			for i := 0; i < c.tabs; i++ {
				u.HandleKey(key(tcell.KeyTab))
			}
			s := newSim(t, size[0], size[1])
			u.Draw(s, size[0], size[1])
			for _, w := range c.want {
				got := spotText(t, s, u.layout.board, w.sp)
				if size[0] >= 120 && w.sp.half != whole {
					continue // a wide corner half shows the number: checked below
				}
				if !strings.Contains(got, w.text) {
					t.Errorf("%v %s: spot %v shows %q, want %q in it", size, c.name, w.sp, got, w.text)
				}
			}
		}
	}
	// Where a frame does not fit (half a wide corner beside a number),
	// the end is still drawn reversed.
	u, _ := choosingUI(t)
	s := newSim(t, 120, 40)
	u.Draw(s, 120, 40)
	s.Show()
	x, y, _, _ := u.layout.board.spotRect(redSquare(29))
	cells, w, _ := s.GetContents()
	if _, _, attr := cells[y*w+x].Style.Decompose(); attr&tcell.AttrReverse == 0 {
		t.Errorf("120×40: the flight's end is not reversed")
	}
}

// TestFlownPathStays: after a move, anybody's, its way stays on the
// board (where it came from, what it passed, where it ended) until the
// next roll.
func TestFlownPathStays(t *testing.T) {
	u, _ := gameUI(t, "H,H,H,H/2,H,H,H/H,H,H,H/H,H,H,H B 0 -", engine.DefaultRules())
	before := u.pos
	after, res, err := before.Play(u.playing, 3, engine.Move{Colour: engine.Blue})
	if err != nil {
		t.Fatal(err)
	}
	u.Apply(Rolled{Colour: engine.Blue, Roll: 3, Moves: []engine.Move{{Colour: engine.Blue}}})
	u.Apply(Moved{Before: before, After: after, Result: res})
	u.Apply(DiceWaiting{ToMove: engine.Yellow, Waiting: []string{"bob"}})
	blue := func(i int) trackSpot { return board.track[engine.Absolute(engine.Blue, i)] }
	// Blue 0 on its 2 (square 15) rolls 3: 3, 4, lands on 5 (its colour), jumps to 9.
	s := newSim(t, 80, 24)
	u.Draw(s, 80, 24)
	for _, w := range []struct {
		sp   trackSpot
		text string
	}{{blue(2), "(15)"}, {blue(3), pathDot}, {blue(4), pathDot}, {blue(5), pathDot + "18" + pathDot}, {blue(9), "[B0]"}} {
		if got := spotText(t, s, u.layout.board, w.sp); !strings.Contains(got, w.text) {
			t.Errorf("after the move: spot %v shows %q, want %q", w.sp, got, w.text)
		}
	}
	checkGolden(t, "flown-80x24", render(t, u, 80, 24))
	u.Apply(Rolled{Colour: engine.Yellow, Roll: 1, Moves: []engine.Move{{Kind: engine.Pass, Colour: engine.Yellow}}})
	s = newSim(t, 80, 24)
	u.Draw(s, 80, 24)
	if got := spotText(t, s, u.layout.board, blue(3)); strings.Contains(got, pathDot) {
		t.Errorf("the next roll left the old path on the board: %q", got)
	}
}

// TestPathGolden pins a game with a selected move showing its plane and
// its path, in every language at 80×24, and at the smallest size drawn.
func TestPathGolden(t *testing.T) {
	for _, lang := range i18n.Languages() {
		u, _ := choosingUI(t)
		langUI(u, lang)
		u.HandleKey(key(tcell.KeyTab)) // R2 from the launch area
		checkGolden(t, "path-"+lang+"-80x24", render(t, u, 80, 24))
	}
	u, _ := choosingUI(t)
	checkGolden(t, "path-en-78x22", render(t, u, 78, 22))
}
