package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/rivo/uniseg"
)

// creatorTable: alice created the game and sits at Red, not ready; bob is
// at Blue, ready; Yellow is open and Green a free colour.
func creatorTable() TableUpdate {
	t := guestTable()
	t.Host = true
	t.Seats[engine.Red], t.Seats[engine.Blue] = t.Seats[engine.Blue], t.Seats[engine.Red]
	t.Seats[engine.Red].Ready = false
	return t
}

func langUI(u *UI, lang string) *UI {
	u.cat = New(u.sess, Options{Lang: lang}).cat
	return u
}

// TestKeyLinesGolden pins the table's key lines, for its creator and a
// guest, in scripts of different widths: every key is shown, on two
// lines where one does not hold them.
func TestKeyLinesGolden(t *testing.T) {
	for _, lang := range []string{"en", "el", "hi", "it", "pt", "ru", "zh"} {
		for _, who := range []string{"creator", "guest"} {
			tab := guestTable()
			if who == "creator" {
				tab = creatorTable()
			}
			u, _ := seatUI(true, tab)
			langUI(u, lang)
			name := "keys-" + who + "-" + lang + "-80x24"
			t.Run(name, func(t *testing.T) {
				checkGolden(t, name, render(t, u, 80, 24))
			})
		}
	}
	u, _ := seatUI(true, creatorTable())
	checkGolden(t, "keys-creator-en-120x40", render(t, u, 120, 40))
}

// TestKeyLinesFitEverywhere: in every language, on every screen, at
// 80×24, each key that works now is on the bottom lines whole, and help
// (?) is on them.
func TestKeyLinesFitEverywhere(t *testing.T) {
	screens := map[string]func() *UI{
		"lobby":   func() *UI { u, _ := lobbyUI(); return u },
		"creator": func() *UI { u, _ := seatUI(true, creatorTable()); return u },
		"guest":   func() *UI { u, _ := seatUI(true, guestTable()); return u },
		"game":    func() *UI { u, _ := choosingUI(t); return u },
		"over": func() *UI {
			u, _ := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
			u.Apply(GameOver{Ranking: []engine.Colour{0, 3, 1, 2}})
			return u
		},
	}
	for _, lang := range []string{"en", "el", "pt", "it", "hi", "ru", "zh"} {
		for name, mk := range screens {
			u := langUI(mk(), lang)
			scr := render(t, u, 80, 24)
			bottom := strings.Split(strings.TrimRight(scr, "\n"), "\n")
			bottom = bottom[len(bottom)-u.keyRows:]
			if u.keyRows > 2 {
				t.Errorf("%s %s: %d key lines at 80×24", lang, name, u.keyRows)
			}
			joined := strings.Join(bottom, "\n")
			keys, _ := u.activeKeys()
			for _, k := range keys {
				if plainKey := stripStyle(k); !strings.Contains(joined, plainKey) {
					t.Errorf("%s %s: key %q is not whole on the key lines:\n%s", lang, name, plainKey, joined)
				}
			}
			if !strings.HasPrefix(bottom[0], "? ") {
				t.Errorf("%s %s: the key lines do not start with help: %q", lang, name, bottom[0])
			}
		}
	}
}

var styleTag = regexp.MustCompile(`\[[a-z:\-]*\]`)

func stripStyle(s string) string { return styleTag.ReplaceAllString(s, "") }

// TestNoticeWraps: a long notice is shown whole, wrapped under the board,
// at both layouts, and still in the notice's colour on its later lines.
func TestNoticeWraps(t *testing.T) {
	text := `your die was rolled for you: the others cannot wait any longer for your share; resuming your game "ann cb3c", cut short after 56 rolls`
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		u, _ := choosingUI(t)
		u.Apply(Notice{Msg: M(text)})
		got := render(t, u, size[0], size[1])
		checkGolden(t, "notice-"+itoa(size[0])+"x"+itoa(size[1]), got)
		flat := strings.Join(strings.Fields(got), " ")
		for _, w := range strings.Fields(text) {
			if !strings.Contains(flat, w) {
				t.Errorf("%v: word %q of the notice is not on screen", size, w)
			}
		}
		if !strings.Contains(flat, "56 rolls") {
			t.Errorf("%v: the end of the notice is cut:\n%s", size, got)
		}
	}
}

