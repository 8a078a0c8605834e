package ui

import (
	"os"
	"strings"
	"testing"

	"aeroplane/engine"
)

// TestSoloPlaysAGame plays a whole game against bots through the Session
// interface: every Rolled offers the engine's moves, every Moved follows
// the rules, and the game ends with a full ranking and a saved log.
func TestSoloPlaysAGame(t *testing.T) {
	dir := t.TempDir()
	s := NewSolo(SoloOptions{Name: "alice", Seed: 7, LogDir: dir})
	defer s.Close()
	if err := s.Roll(); err == nil {
		t.Fatal("roll before any game was accepted")
	}
	if err := s.Join("x"); err == nil {
		t.Fatal("solo join should fail: there is no network")
	}
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeat(engine.Green, ""); err != nil { // three colours in play
		t.Fatal(err)
	}
	if err := s.SetSeat(engine.Red, "random"); err == nil {
		t.Fatal("giving away your own seat was accepted")
	}
	table, _ := engine.ParseRules("takeoff=six,stack=off")
	if err := s.SetRules(table); err != nil { // changed at the table
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRules(engine.DefaultRules()); err == nil {
		t.Fatal("the rules changed after the start")
	}
	var pos engine.Position
	var rules engine.Rules
	var last *Rolled
	moves, rolls := 0, 0
	for e := range s.Events() {
		switch e := e.(type) {
		case GameStarted:
			pos, rules = e.Position, e.Rules
			if rules != table {
				t.Fatalf("the game started with rules %s, the table's are %s", rules, table)
			}
			if pos.InPlay(engine.Green) || !pos.InPlay(engine.Yellow) {
				t.Fatalf("colours in play wrong: %s", pos)
			}
		case DiceWaiting:
			if e.YouRoll != (e.ToMove == engine.Red) || e.ToMove != pos.ToMove() {
				t.Fatalf("waiting %+v at %s", e, pos)
			}
			if e.YouRoll {
				if err := s.Choose(engine.Move{}); err == nil {
					t.Fatal("choose before rolling was accepted")
				}
				if err := s.Roll(); err != nil {
					t.Fatal(err)
				}
			}
		case Rolled:
			rolls++
			last = &e
			outs := pos.Outcomes(rules, e.Roll)
			if len(e.Moves) != outs.Len() {
				t.Fatalf("rolled %d at %s: moves %v, engine %v", e.Roll, pos, e.Moves, outs.Slice())
			}
			if e.YouChoose {
				if err := s.Choose(e.Moves[len(e.Moves)-1]); err != nil {
					t.Fatal(err)
				}
			}
		case Moved:
			moves++
			if e.Before != pos {
				t.Fatalf("moved from %s, board was %s", e.Before, pos)
			}
			want, _, err := pos.Play(rules, last.Roll, e.Result.Move)
			if err != nil || want != e.After {
				t.Fatalf("move %s with %d at %s: got %s want %s (%v)", e.Result.Move, last.Roll, pos, e.After, want, err)
			}
			pos = e.After
		case GameOver:
			if len(e.Ranking) != 3 || !pos.GameOver() {
				t.Fatalf("ranking %v at %s", e.Ranking, pos)
			}
			log, err := os.ReadFile(e.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(log), "\n"); n != moves+3 {
				t.Errorf("log has %d lines for %d moves", n, moves)
			}
			if err := s.Rematch(); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}
	}
	if moves < 50 || rolls != moves {
		t.Fatalf("%d moves for %d rolls", moves, rolls)
	}
}
