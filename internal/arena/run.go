package arena

import (
	"fmt"
	"runtime"
	"sync"

	"aeroplane/engine"
)

// Config is a run of many games between the same bots in the same seats.
type Config struct {
	Rules engine.Rules
	Bots  []string // bot kinds in seat order (engine.BotKinds), 2 to 4
	Games int
	Seed  uint64
	// Workers is how many games are played at once; 0 means GOMAXPROCS.
	// The results do not depend on it.
	Workers int
	// Progress, if not nil, is called with the number of games finished so
	// far, from the goroutine that called Run, after every game.
	Progress func(done int)
}

// Seat is how one seat did over a run.
type Seat struct {
	Colour engine.Colour
	Bot    string
	Places []int // Places[k]: games this seat finished in place k (0 is first)
}

// Stats is the outcome of a run.
type Stats struct {
	Games int
	Rules engine.Rules
	Seed  uint64
	Seats []Seat
}

// Run plays cfg.Games games and counts the places of every seat. Game k
// plays the same way whatever the number of workers, so the counts are
// the same too.
func Run(cfg Config) (Stats, error) {
	colours, err := Seats(len(cfg.Bots))
	if err != nil {
		return Stats{}, err
	}
	if cfg.Games < 1 {
		return Stats{}, fmt.Errorf("%d games: want at least 1", cfg.Games)
	}
	for _, kind := range cfg.Bots {
		if _, err := engine.NewBot(kind); err != nil {
			return Stats{}, err
		}
	}
	st := Stats{Games: cfg.Games, Rules: cfg.Rules, Seed: cfg.Seed, Seats: make([]Seat, len(colours))}
	for s, c := range colours {
		st.Seats[s] = Seat{Colour: c, Bot: cfg.Bots[s], Places: make([]int, len(colours))}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)

	// Workers take game numbers from jobs and send back the places; only
	// this goroutine touches st, and addition does not care about order.
	type result struct {
		places []int
		err    error
	}
	jobs := make(chan uint64)
	results := make(chan result, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bots := make([]engine.Bot, len(cfg.Bots))
			for s, kind := range cfg.Bots {
				bots[s], _ = engine.NewBot(kind) // checked above
			}
			for k := range jobs {
				places, err := Game{Rules: cfg.Rules, Bots: bots, Seed: cfg.Seed, Index: k}.Play(nil)
				results <- result{places, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for k := 0; k < cfg.Games; k++ {
			jobs <- uint64(k)
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var firstErr error
	done := 0
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		for s, place := range r.places {
			st.Seats[s].Places[place]++
		}
		done++
		if cfg.Progress != nil {
			cfg.Progress(done)
		}
	}
	if firstErr != nil {
		return Stats{}, firstErr
	}
	return st, nil
}
