package session

import (
	"flag"
	"os"
	"reflect"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"pgregory.net/rapid"
)

// Whatever a person presses, in any order, a local session never breaks:
// a refused command changes nothing, an accepted one is what the state
// allowed, and the log on disk verifies as far as the game went.
//
// The default run checks 30 random command sequences, the long form
// (testkit.Long) rapid's 100 (under -race on a loaded machine, 100 took
// 109 s); -rapid.checks given on the command line decides over both.
func TestLocalAnyCommandsProperty(t *testing.T) {
	if f := flag.Lookup("rapid.checks"); f != nil && !testkit.Long() && !flagGiven("rapid.checks") {
		was := f.Value.String()
		if err := f.Value.Set("30"); err != nil {
			t.Fatal(err)
		}
		defer f.Value.Set(was)
	}
	base := t.TempDir()
	var rolls, chosen, logs int
	defer func() { t.Logf("accepted %d rolls and %d choices; verified %d logs", rolls, chosen, logs) }()
	rapid.Check(t, func(rt *rapid.T) {
		dir, err := os.MkdirTemp(base, "p")
		if err != nil {
			rt.Fatal(err)
		}
		s, err := NewLocal(LocalOptions{Name: "Ann", DataDir: dir})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() {
			s.Close()
			for range s.Events() {
			}
		}()
		kinds := append([]string{""}, engine.BotKinds()...)
		moves := []engine.Move{{Kind: engine.Pass}, {Kind: engine.Penalty}}
		for c := range engine.NumColours {
			for p := range uint8(engine.PlanesPerColour) {
				moves = append(moves, engine.Move{Kind: engine.PlaneMove, Colour: engine.Colour(c), Plane: p})
			}
		}
		n := rapid.IntRange(1, 60).Draw(rt, "commands")
		for range n {
			before := s.probe()
			var err error
			op := rapid.IntRange(0, 7).Draw(rt, "op")
			switch op {
			case 0:
				err = s.CreateGame(engine.DefaultRules())
			case 1:
				c := engine.Colour(rapid.IntRange(0, engine.NumColours).Draw(rt, "seat"))
				k := rapid.SampledFrom(kinds).Draw(rt, "kind")
				if k == "expert" || k == "rollout" {
					k = "greedy" // keeps each check fast; the search bots are tested in engine
				}
				err = s.SetSeat(c, k)
			case 2:
				err = s.Start()
			case 3:
				err = s.Roll()
				if err == nil {
					rolls++
				}
				if (err == nil) != before.canRoll {
					rt.Fatalf("Roll: %v, but the state allowed a roll: %v", err, before.canRoll)
				}
			case 4:
				m := rapid.SampledFrom(moves).Draw(rt, "move")
				err = s.Choose(m)
				offered := false
				for _, x := range before.choices {
					offered = offered || x == m
				}
				if (err == nil) != offered {
					rt.Fatalf("Choose %v: %v, offered %v", m, err, before.choices)
				}
			case 5:
				if len(before.choices) > 0 {
					err = s.Choose(before.choices[rapid.IntRange(0, len(before.choices)-1).Draw(rt, "pick")])
					if err != nil {
						rt.Fatalf("Choose an offered move: %v", err)
					}
					chosen++
				}
			case 6:
				err = s.Rematch()
			case 7:
				err = s.Chat(rapid.String().Draw(rt, "text"))
			}
			if err != nil && op <= 6 {
				if after := s.probe(); !reflect.DeepEqual(before, after) {
					rt.Fatalf("op %d refused (%v) but changed the session", op, err)
				}
			}
		}
		s.mu.Lock()
		var path string
		if s.log != nil {
			path = s.log.Path()
		} else if s.tr != nil {
			path = s.tr.logPath
		}
		s.mu.Unlock()
		if path == "" {
			return // no game was started
		}
		data, err := os.ReadFile(path)
		if err != nil {
			rt.Fatal(err)
		}
		v, err := lockstep.Verify(data)
		if err != nil {
			rt.Fatalf("the log of a game in progress does not verify: %v", err)
		}
		if len(v.Cheats) != 0 {
			rt.Fatalf("evidence of cheating in a local game: %v", v.Cheats)
		}
		logs++
	})
}

// flagGiven reports whether the command line set the named flag.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
