package ui

import "aeroplane/engine"

// stepsOf cuts a move into what a player should see one after the other:
// the group landing where its roll ends (capturing there), then each jump
// and flight with its captures, then the position after the move.
func stepsOf(before, after *engine.Position, rules engine.Rules, res engine.Result) []boardModel {
	final := modelOf(after, rules)
	if res.Move.Kind != engine.PlaneMove {
		return []boardModel{final}
	}
	mover := res.Move.Colour
	m := modelOf(before, rules)
	var out []boardModel
	step := func(to engine.Place, flight bool) {
		for j := 0; j < engine.PlanesPerColour; j++ {
			if res.Group&(1<<j) != 0 {
				m.planes[mover][j] = to
			}
		}
		for _, c := range res.Captures[:res.NCaptures] {
			if capturedAt(c, mover, to, flight) {
				m.planes[c.Colour][c.Plane] = engine.Hangar
			}
		}
		s := m
		s.target = &mark{mover, to}
		out = append(out, s)
	}
	step(res.Landed, false)
	if res.JumpTo >= 0 {
		step(res.JumpTo, false)
	}
	if res.FlyTo >= 0 {
		step(res.FlyTo, true)
	}
	if res.FlyJumpTo >= 0 {
		step(res.FlyJumpTo, false)
	}
	return append(out, final)
}

// capturedAt reports whether capture c happened when the mover reached
// route index at (a flight also sweeps the opposite colour's crossing square).
func capturedAt(c engine.Capture, mover engine.Colour, at engine.Place, flight bool) bool {
	if c.From == engine.CrossingHome {
		return flight
	}
	if at < 0 || at > engine.TrackEnd {
		return false
	}
	return engine.Absolute(c.Colour, int(c.From)) == engine.Absolute(mover, int(at))
}
