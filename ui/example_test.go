package ui

import (
	"fmt"

	"aeroplane/engine"
)

// A solo session seats the person at Red and bots elsewhere; the first
// event after the start that asks for something is the person's roll.
func ExampleNewSolo() {
	s := NewSolo(SoloOptions{Name: "mei", Seed: 1})
	defer s.Close()
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		fmt.Println(err)
	}
	if err := s.Start(); err != nil {
		fmt.Println(err)
	}
	for e := range s.Events() {
		switch e := e.(type) {
		case TableUpdate:
			bots := 0
			for _, seat := range e.Seats {
				if seat.Kind == SeatBot {
					bots++
				}
			}
			fmt.Println(e.Seats[0].Name, "and", bots, "bots, started:", e.Started)
		case DiceWaiting:
			fmt.Println("waiting for", e.Waiting, "to roll; is it me?", e.YouRoll)
			return
		}
	}
	// Output:
	// mei and 3 bots, started: false
	// mei and 3 bots, started: true
	// waiting for [mei] to roll; is it me? true
}