// TestTooSmall: below the minimum the game says how big the window must
// be instead of drawing a board that does not fit; at the minimum every
// move is still on the screen.
func TestTooSmall(t *testing.T) {
	u, _ := choosingUI(t)
	got := render(t, u, 60, 20)
	checkGolden(t, "small-60x20", got)
	if !strings.Contains(strings.Join(strings.Fields(got), " "), "at least 78×22") || strings.Contains(got, "r1") {
		t.Errorf("60×20 does not say the minimum, or draws the board:\n%s", got)
	}
	for _, lang := range []string{"en", "el", "pt", "it", "hi", "ru", "zh"} {
		u, _ := choosingUI(t)
		langUI(u, lang)
		// the longest names there may be
		tb := table4(true)
		for c := range tb.Seats {
			if tb.Seats[c].Kind == SeatHuman {
				tb.Seats[c].Name = strings.Repeat("w", maxName)
			}
		}
		u.Apply(tb)
		for _, size := range [][2]int{{minWidth, minHeight}, {80, 24}} {
			got := render(t, u, size[0], size[1])
			for _, mv := range []string{"1) R0x2 13→17", "2) R2 L→3", "3) R3 H→L"} {
				if !strings.Contains(got, mv) {
					t.Errorf("%s %v: move %q is not on screen:\n%s", lang, size, mv, got)
				}
			}
			if strings.Contains(got, "78×22") {
				t.Errorf("%s %v: too-small screen at the minimum", lang, size)
			}
		}
	}
}

var goldenSize = regexp.MustCompile(`-(\d+)x(\d+)\.golden$`)

// TestGoldenWidths: no line of any golden is wider than its screen in
// cells, and every box's sides line up with its corners, in every script.
func TestGoldenWidths(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.golden")
	boxes := 0
	for _, f := range files {
		m := goldenSize.FindStringSubmatch(f)
		if m == nil {
			t.Errorf("%s: no size in the name", f)
			continue
		}
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(lines) != h {
			t.Errorf("%s: %d lines, want %d", f, len(lines), h)
		}
		left, right := -1, -1
		for i, l := range lines {
			if n := uniseg.StringWidth(l); n > w {
				t.Errorf("%s:%d: %d cells wide, screen %d: %q", f, i+1, n, w, l)
			}
			switch {
			case strings.Contains(l, "┌"):
				left, right = cellOf(l, "┌"), cellOf(l, "┐")
				boxes++
			case left >= 0 && strings.Contains(l, "└"):
				if cellOf(l, "└") != left || cellOf(l, "┘") != right {
					t.Errorf("%s:%d: box bottom at %d..%d, top at %d..%d", f, i+1, cellOf(l, "└"), cellOf(l, "┘"), left, right)
				}
				left, right = -1, -1
			case left >= 0:
				if cellAt(l, left) != "│" || cellAt(l, right) != "│" {
					t.Errorf("%s:%d: box sides not at cells %d and %d: %q", f, i+1, left, right, l)
				}
			}
		}
	}
	if boxes < 3 {
		t.Fatalf("only %d boxes in the goldens", boxes)
	}
}

// cellOf is the screen column where s first starts in line l.
func cellOf(l, s string) int {
	i := strings.Index(l, s)
	if i < 0 {
		return -1
	}
	return uniseg.StringWidth(l[:i])
}

// cellAt is the grapheme cluster that starts at screen column x of l.
func cellAt(l string, x int) string {
	g := uniseg.NewGraphemes(l)
	col := 0
	for g.Next() {
		if col == x {
			return g.Str()
		}
		col += g.Width()
		if col > x {
			break
		}
	}
	return ""
}
