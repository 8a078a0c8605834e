package savegame

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The players' names of a game (game-ID.names) are kept beside its log so
// a resumed game shows people by name, not by peer ID: the Setup holds
// only IDs, and after a crash no lobby tells the names again. The file is
// public, one "peer-ID<TAB>name" line per player; it is read bounded
// (maxNamesFile bytes, maxNamesLines lines) and a line that is not a peer
// ID and a printable name of at most maxSavedName bytes is skipped, so a
// damaged file costs names, never the game.
const (
	maxNamesFile  = 16 << 10
	maxNamesLines = 16
	maxSavedName  = 64
)

func (d *Dir) namesPath(gid lockstep.GameID) string { return d.name(gid, ".names") }

// SaveNames records the names of game gid's players, and of the
// newcomers also given, who took seats in it later (names of other
// peers are left out).
func (d *Dir) SaveNames(setup lockstep.Setup, names map[peer.ID]string, also ...peer.ID) error {
	return d.saveNames(d.namesPath(setup.GameID()), setup, names, also...)
}

// SaveNamesBeside is SaveNames for the game whose log this directory
// wrote at logPath (a newcomer's game-take-… log has its own name): the
// names go beside it, where verify and replay look.
func (d *Dir) SaveNamesBeside(logPath string, setup lockstep.Setup, names map[peer.ID]string, also ...peer.ID) error {
	if filepath.Dir(logPath) != d.path || !strings.HasSuffix(logPath, ".log") {
		return fmt.Errorf("saving the players' names: %s is not a game log of %s", logPath, d.path)
	}
	return d.saveNames(strings.TrimSuffix(logPath, ".log")+".names", setup, names, also...)
}

func (d *Dir) saveNames(path string, setup lockstep.Setup, names map[peer.ID]string, also ...peer.ID) error {
	var b bytes.Buffer
	for _, id := range append(setup.Players(), also...) {
		if n := names[id]; validSavedName(n) {
			fmt.Fprintf(&b, "%s\t%s\n", id, n)
		}
	}
	if err := writeFileSync(path, b.Bytes(), os.O_TRUNC, 0o644); err != nil {
		return fmt.Errorf("saving the players' names of game %s: %w", setup.GameID(), err)
	}
	return nil
}

// Names are the names SaveNames recorded for game gid (empty if none).
func (d *Dir) Names(gid lockstep.GameID) map[peer.ID]string { return d.namesAt(d.namesPath(gid)) }

// NamesBeside are the names saved beside the game log at logPath
// (SaveNamesBeside: a newcomer's game-take-… log has its own), empty if
// none or if logPath is no game log of this directory.
func (d *Dir) NamesBeside(logPath string) map[peer.ID]string {
	if filepath.Dir(logPath) != d.path || !strings.HasSuffix(logPath, ".log") {
		return map[peer.ID]string{}
	}
	return d.namesAt(strings.TrimSuffix(logPath, ".log") + ".names")
}

func (d *Dir) namesAt(path string) map[peer.ID]string {
	f, err := os.Open(path)
	if err != nil {
		return map[peer.ID]string{}
	}
	defer f.Close()
	return ParseNames(io.LimitReader(f, maxNamesFile))
}

// ParseNames reads a names file, skipping what is not a valid line.
func ParseNames(r io.Reader) map[peer.ID]string {
	out := map[peer.ID]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxNamesFile)
	for lines := 0; lines < maxNamesLines && sc.Scan(); lines++ {
		idText, name, ok := strings.Cut(sc.Text(), "\t")
		if !ok || !validSavedName(name) {
			continue
		}
		id, err := peer.Decode(idText)
		if err != nil {
			continue
		}
		out[id] = name
	}
	return out
}

func validSavedName(n string) bool {
	if n == "" || len(n) > maxSavedName || !utf8.ValidString(n) {
		return false
	}
	for _, r := range n {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
