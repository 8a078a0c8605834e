package client

import (
	"aeroplane/engine"
	"aeroplane/lockstep"
)

// layout is the printed board, laid out once.
var layout = BoardLayout()

// RollShown is a roll as the dice panel shows it.
type RollShown struct {
	Colour string `json:"colour"`
	Value  int    `json:"value"` // 1..6
}

// Spot is a place on the printed board: a track square (Square ≥ 0, which
// tells an inner corner's two triangles apart) or a cell (Square -1).
type Spot struct {
	Square int `json:"square"`
	Cell
}

// MoveShown is a move just played and the way its plane took, in order:
// where it stood, every square the roll's steps passed (to the centre
// and back on a bounce), then each square a jump or a flight took it
// to. A pass or a penalty has no path.
type MoveShown struct {
	Move string `json:"move"`
	Roll int    `json:"roll"`
	Path []Spot `json:"path,omitempty"`
}

// Target is one move the local player may choose and where its plane
// would land.
type Target struct {
	Move  string `json:"move"`
	Plane string `json:"plane"` // colour letter and index, as Plane's data-plane ("Y2")
	To    Spot   `json:"to"`
}

// BoardAfter is the board of a Ready: the position, the last roll and
// move among its events (nil when it has none: the page keeps the ones
// it showed), and the player's choices when it must choose. ok is false
// before the game has a position (the setup's Readies).
func BoardAfter(rd lockstep.Ready, rules engine.Rules) (b Board, ok bool) {
	b, err := BoardOf(rd.State.Pos.String())
	if err != nil {
		return Board{}, false
	}
	for _, e := range rd.Events {
		switch e.Kind {
		case lockstep.EventRolled:
			b.Roll = &RollShown{Colour: string(e.Colour.Letter()), Value: e.Value}
		case lockstep.EventMoved:
			b.Moved = &MoveShown{Move: e.Move.String(), Roll: e.Result.Roll, Path: MovePath(e.Result)}
		}
	}
	if rd.State.Phase == lockstep.PhaseMove && len(rd.State.Moves) > 0 {
		b.Targets = Targets(rd.State.Pos, rules, rd.State.Value, rd.State.Moves)
	}
	return b, true
}

// MovePath is the way the move of res took (MoveShown.Path).
func MovePath(res engine.Result) []Spot {
	m := res.Move
	if m.Kind != engine.PlaneMove {
		return nil
	}
	c, i := m.Colour, int(m.Plane)
	spot := func(p engine.Place) Spot {
		sq, cell := layout.PlaceCell(c, i, p)
		return Spot{Square: sq, Cell: cell}
	}
	path := []Spot{spot(res.From)}
	if res.From == engine.Hangar {
		return append(path, spot(engine.Launch))
	}
	at := res.From
	for range res.Roll {
		if at == engine.Finished {
			break
		}
		at++
		path = append(path, spot(at))
	}
	if res.Bounced {
		for at > res.Landed {
			at--
			path = append(path, spot(at))
		}
	}
	for _, p := range []engine.Place{res.JumpTo, res.FlyTo, res.FlyJumpTo} {
		if p >= 0 {
			path = append(path, spot(p))
		}
	}
	if end := spot(res.To); path[len(path)-1] != end {
		path = append(path, end) // a third six's penalty, a capture's return: never, but the path ends where the plane is
	}
	return path
}

// Targets are moves with where each lands, on pos with roll value.
func Targets(pos engine.Position, rules engine.Rules, value int, moves []engine.Move) []Target {
	var ts []Target
	for _, m := range moves {
		if m.Kind != engine.PlaneMove {
			continue
		}
		_, res, err := pos.Play(rules, value, m)
		if err != nil {
			continue
		}
		sq, cell := layout.PlaceCell(m.Colour, int(m.Plane), res.To)
		ts = append(ts, Target{Move: m.String(), Plane: string(m.Colour.Letter()) + string(rune('0'+m.Plane)), To: Spot{Square: sq, Cell: cell}})
	}
	return ts
}
