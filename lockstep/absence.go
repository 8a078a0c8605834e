package lockstep

func (g *game) onTick() {}

func (g *game) onVote(p *player, m *message) {}
