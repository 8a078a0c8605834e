package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// newSim makes a simulation screen of the given size.
func newSim(t fataler, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	s.Clear()
	return s
}

// screenText is the screen as text, one line per row, trailing spaces cut.
func screenText(s tcell.SimulationScreen) string {
	s.Show()
	cells, w, h := s.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var line strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				continue // the second column of a wide rune
			}
			line.WriteString(string(c.Runes))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// fataler is what test helpers need of testing.T and rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
}
