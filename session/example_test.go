package session_test

import (
	"fmt"
	"os"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/session"
	"aeroplane/ui"
)

// A person against one bot, driven through ui.Session as the interface
// drives it; the saved log verifies as `aeroplane verify` checks it.
func ExampleNewLocal() {
	dir, _ := os.MkdirTemp("", "aeroplane-example")
	defer os.RemoveAll(dir)
	s, err := session.NewLocal(session.LocalOptions{Name: "Ann", DataDir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	s.CreateGame(engine.DefaultRules())
	s.SetSeat(engine.Blue, "")
	s.SetSeat(engine.Yellow, "random")
	s.SetSeat(engine.Green, "")
	s.Start()
	for e := range s.Events() {
		switch e := e.(type) {
		case ui.DiceWaiting:
			if e.YouRoll {
				s.Roll()
			}
		case ui.Rolled:
			if e.YouChoose {
				s.Choose(e.Moves[0])
			}
		case ui.GameOver:
			data, _ := os.ReadFile(e.LogPath)
			v, err := lockstep.Verify(data)
			fmt.Println("finished:", len(e.Ranking) == 2, "verified:", err == nil && v.Phase == lockstep.PhaseOver)
			s.Close()
		}
	}
	// Output: finished: true verified: true
}
