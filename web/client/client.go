package client

import (
	"crypto/rand"
	"fmt"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Perft counts roll-and-choice sequences of the position in notation pos
// under the rules text (engine.ParseRules; "" is the defaults), as
// `aeroplane perft` does: the shared vectors' check that the engine
// running in the browser plays by the same rules.
func Perft(rules, pos string, depth int) (uint64, error) {
	r, err := engine.ParseRules(rules)
	if err != nil {
		return 0, fmt.Errorf("rules: %w", err)
	}
	p, err := engine.ParsePosition(pos)
	if err != nil {
		return 0, fmt.Errorf("position: %w", err)
	}
	if depth < 0 || depth > MaxPerftDepth {
		return 0, fmt.Errorf("depth %d: want 0..%d", depth, MaxPerftDepth)
	}
	return engine.Perft(p, r, depth), nil
}

// MaxPerftDepth is `aeroplane perft`'s bound: a typo must not start a
// count that never ends (it grows about sevenfold per ply).
const MaxPerftDepth = 12

// Identity is the browser player's key: an Ed25519 libp2p key, so its
// peer ID is formed as every other player's and lockstep checks its
// signatures the same way.
type Identity struct {
	key crypto.PrivKey
	ID  peer.ID
	// moves counts the seat moves it signs (seatmove.go).
	moves moveCounter
}

// NewIdentity makes a fresh key from crypto/rand (the browser's
// getRandomValues under js/wasm).
func NewIdentity() (*Identity, error) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making the browser's key: %w", err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("making the browser's peer ID: %w", err)
	}
	return &Identity{key: key, ID: id}, nil
}

func readRandom(b []byte) error {
	if _, err := rand.Read(b); err != nil {
		return fmt.Errorf("the browser's random source: %w", err)
	}
	return nil
}

// Sign signs data with the browser's key.
func (i *Identity) Sign(data []byte) ([]byte, error) { return i.key.Sign(data) }

// Plane is one plane as the board draws it.
type Plane struct {
	Colour string `json:"colour"` // R, B, Y or G
	Index  int    `json:"index"`  // 0..3
	Place  string `json:"place"`  // H, L, 0..54 or F (engine.Place.String)
	// Square is the absolute track square 0..51 of a plane on the common
	// track, -1 elsewhere (hangar, launch, home column, centre).
	Square int `json:"square"`
	Cell       // where it stands on the printed board (BoardLayout)
}

// Board is a position as the page draws it.
type Board struct {
	ToMove string  `json:"toMove"` // R, B, Y, G or "-" once the game is over
	Planes []Plane `json:"planes"`
	// Track is each absolute square's colour letter, 0..51 clockwise.
	Track string `json:"track"`
	// Roll is the last roll seen and Moved the last move played, with the
	// way it took (BoardAfter; nil in BoardOf's board).
	Roll  *RollShown `json:"roll,omitempty"`
	Moved *MoveShown `json:"moved,omitempty"`
	// Targets are the local player's moves to choose from, each with the
	// place its plane lands on (tapping the plane or that square plays it).
	Targets []Target `json:"targets,omitempty"`
}

// BoardOf reads a position in notation and lays it out for drawing.
func BoardOf(pos string) (Board, error) {
	p, err := engine.ParsePosition(pos)
	if err != nil {
		return Board{}, fmt.Errorf("position: %w", err)
	}
	b := Board{ToMove: string(p.ToMove().Letter())}
	track := make([]byte, engine.TrackSquares)
	for a := range track {
		track[a] = engine.SquareColour(a).Letter()
	}
	b.Track = string(track)
	for _, c := range p.Colours() {
		for i := range engine.PlanesPerColour {
			pl := p.Plane(c, i)
			sq, cell := layout.PlaceCell(c, i, pl)
			b.Planes = append(b.Planes, Plane{Colour: string(c.Letter()), Index: i, Place: pl.String(), Square: sq, Cell: cell})
		}
	}
	return b, nil
}

// StartPosition is the opening position of a game of the given colours
// (letters, e.g. "RY"), in notation.
func StartPosition(colours string) (string, error) {
	var cs []engine.Colour
	for i := range len(colours) {
		c, err := engine.ParseColour(colours[i : i+1])
		if err != nil {
			return "", err
		}
		cs = append(cs, c)
	}
	p, err := engine.NewGame(cs...)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}
