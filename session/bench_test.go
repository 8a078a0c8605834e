package session

import (
	"testing"

	"aeroplane/engine"
	"aeroplane/ui"
)

// BenchmarkLocalGame is one whole local game (Red by script, three random
// bots) through ui.Session: protocol, signatures and fsync'd log included.
func BenchmarkLocalGame(b *testing.B) {
	dir := b.TempDir()
	rolls := 0
	for b.Loop() {
		s, err := NewLocal(LocalOptions{Name: "Ann", DataDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		s.CreateGame(engine.DefaultRules())
		for _, c := range []engine.Colour{engine.Blue, engine.Yellow, engine.Green} {
			s.SetSeat(c, "random")
		}
		if err := s.Start(); err != nil {
			b.Fatal(err)
		}
		for e := range s.Events() {
			switch e := e.(type) {
			case ui.DiceWaiting:
				if e.YouRoll {
					s.Roll()
				}
			case ui.Rolled:
				rolls++
				if e.YouChoose {
					s.Choose(e.Moves[0])
				}
			case ui.GameOver:
				s.Close()
			}
		}
	}
	b.ReportMetric(float64(rolls)/float64(b.N), "rolls/game")
}
