package arena

import (
	"fmt"

	"aeroplane/engine"
)

// MaxPlies bounds one game. A real game lasts a few hundred plies; a game
// that reaches this many means a bot never finishes, and is reported as an
// error rather than looping forever.
const MaxPlies = 100000

// Seats is the colours a game with n bots (2 to 4) uses, in seat order.
func Seats(n int) ([]engine.Colour, error) {
	switch n {
	case 2:
		return []engine.Colour{engine.Red, engine.Yellow}, nil
	case 3:
		return []engine.Colour{engine.Red, engine.Blue, engine.Yellow}, nil
	case 4:
		return []engine.Colour{engine.Red, engine.Blue, engine.Yellow, engine.Green}, nil
	}
	return nil, fmt.Errorf("%d bots: a game seats 2 to 4", n)
}

// Ply is one roll of a game as an observer sees it.
type Ply struct {
	N      int // 1 for the first roll of the game
	Before engine.Position
	Roll   int
	Move   engine.Move
	Result engine.Result
	After  engine.Position
}

// Game is one bot game: who sits where, under which rules, with which seed.
type Game struct {
	Rules engine.Rules
	Bots  []engine.Bot // seat order; see Seats
	Seed  uint64       // the run's seed
	Index uint64       // the game's number within the run
}

// gameSeeds derives a game's dice seed and bots' seed from the run seed and
// game number, mixing both through SplitMix64 so that nearby seeds and
// numbers give unrelated games.
func gameSeeds(seed, index uint64) (dice, bots uint64) {
	r := engine.NewRand(seed)
	base := r.Uint64() ^ index*0xd1b54a32d192ed03
	g := engine.NewRand(base)
	return g.Uint64(), g.Uint64()
}

// Play plays the game to its end and returns the finishing place (0 for
// first) of each seat. observe, if not nil, sees every roll.
func (g Game) Play(observe func(Ply)) ([]int, error) {
	seats, err := Seats(len(g.Bots))
	if err != nil {
		return nil, err
	}
	pos, err := engine.NewGame(seats...)
	if err != nil {
		return nil, err
	}
	diceSeed, botSeed := gameSeeds(g.Seed, g.Index)
	dice, botRand := engine.NewRand(diceSeed), engine.NewRand(botSeed)
	var seatOf [engine.NumColours]int
	for s, c := range seats {
		seatOf[c] = s
	}
	var outs engine.MoveList // outside the loop: bots take its address, so it lives on the heap
	for ply := 1; !pos.GameOver(); ply++ {
		if ply > MaxPlies {
			return nil, fmt.Errorf("game %d of seed %d: not over after %d plies", g.Index, g.Seed, MaxPlies)
		}
		roll := dice.Roll()
		outs = pos.Outcomes(g.Rules, roll)
		bot := g.Bots[seatOf[pos.ToMove()]]
		m := bot.Choose(&pos, g.Rules, roll, &outs, botRand.Uint64())
		if observe == nil {
			if !outs.Contains(m) {
				return nil, fmt.Errorf("game %d: bot %s chose %s, not one of %v", g.Index, bot.Name(), m, outs.Slice())
			}
			pos.Apply(g.Rules, roll, m)
			continue
		}
		next, res, err := pos.Play(g.Rules, roll, m)
		if err != nil {
			return nil, fmt.Errorf("game %d: bot %s: %w", g.Index, bot.Name(), err)
		}
		observe(Ply{N: ply, Before: pos, Roll: roll, Move: m, Result: res, After: next})
		pos = next
	}
	places := make([]int, len(seats))
	for place, c := range pos.Ranking() {
		places[seatOf[c]] = place
	}
	return places, nil
}
