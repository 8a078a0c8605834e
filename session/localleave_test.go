package session

import (
	"os"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// TestLocalLeave: q confirmed in an offline game (ui.Leaver) stops the
// game where it is, as leaving a LAN game does for this player: its log
// verifies as far as it went and is marked closed as left on purpose,
// LeaveDone follows Leave (which returned at once), and the game takes no
// command after it; a second Leave, or one outside a game, is refused.
func TestLocalLeave(t *testing.T) {
	s := newLocal(t, 7)
	mustRefuse(t, s, "Leave without a game", s.Leave)
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	var l ui.Leaver = s
	moves, left := 0, false
	for e := range s.Events() {
		switch e := e.(type) {
		case ui.DiceWaiting:
			if e.YouRoll && !left {
				if err := s.Roll(); err != nil {
					t.Fatalf("Roll: %v", err)
				}
			}
		case ui.Rolled:
			if e.YouChoose && !left {
				if err := s.Choose(e.Moves[0]); err != nil {
					t.Fatalf("Choose: %v", err)
				}
			}
		case ui.Moved:
			if moves++; moves == 8 && !left {
				left = true
				if err := l.Leave(); err != nil {
					t.Fatalf("Leave: %v", err)
				}
				if err := s.Leave(); err == nil {
					t.Error("a second Leave was taken")
				}
			}
		case ui.GameOver:
			t.Fatal("the game ran on to its end after the player left")
		}
		if _, ok := e.(ui.LeaveDone); ok {
			if !left {
				t.Fatal("LeaveDone before any Leave")
			}
			break
		}
	}
	if !left {
		t.Fatal("events closed before the player left")
	}
	s.mu.Lock()
	gid, path := s.gid, s.log.Path()
	s.mu.Unlock()
	if !s.dir.Closed(gid) {
		t.Error("the game left is not marked closed")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase == lockstep.PhaseOver || v.Rolls == 0 {
		t.Fatalf("the left game's log: %v, phase %s, %d rolls; want an unfinished game that verifies", err, v.Phase, v.Rolls)
	}
	if err := s.Roll(); err == nil {
		t.Error("Roll was taken after the player left")
	}
}
