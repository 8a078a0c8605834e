package savegame

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"

	"aeroplane/lockstep"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A person playing at this program beside its owner in a LAN game (hot
// seat) has a node of its own, so files of its own beside the game's:
// game-ID-seat-PEER.log, that node's log (written ahead of its sends, as
// every node's is), and game-ID-seat-PEER.secret, its dice entropy. PEER
// is the seat's peer ID (base58: letters and digits only). Find never
// reads them (it takes game-ID.log only): the owner's game is what a
// restarted program finds, and it takes up each person's seat from these.

func (d *Dir) seatLogPath(gid lockstep.GameID, seat peer.ID) string {
	return d.name(gid, "-seat-"+seat.String()+".log")
}

func (d *Dir) seatSecretPath(gid lockstep.GameID, seat peer.ID) string {
	return d.name(gid, "-seat-"+seat.String()+".secret")
}

// SeatLogPath is where the node of seat, a person hosted by this program
// in game gid, keeps its log.
func (d *Dir) SeatLogPath(gid lockstep.GameID, seat peer.ID) string {
	return d.seatLogPath(gid, seat)
}

// checkSeat refuses a seat that is not a player of setup or whose ID
// would not make a plain file name.
func checkSeat(setup lockstep.Setup, seat peer.ID) error {
	if err := setup.Validate(); err != nil {
		return fmt.Errorf("not saving game %q: %w", setup.Name, err)
	}
	if !slices.Contains(setup.Players(), seat) {
		return fmt.Errorf("not saving game %q: seat %s is not one of its players", setup.Name, lockstep.ShortID(seat))
	}
	for _, r := range seat.String() {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Errorf("not saving game %q: a seat ID of letters and digits, please", setup.Name)
		}
	}
	return nil
}

// CreateSeat starts the files of seat's node in a new game: its secret
// (crypto/rand), then its log, with Create's rules (a log with a record
// is refused, a secret is never replaced and is kept beside an empty log).
func (d *Dir) CreateSeat(setup lockstep.Setup, seat peer.ID) (*Game, error) {
	if err := checkSeat(setup, seat); err != nil {
		return nil, err
	}
	gid := setup.GameID()
	if d.Closed(gid) {
		return nil, fmt.Errorf("game %s was played here before and closed: %w; start a new game", gid, ErrExists)
	}
	g := &Game{Setup: setup}
	secret, err := readSecret(d.seatSecretPath(gid, seat))
	switch {
	case err == nil:
		g.Entropy = secret
	case errors.Is(err, errNoSecret):
		if _, err := rand.Read(g.Entropy[:]); err != nil {
			return nil, fmt.Errorf("drawing the dice entropy: %w", err)
		}
		if err := writeSecret(d.seatSecretPath(gid, seat), g.Entropy); err != nil {
			return nil, fmt.Errorf("game %s: %w (make %s writable, or choose another data directory)", gid, err, d.path)
		}
	default:
		return nil, fmt.Errorf("game %s: %w (move it away to start afresh)", gid, err)
	}
	l, recs, err := OpenLog(d.seatLogPath(gid, seat))
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		l.Close()
		return nil, fmt.Errorf("game %s: the log of seat %s already holds %d records: %w", gid, lockstep.ShortID(seat), len(recs), ErrExists)
	}
	g.Log = l
	return g, nil
}

// ErrNoSeat is wrapped by ResumeSeat's answer for a seat this program
// holds no files of (a web player's: its node and log are in its browser).
var ErrNoSeat = errors.New("no files of that seat here")

// ResumeSeat opens seat's files of a game cut short, to take its node up
// again: its log (torn tail cut) and its secret. A seat with no secret
// here is ErrNoSeat.
func (d *Dir) ResumeSeat(setup lockstep.Setup, seat peer.ID) (*Game, error) {
	if err := checkSeat(setup, seat); err != nil {
		return nil, err
	}
	gid := setup.GameID()
	secret, err := readSecret(d.seatSecretPath(gid, seat))
	switch {
	case errors.Is(err, errNoSecret):
		return nil, fmt.Errorf("seat %s of game %s: %w", lockstep.ShortID(seat), gid, ErrNoSeat)
	case err != nil:
		return nil, fmt.Errorf("game %s: %w (move it away to start afresh)", gid, err)
	}
	l, recs, err := OpenLog(d.seatLogPath(gid, seat))
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		if s, err := lockstep.DecodeSetup(recs[0].Data); err != nil || s.GameID() != gid {
			l.Close()
			return nil, fmt.Errorf("the log of seat %s is of another game (move it away to start afresh)", lockstep.ShortID(seat))
		}
	}
	return &Game{Setup: setup, Entropy: secret, Log: l, Records: recs}, nil
}
