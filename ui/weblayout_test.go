package ui

import (
	"testing"

	"aeroplane/engine"
	"aeroplane/web/client"
)

// TestWebLayoutIsTheTerminals: the page's printed board (web/client's
// layout, drawn by web/static/board.js) puts every square, home column,
// hangar slot and launch area in the terminal's cell, so a person who
// plays on both sees one board.
func TestWebLayoutIsTheTerminals(t *testing.T) {
	l := client.BoardLayout()
	if l.Size != gridSize {
		t.Fatalf("web grid %d, terminal %d", l.Size, gridSize)
	}
	at := func(c cell) client.Cell { return client.Cell{X: c.x, Y: c.y} }
	for a := range engine.TrackSquares {
		if got, want := l.Track[a].Cell, at(board.track[a].cell); got != want {
			t.Errorf("square %d: web %v, terminal %v", a, got, want)
		}
		if (l.Track[a].Side == "") != (board.track[a].half == whole) {
			t.Errorf("square %d: web side %q, terminal half %d", a, l.Track[a].Side, board.track[a].half)
		}
	}
	for ci := range engine.NumColours {
		c := engine.Colour(ci)
		k := string(c.Letter())
		for j := 1; j <= engine.HomeLast-engine.TrackEnd; j++ {
			if got, want := l.Home[k][j-1], at(board.home[c][j]); got != want {
				t.Errorf("%s H%d: web %v, terminal %v", k, j, got, want)
			}
		}
		for i := range engine.PlanesPerColour {
			if got, want := l.Hangar[k][i], at(board.hangar[c][i]); got != want {
				t.Errorf("%s hangar %d: web %v, terminal %v", k, i, got, want)
			}
		}
		if got, want := l.Launch[k], at(board.launch[c]); got != want {
			t.Errorf("%s launch: web %v, terminal %v", k, got, want)
		}
	}
	if l.Centre != at(board.centre) {
		t.Errorf("centre: web %v, terminal %v", l.Centre, board.centre)
	}
}
