package savegame

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"aeroplane/lockstep"
)

// The seat moves saved for a game come back for it as they were saved,
// the last save replacing the one before; another game has none.
func TestSeatMovesRoundTrip(t *testing.T) {
	d := openDir(t)
	gid := lockstep.GameID{4, 2}
	for _, stmts := range [][][]byte{{[]byte("first move")}, {[]byte("a"), {0, 1, 2, 0xff}}} {
		if err := d.SaveSeatMoves(gid, stmts); err != nil {
			t.Fatal(err)
		}
		if got := d.SeatMoves(gid); !slices.EqualFunc(got, stmts, bytes.Equal) {
			t.Errorf("saved %q, got %q", stmts, got)
		}
	}
	if got := d.SeatMoves(lockstep.GameID{9}); got != nil {
		t.Errorf("a game never saved has seat moves %q", got)
	}
	if err := d.SaveSeatMoves(gid, [][]byte{make([]byte, maxSeatMoveHex)}); err == nil {
		t.Error("an oversized statement saved")
	}
	if err := d.SaveSeatMoves(gid, make([][]byte, maxSeatMoves+1)); err == nil {
		t.Error("too many statements saved")
	}
}

// A seat moves file, however damaged, never panics and yields at most
// maxSeatMoves statements of bounded size.
func FuzzParseSeatMoves(f *testing.F) {
	f.Add("0102ff\nzz\n\n" + strings.Repeat("ab", 3000) + "\n")
	f.Add(strings.Repeat("00\n", 40))
	f.Fuzz(func(t *testing.T, s string) {
		got := ParseSeatMoves(strings.NewReader(s))
		if len(got) > maxSeatMoves {
			t.Fatalf("%d statements", len(got))
		}
		for _, m := range got {
			if 2*len(m) > maxSeatMoveHex {
				t.Fatalf("a statement of %d bytes", len(m))
			}
		}
	})
}
