package arena_test

import (
	"fmt"

	"aeroplane/internal/arena"
)

// A greedy bot in Red against a random one in Yellow. The counts are the
// same on every machine and for any number of workers.
func ExampleRun() {
	st, err := arena.Run(arena.Config{Bots: []string{"greedy", "random"}, Games: 200, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for s, seat := range st.Seats {
		lo, hi := st.Interval(s, 0)
		fmt.Printf("%c %-6s won %3d of %d: %.0f%% [%.0f%%, %.0f%%]\n",
			seat.Colour.Letter(), seat.Bot, seat.Places[0], st.Games, 100*st.WinRate(s), 100*lo, 100*hi)
	}
	// Output:
	// R greedy won 185 of 200: 92% [88%, 95%]
	// Y random won  15 of 200: 8% [5%, 12%]
}
