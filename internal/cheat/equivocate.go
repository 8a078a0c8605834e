package cheat

import "aeroplane/engine"

// equivocate signs two different moves under one sequence number and sends
// each to a different half of the table, as a cheater trying to show each
// friend the outcome that suits it.
func (p *Peer) equivocate(m *Msg) {
	seq := m.Seq
	var alt *Msg
	for _, mv := range p.state.Moves {
		w := Move{uint8(mv.Kind), uint8(mv.Colour), mv.Plane}
		if w != m.Move {
			c := *m
			c.Move = w
			alt = &c
			break
		}
	}
	if alt == nil {
		raw, err := p.append(m)
		if err == nil {
			p.nodeWire[seq] = raw
			p.send("", raw)
		}
		return
	}
	alt.Game, alt.From, alt.Seq, alt.Prev = p.gid, p.self, uint64(len(p.wire))+1, p.wirePrev
	rawB, _, err := alt.Seal(p.cfg.Key)
	if err != nil {
		return
	}
	rawA, err := p.append(m)
	if err != nil {
		return
	}
	p.nodeWire[seq] = rawA
	others := p.others()
	for i, id := range others {
		if i < (len(others)+1)/2 {
			p.send(id, rawA)
		} else {
			p.send(id, rawB)
		}
	}
	a := engine.Move{Kind: engine.MoveKind(m.Move.Kind), Colour: engine.Colour(m.Move.Colour), Plane: m.Move.Plane}
	b := engine.Move{Kind: engine.MoveKind(alt.Move.Kind), Colour: engine.Colour(alt.Move.Colour), Plane: alt.Move.Plane}
	p.done("equivocation", "signed %s and %s as message %d", a, b, alt.Seq)
}
