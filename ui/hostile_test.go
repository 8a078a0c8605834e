package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"bob", "bob"},
		{"[red]evil[-]", "[[:]red]evil[[:]-]"},
		{`["region"]x[""]`, `[[:]"region"]x[[:]""]`},
		{"[:::]", "[[:]:::]"}, // tview's own escape cannot stop this URL tag
		{"a\x1b[2Jb\x07c", "a[[:]2Jbc"},
		{"line1\nline2\ttab\r", "line1 line2 tab"},
		{"rtl\u202egnp.exe", "rtlgnp.exe"},
		{"zero\u200bwidth\ufeff", "zerowidth"},
		{"\u009b31m c1", "31m c1"},
		{"bad\xffutf8", "badutf8"},
		{"un\U000e069aassigned\ue000", "unassigned"}, // unassigned, private use: drawn as nothing or a box
		{strings.Repeat("x", 40), strings.Repeat("x", maxName) + "…"},
		{"名字很长的玩家名字很长的玩家名字很长", "名字很长的玩家名字很长的玩家名字…"},
	}
	for _, c := range cases {
		if got := clean(c.in, maxName); got != c.want {
			t.Errorf("clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHostileTextOnScreen feeds hostile names, chat and notices through the
// whole interface and checks the screen: the text shows as typed, colour
// tags have no effect, escape and control characters never reach a cell,
// and long lines stay in their panel.
func TestHostileTextOnScreen(t *testing.T) {
	evil := "[fuchsia::b]X[-][\"r\"]\x1b]0;pwned\x07\x1b[2J\u202e"
	long := strings.Repeat("W", 5000)
	u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", engine.DefaultRules())
	tb := table4(true)
	tb.Seats[2].Name = evil
	tb.Seats[2].PeerID = "\x1b[31m" + evil
	u.Apply(tb)
	u.Apply(ChatLine{From: evil, Colour: engine.Yellow, Text: evil + long})
	u.Apply(ChatLine{From: long, Colour: engine.NumColours + 3, Text: "[::u]under"})
	u.Apply(Presence{Colour: engine.Yellow, Name: evil})
	u.Apply(CheatDetected{Name: evil, What: M("log.cheat", evil, evil)})
	u.Apply(Notice{Msg: M("note.failed", evil)})
	u.Apply(DiceWaiting{ToMove: engine.Yellow, Waiting: []string{evil}})
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		s := newSim(t, size[0], size[1])
		u.Draw(s, size[0], size[1])
		text := screenText(s)
		for _, bad := range []rune{'\x1b', '\x07', '\u202e'} {
			if strings.ContainsRune(text, bad) {
				t.Errorf("%v: screen holds %U", size, bad)
			}
		}
		if !strings.Contains(text, "[fuchsia::b]X[-]") || !strings.Contains(text, "[::u]under") {
			t.Errorf("%v: the tags were not shown as typed:\n%s", size, text)
		}
		if strings.Contains(text, strings.Repeat("W", maxChat+1)) {
			t.Errorf("%v: overlong chat not cut", size)
		}
		for _, line := range strings.Split(text, "\n") {
			if utf8.RuneCountInString(line) > size[0] {
				t.Errorf("%v: line wider than the screen: %q", size, line)
			}
		}
		// No cell took the colour the hostile tags ask for.
		cells, _, _ := s.GetContents()
		for i, c := range cells {
			if fg, _, _ := c.Style.Decompose(); fg == tcell.ColorFuchsia {
				t.Errorf("%v: hostile tag coloured cell %d", size, i)
			}
		}
	}
}
