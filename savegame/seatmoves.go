package savegame

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"aeroplane/lockstep"
)

// The seat moves of a game (game-ID.seatmoves) are kept beside its log:
// the last statement each web player signed to move its seat to another
// program (web/client.SeatMove), as it came. A program resumed after a
// crash checks them again and holds their counters, so an older
// statement replayed to it cannot move a seat back. Public, one hex line
// per statement, read bounded like the names file; savegame does not
// read the statements (the session checks them), it only keeps at most
// maxSeatMoves of at most maxSeatMoveHex characters.
func (d *Dir) seatMovesPath(gid lockstep.GameID) string { return d.name(gid, ".seatmoves") }

const (
	maxSeatMoves   = maxNamesLines
	maxSeatMoveHex = 2 << 10
)

// SaveSeatMoves records game gid's seat moves, replacing those saved.
func (d *Dir) SaveSeatMoves(gid lockstep.GameID, stmts [][]byte) error {
	if len(stmts) > maxSeatMoves {
		return fmt.Errorf("saving the seat moves of game %s: %d of them, limit %d", gid, len(stmts), maxSeatMoves)
	}
	var b bytes.Buffer
	for _, s := range stmts {
		if 2*len(s) > maxSeatMoveHex {
			return fmt.Errorf("saving the seat moves of game %s: a statement of %d bytes", gid, len(s))
		}
		b.WriteString(hex.EncodeToString(s))
		b.WriteByte('\n')
	}
	if err := writeFileSync(d.seatMovesPath(gid), b.Bytes(), os.O_TRUNC, 0o644); err != nil {
		return fmt.Errorf("saving the seat moves of game %s: %w", gid, err)
	}
	return nil
}

// SeatMoves are the statements SaveSeatMoves recorded for game gid (nil
// if none).
func (d *Dir) SeatMoves(gid lockstep.GameID) [][]byte {
	f, err := os.Open(d.seatMovesPath(gid))
	if err != nil {
		return nil
	}
	defer f.Close()
	return ParseSeatMoves(io.LimitReader(f, maxNamesFile))
}

// ParseSeatMoves reads a seat moves file: lines that are not hex, or too
// long, are skipped.
func ParseSeatMoves(r io.Reader) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxNamesFile)
	for lines := 0; lines < maxSeatMoves && sc.Scan(); lines++ {
		line := sc.Bytes()
		if len(line) == 0 || len(line) > maxSeatMoveHex {
			continue
		}
		s, err := hex.DecodeString(string(line))
		if err != nil {
			continue
		}
		out = append(out, s)
	}
	return out
}
