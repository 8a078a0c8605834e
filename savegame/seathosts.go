package savegame

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The seat hosts of a game (game-ID.seathosts) are kept beside its log:
// which program hosts each seat whose key lives elsewhere (a web player,
// lobby.Result.SeatHosts), so that a program resumed after a crash takes
// that seat's frames from its host again, and a serving program relays
// them again. Public, one "seat<TAB>program" line per hosted seat, read
// bounded like the names file; a line that is not two peer IDs, or names
// a seat outside the setup, is skipped.
func (d *Dir) seatHostsPath(gid lockstep.GameID) string { return d.name(gid, ".seathosts") }

// SaveSeatHosts records game setup's seat hosts (nothing for none).
func (d *Dir) SaveSeatHosts(setup lockstep.Setup, hosts map[peer.ID]peer.ID) error {
	if len(hosts) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, id := range setup.Players() {
		if h, ok := hosts[id]; ok && h != "" {
			fmt.Fprintf(&b, "%s\t%s\n", id, h)
		}
	}
	if err := writeFileSync(d.seatHostsPath(setup.GameID()), b.Bytes(), os.O_TRUNC, 0o644); err != nil {
		return fmt.Errorf("saving the seat hosts of game %s: %w", setup.GameID(), err)
	}
	return nil
}

// SeatHosts are the seat hosts SaveSeatHosts recorded for setup's game
// (nil if none).
func (d *Dir) SeatHosts(setup lockstep.Setup) map[peer.ID]peer.ID {
	f, err := os.Open(d.seatHostsPath(setup.GameID()))
	if err != nil {
		return nil
	}
	defer f.Close()
	return ParseSeatHosts(io.LimitReader(f, maxNamesFile), setup.Players())
}

// ParseSeatHosts reads a seat hosts file: only lines of seats among
// players, each hosted by another of them or by a program outside the
// setup, count.
func ParseSeatHosts(r io.Reader, players []peer.ID) map[peer.ID]peer.ID {
	var out map[peer.ID]peer.ID
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxNamesFile)
	for lines := 0; lines < maxNamesLines && sc.Scan(); lines++ {
		seatText, hostText, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		seat, err1 := peer.Decode(seatText)
		host, err2 := peer.Decode(hostText)
		if err1 != nil || err2 != nil || seat == host || !slices.Contains(players, seat) {
			continue
		}
		if out == nil {
			out = map[peer.ID]peer.ID{}
		}
		out[seat] = host
	}
	return out
}
