package engine

import (
	"path/filepath"
	"testing"

	"aeroplane/internal/testkit"
)

// TestBoardGolden compares Position.Board() with testdata/board/*.golden;
// run `go test ./engine -run TestBoardGolden -update` after a deliberate
// change of the drawing and review the diff.
func TestBoardGolden(t *testing.T) {
	for _, tc := range []struct{ name, pos string }{
		{"start4", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"},
		{"start2", "H,H,H,H/-/H,H,H,H/- R 0 -"},
		{"midgame", "L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 1:1 -"},
		{"crowded", "3,3,3,3/45,45,45,H/32,32,32,32/19,H,H,H R 2:0123 -"},
		{"gameover", "F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mustParse(t, tc.pos).Board()
			path := filepath.Join("testdata", "board", tc.name+".golden")
			testkit.Golden(t, path, []byte(got))
		})
	}
}
