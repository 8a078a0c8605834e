package arena

import (
	"math"
	"reflect"
	"testing"

	"aeroplane/engine"
)

func bots(t testing.TB, kinds ...string) []engine.Bot {
	t.Helper()
	bs := make([]engine.Bot, len(kinds))
	for i, k := range kinds {
		b, err := engine.NewBot(k)
		if err != nil {
			t.Fatal(err)
		}
		bs[i] = b
	}
	return bs
}

func TestSeats(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{{2, "RY"}, {3, "RBY"}, {4, "RBYG"}}
	for _, tc := range tests {
		cs, err := Seats(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, c := range cs {
			got += string(c.Letter())
		}
		if got != tc.want {
			t.Errorf("Seats(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
	for _, n := range []int{0, 1, 5} {
		if _, err := Seats(n); err == nil {
			t.Errorf("Seats(%d): no error", n)
		}
	}
}

// TestRunIndependentOfWorkers checks that the counts are the same whether
// one worker or several play the games, and equal the sum of the games
// played one by one.
func TestRunIndependentOfWorkers(t *testing.T) {
	kinds := []string{"greedy", "random", "random"}
	const games = 60
	var want Stats
	for i, w := range []int{1, 2, 3, 7} {
		var progress []int
		st, err := Run(Config{Bots: kinds, Games: games, Seed: 42, Workers: w, Progress: func(d int) { progress = append(progress, d) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(progress) != games || progress[games-1] != games {
			t.Errorf("workers %d: progress calls %v, want 1..%d", w, progress, games)
		}
		if i == 0 {
			want = st
			continue
		}
		if !reflect.DeepEqual(st, want) {
			t.Errorf("workers %d: %+v, workers 1: %+v", w, st, want)
		}
	}
	sum := make([][]int, len(kinds))
	for s := range sum {
		sum[s] = make([]int, len(kinds))
	}
	for k := uint64(0); k < games; k++ {
		places, err := Game{Bots: bots(t, kinds...), Seed: 42, Index: k}.Play(nil)
		if err != nil {
			t.Fatal(err)
		}
		for s, p := range places {
			sum[s][p]++
		}
	}
	for s := range sum {
		if !reflect.DeepEqual(sum[s], want.Seats[s].Places) {
			t.Errorf("seat %d: games one by one %v, Run %v", s, sum[s], want.Seats[s].Places)
		}
		total := 0
		for _, n := range want.Seats[s].Places {
			total += n
		}
		if total != games {
			t.Errorf("seat %d placed %d times in %d games", s, total, games)
		}
	}
	for k := range kinds {
		total := 0
		for s := range want.Seats {
			total += want.Seats[s].Places[k]
		}
		if total != games {
			t.Errorf("place %d given %d times in %d games", k, total, games)
		}
	}
}

// TestGameReproducible checks that a game depends only on its seed and
// number, and that watching it does not change it.
func TestGameReproducible(t *testing.T) {
	g := Game{Bots: bots(t, "greedy", "random", "greedy", "random"), Seed: 7, Index: 3}
	var first, second []string
	p1, err := g.Play(func(p Ply) { first = append(first, p.After.String()) })
	if err != nil {
		t.Fatal(err)
	}
	p2, err := g.Play(func(p Ply) { second = append(second, p.After.String()) })
	if err != nil {
		t.Fatal(err)
	}
	p3, err := g.Play(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(p1, p3) {
		t.Fatalf("same game played differently: places %v %v %v, %d and %d plies", p1, p2, p3, len(first), len(second))
	}
	other := g
	other.Index = 4
	var third []string
	if _, err := other.Play(func(p Ply) { third = append(third, p.After.String()) }); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(first, third) {
		t.Error("games 3 and 4 of one seed are identical")
	}
	last := first[len(first)-1]
	if pos, err := engine.ParsePosition(last); err != nil || !pos.GameOver() {
		t.Errorf("last position %q is not a game over (%v)", last, err)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []Config{
		{Bots: []string{"greedy"}, Games: 1},
		{Bots: []string{"greedy", "random", "random", "random", "random"}, Games: 1},
		{Bots: []string{"greedy", "nobody"}, Games: 1},
		{Bots: []string{"greedy", "random"}, Games: 0},
	}
	for _, cfg := range tests {
		if _, err := Run(cfg); err == nil {
			t.Errorf("Run(%+v): no error", cfg)
		}
	}
}

// TestWilson checks the interval against values computed by hand from the
// formula (and published tables) and its behaviour at the edges.
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{1, 20, 0.0089, 0.2361},
		{1844, 2000, 0.9094, 0.9330},
	}
	for _, tc := range tests {
		lo, hi := Wilson(tc.k, tc.n, z95)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	if lo, hi := Wilson(0, 0, z95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
}

func BenchmarkGames(b *testing.B) {
	for _, tc := range []struct {
		name  string
		kinds []string
	}{
		{"random2", []string{"random", "random"}},
		{"greedy2", []string{"greedy", "greedy"}},
		{"random4", []string{"random", "random", "random", "random"}},
		{"greedy4", []string{"greedy", "greedy", "greedy", "greedy"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			g := Game{Bots: bots(b, tc.kinds...), Seed: 1}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.Play(nil); err != nil {
					b.Fatal(err)
				}
				g.Index++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
