package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Bot chooses a move for the side to move. Every peer of a game runs the
// bots of the empty seats in lockstep, so Choose must be a pure function
// of its arguments: the same position, rules, roll, outcomes and seed give
// the same move everywhere.
type Bot interface {
	// Name is the bot's kind as the command line spells it.
	Name() string
	// Choose returns one of outs (which holds at least one outcome; a
	// single Pass or Penalty is returned as is).
	Choose(p *Position, rules Rules, roll int, outs *MoveList, seed uint64) Move
}

var botMakers = map[string]func() Bot{
	"random": func() Bot { return randomBot{} },
}

// registerBot adds a bot kind; each bot's file registers itself.
func registerBot(name string, make func() Bot) { botMakers[name] = make }

// BotKinds lists the bot kinds, sorted.
func BotKinds() []string {
	kinds := make([]string, 0, len(botMakers))
	for k := range botMakers {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// NewBot makes a bot of the named kind.
func NewBot(kind string) (Bot, error) {
	if m, ok := botMakers[kind]; ok {
		return m(), nil
	}
	return nil, fmt.Errorf("bot %q: unknown kind (kinds: %s)", kind, strings.Join(BotKinds(), ", "))
}

// randomBot picks uniformly among the outcomes.
type randomBot struct{}

func (randomBot) Name() string { return "random" }

func (randomBot) Choose(_ *Position, _ Rules, _ int, outs *MoveList, seed uint64) Move {
	r := NewRand(seed)
	return outs.At(r.Intn(outs.Len()))
}
