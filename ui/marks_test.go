package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
)

// corners: a Red stack and a Blue plane on the two halves of one corner
// square, a Yellow plane alone on the right half of another and a Red one
// on the left half of a third, a Green stack of three,
// three Blue planes in Blue's launch area and four planes at the centre.
const corners = "3,3,30,F/43,L,L,L/43,H,F,F/23,23,23,F G 0 -"

// TestBoardMarksGolden pins the board's notation at both sizes.
func TestBoardMarksGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		u, _ := gameUI(t, corners, engine.DefaultRules())
		checkGolden(t, "marks-"+itoa(size[0])+"x"+itoa(size[1]), render(t, u, size[0], size[1]))
	}
}

// TestBoardMarks: each spot's text, read off the screen, is the one
// notation: a letter first is one plane, a number first a count, and the
// texts of neighbouring spots never touch.
func TestBoardMarks(t *testing.T) {
	rules := engine.DefaultRules()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		u, _ := gameUI(t, corners, rules)
		s := newSim(t, size[0], size[1])
		u.Draw(s, size[0], size[1])
		s.Show()
		l := u.layout.board
		text := func(sp trackSpot) string {
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
		has := func(what string, sp trackSpot, want string) {
			t.Helper()
			if got := text(sp); !strings.Contains(got, want) {
				t.Errorf("%v %s: spot shows %q, want %q in it", size, what, got, want)
			}
		}
		has("Red stack beside a Blue plane", board.track[3], "R")
		has("Blue plane beside a Red stack", board.track[4], "B")
		has("Yellow plane alone on half a corner", board.track[17], "Y0")
		has("Red plane alone on half a corner", board.track[30], "R2")
		has("Green stack", board.track[10], "3G")
		has("Blue's launch area", trackSpot{cell: board.launch[engine.Blue]}, "3L")
		has("centre", trackSpot{cell: board.centre}, "✓4")
		// The two halves of a corner keep a blank between their texts,
		// and the corner's texts keep one from the squares beside it.
		for _, a := range []int{3, 16, 29} {
			x, y, w, _ := l.spotRect(trackSpot{cell: board.track[a].cell})
			cells, sw, _ := s.GetContents()
			row := ""
			for dx := -1; dx <= w; dx++ {
				row += string(cells[y*sw+x+dx].Runes)
			}
			if !strings.Contains(strings.TrimSpace(row), " ") {
				t.Errorf("%v: the halves of corner square %d run together: %q", size, a, row)
			}
			if l.ch == 1 && (!strings.HasPrefix(row, " ") || !strings.HasSuffix(row, " ")) {
				t.Errorf("%v: corner square %d touches its neighbours: %q", size, a, row)
			}
		}
	}
}
