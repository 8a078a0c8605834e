package session

import (
	"os"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// pauseTogetherLoop is a person at s who plays the first move, asks to
// pause the game for everyone (PauseTogether) after moves moves, and
// does onPaused once the screen says the game is paused; it ends when
// s's events close or, with stop, at the pause. It returns the pause.
func pauseTogetherLoop(t *testing.T, s *NetSession, join func(ui.Event), moves int, stop bool, onPaused func()) <-chan ui.GamePaused {
	out := make(chan ui.GamePaused, 1)
	go func() {
		defer close(out)
		p := &netPlayer{s: s}
		n, asked := 0, false
		for e := range s.Events() {
			join(e)
			switch e := e.(type) {
			case ui.TableUpdate:
				p.sayReady(t, e)
			case ui.Rolled:
				if e.YouChoose {
					_ = s.Choose(e.Moves[0]) // refused once paused
				}
			case ui.Moved:
				if n++; n >= moves && !asked {
					asked = true
					go func() {
						if err := s.PauseTogether(); err != nil {
							t.Errorf("%s: PauseTogether: %v", s.name, err)
						}
					}()
				}
			case ui.GamePaused:
				out <- e
				onPaused()
				if stop {
					return
				}
			}
		}
	}()
	return out
}

// Ann and Bob pause their game together; Bob quits the moment his screen
// says it is paused (back in the lobby, q: Close), while his driver
// still lingers to hand the others his pause: his game is not marked
// left, and his data directory offers it to continue another day, as
// Ann's does.
func TestNetPauseTogetherThenQuitLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	annTable(t, a)
	ann := pauseTogetherLoop(t, a, func(ui.Event) {}, 4, true, func() {})
	bob := pauseTogetherLoop(t, b, joinOnce(t, a, b), 4, false, func() { go b.Close() })
	var paused [2]ui.GamePaused
	for i, ch := range []<-chan ui.GamePaused{ann, bob} {
		select {
		case p, ok := <-ch:
			if !ok {
				t.Fatalf("player %d's events closed before the pause", i)
			}
			paused[i] = p
		case <-time.After(2 * time.Minute): // a hang guard, not a speed claim
			t.Fatalf("player %d never saw the game paused", i)
		}
	}
	for range bob { // Bob's session closed
	}
	if paused[0].Roll != paused[1].Roll {
		t.Fatalf("paused at roll %d for Ann, %d for Bob", paused[0].Roll, paused[1].Roll)
	}
	data, err := os.ReadFile(paused[1].LogPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || !v.Paused {
		t.Fatalf("Bob's log: %v, paused %v", err, v != nil && v.Paused)
	}
	gid := v.Setup.GameID()
	if b.dir.Closed(gid) {
		t.Fatal("Bob's game paused together is marked closed: quitting from the lobby left it")
	}
	for _, s := range []*NetSession{a, b} {
		games, skipped := s.dir.Paused(s.ID(), "")
		if len(games) != 1 || games[0].Setup.GameID() != gid {
			t.Errorf("%s's games to continue: %d (%v), want the paused one", s.name, len(games), skipped)
		}
	}
}
