package ui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/rivo/tview"
	"github.com/rivo/uniseg"
)

// FuzzClean: whatever a peer sends, the cleaned text has no control or
// format characters, stays within the limit, and tview prints it as the
// plain text (its tags have no effect).
func FuzzClean(f *testing.F) {
	f.Add("[red]x[-]")
	f.Add("\x1b[2J\x07")
	f.Add("a\u202eb")
	f.Fuzz(func(t *testing.T, s string) {
		p := plain(s, maxName)
		if n := utf8.RuneCountInString(p); n > maxName+1 {
			t.Fatalf("%q: %d runes", p, n)
		}
		for _, r := range p {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
				t.Fatalf("%q keeps %U", p, r)
			}
		}
		sim := newSim(t, 40, 1)
		// Printed inside a coloured span, as names are: no tag of the
		// peer's may change the colour, underline or link of any cell.
		tview.Print(sim, "[yellow]"+clean(s, maxName), 0, 0, 40, tview.AlignLeft, tcell.ColorWhite)
		ref := newSim(t, 1, 1)
		tview.Print(ref, "[yellow]x", 0, 0, 1, tview.AlignLeft, tcell.ColorWhite)
		refCells, _, _ := ref.GetContents()
		want := refCells[0].Style
		cells, _, _ := sim.GetContents()
		for x, c := range cells {
			if len(c.Runes) == 0 || c.Runes[0] == ' ' {
				continue
			}
			if c.Style != want {
				t.Fatalf("%q: cell %d %q printed in style %+v, want %+v", p, x, string(c.Runes), c.Style, want)
			}
		}
		// Combining marks may fold into the cell before them, and a cluster
		// that takes no room (a lone emoji modifier or mark) has no cell to
		// be drawn in: compare what takes room on the screen.
		got := strings.TrimRight(noMarks(strings.TrimSuffix(screenText(sim), "\n")), " ")
		if want := strings.TrimRight(noMarks(visible(p)), " "); got != want {
			t.Fatalf("printed %q, want %q", got, want)
		}
	})
}

// visible is s without the grapheme clusters that are zero columns wide.
func visible(s string) string {
	var b strings.Builder
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		if g.Width() > 0 {
			b.WriteString(g.Str())
		}
	}
	return b.String()
}

func noMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) {
			return -1
		}
		return r
	}, s)
}
