package perf

import (
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/arena"
)

// botGame plays one game with the given bots in arena's seats, the way
// arena and lockstep call them (through the Bot interface), and returns
// its plies.
func botGame(pos engine.Position, rules engine.Rules, bots []engine.Bot, seatOf *[engine.NumColours]int, r *engine.Rand, outs *engine.MoveList) int {
	plies := 0
	for !pos.GameOver() {
		roll := r.Roll()
		*outs = pos.Outcomes(rules, roll)
		m := bots[seatOf[pos.ToMove()]].Choose(&pos, rules, roll, outs, r.Uint64())
		pos.Apply(rules, roll, m)
		plies++
	}
	return plies
}

func botTable(tb testing.TB, kind string, players int) (engine.Position, []engine.Bot, *[engine.NumColours]int) {
	seats, err := arena.Seats(players)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := engine.NewGame(seats...)
	if err != nil {
		tb.Fatal(err)
	}
	var bots []engine.Bot
	seatOf := new([engine.NumColours]int)
	for s, c := range seats {
		bot, err := engine.NewBot(kind)
		if err != nil {
			tb.Fatal(err)
		}
		bots = append(bots, bot)
		seatOf[c] = s
	}
	return pos, bots, seatOf
}

// Every bot game ends, after a plausible number of plies.
func TestBotGameEnds(t *testing.T) {
	for _, kind := range []string{"random", "greedy"} {
		for _, players := range []int{2, 4} {
			pos, bots, seatOf := botTable(t, kind, players)
			r := engine.NewRand(7)
			var outs engine.MoveList
			for range 20 {
				n := botGame(pos, engine.DefaultRules(), bots, seatOf, &r, &outs)
				if n < 20*players || n > arena.MaxPlies {
					t.Fatalf("%s %dp: a game of %d plies", kind, players, n)
				}
			}
		}
	}
}

// BenchmarkBotPlies: whole games between bots of one kind, on one core,
// reported per ply and per game. engine's BenchmarkPlayout is the same for
// random play without the Bot interface; arena's BenchmarkGames adds
// arena's bookkeeping.
func BenchmarkBotPlies(b *testing.B) {
	for _, kind := range []string{"random", "greedy"} {
		for _, players := range []int{2, 4} {
			b.Run(kind+"/"+map[int]string{2: "2p", 4: "4p"}[players], func(b *testing.B) {
				pos, bots, seatOf := botTable(b, kind, players)
				rules := engine.DefaultRules()
				r := engine.NewRand(1)
				var outs engine.MoveList
				plies := 0
				b.ReportAllocs()
				for b.Loop() {
					plies += botGame(pos, rules, bots, seatOf, &r, &outs)
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(sec*1e9/float64(plies), "ns/ply")
				b.ReportMetric(float64(plies)/sec, "plies/s")
				b.ReportMetric(float64(b.N)/sec, "games/s")
				b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
				reportLoad(b)
			})
		}
	}
}
