package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// newPauseLocal is the offline session of the program as it runs: no
// key or entropy given, so the seat keys of the names in dir.
func newPauseLocal(t *testing.T, dir, name string, people ...string) *LocalSession {
	t.Helper()
	s, err := NewLocal(LocalOptions{Name: name, DataDir: dir, People: people, Tick: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		for range s.Events() {
		}
	})
	return s
}

// pauseAsked are the sessions whose game a test asked to pause: what
// was asked before is refused now.
var pauseAsked sync.Map

// answer plays a person here: roll when asked, choose the first move.
func answer(t *testing.T, s *LocalSession, e ui.Event) {
	t.Helper()
	if _, asked := pauseAsked.Load(s); asked {
		return
	}
	switch e := e.(type) {
	case ui.DiceWaiting:
		if e.YouRoll {
			if err := s.Roll(); err != nil && !errors.Is(err, ErrGameOver) {
				t.Fatalf("Roll when asked: %v", err)
			}
		}
	case ui.Rolled:
		if e.YouChoose {
			if err := s.Choose(e.Moves[0]); err != nil && !errors.Is(err, ErrGameOver) {
				t.Fatalf("Choose %v: %v", e.Moves[0], err)
			}
		}
	case ui.Notice:
		if e.Msg.Key != "note.continuing" {
			t.Fatalf("unexpected notice: %s", e.Msg.String())
		}
	case ui.Resync:
		t.Fatalf("unexpected resync: %s", e.Why)
	}
}

// next waits for the first event of type E, answering each as it comes.
func next[E ui.Event](t *testing.T, s *LocalSession, ok func(E) bool) E {
	t.Helper()
	timeout := time.After(60 * time.Second) // a hang guard
	var last []string                       // for the guard's message
	for {
		select {
		case e, open := <-s.Events():
			if !open {
				t.Fatal("events closed")
			}
			last = append(last, fmt.Sprintf("%T %+v", e, e))
			if len(last) > 6 {
				last = last[1:]
			}
			answer(t, s, e)
			if x, is := e.(E); is && (ok == nil || ok(x)) {
				return x
			}
		case <-timeout:
			var zero E
			t.Fatalf("no %T came; the last events:\n%s", zero, strings.Join(last, "\n"))
		}
	}
}

// pauseAfter plays a new game of s until it has rolls rolls, then pauses
// it together: it returns the GamePaused and the lobby after it.
func pauseAfter(t *testing.T, s *LocalSession, rolls int) (ui.GamePaused, ui.LobbyUpdate) {
	t.Helper()
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range rolls {
		next[ui.Rolled](t, s, nil)
	}
	pauseAsked.Store(s, true)
	if err := s.PauseTogether(); err != nil {
		t.Fatalf("pause: %v", err)
	}
	if err := s.PlayOn(); err != nil {
		t.Fatalf("play on after pausing: %v", err)
	}
	p := next[ui.GamePaused](t, s, nil)
	lu := next[ui.LobbyUpdate](t, s, nil)
	pauseAsked.Delete(s) // the next game of s is played again
	return p, lu
}

// Three people at one laptop pause their offline game together; another
// day (its log three days old) the program, started again, offers it in
// its lobby and continues it with the same seats, people and bots, to
// the end, in the same log, which verifies.
func TestLocalPauseAndContinueHotSeat(t *testing.T) {
	dir := t.TempDir()
	s := newPauseLocal(t, dir, "ann", "bob", "cat")
	p, lu := pauseAfter(t, s, 12)
	if p.Roll < 12 || p.LogPath == "" {
		t.Fatalf("paused %+v, want at roll 12 or later with its log", p)
	}
	before, err := lockstep.Verify(mustRead(t, p.LogPath))
	if err != nil || !before.Paused || before.Phase == lockstep.PhaseOver {
		t.Fatalf("the paused log: %v, paused %v, phase %s", err, before.Paused, before.Phase)
	}
	// The lobby's roll is the one the game paused at, as the screen said
	// and verify says, as on the LAN.
	want := []ui.SavedGame{{Players: []string{"ann", "bob", "cat"}, Roll: before.PausedAt}}
	if len(lu.Continue) != 1 || !reflect.DeepEqual(lu.Continue[0].Players, want[0].Players) || lu.Continue[0].Roll != p.Roll || p.Roll != before.PausedAt {
		t.Fatalf("the lobby offers %+v, want %+v", lu.Continue, want)
	}
	if err := s.Rematch(); err == nil {
		t.Error("a paused game was rematched")
	}
	if err := s.PauseTogether(); err == nil {
		t.Error("a paused game was paused again")
	}
	s.Close()
	for range s.Events() {
	}
	old := time.Now().Add(-72 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p.LogPath, old, old); err != nil {
		t.Fatal(err)
	}

	s2 := newPauseLocal(t, dir, "ann")
	lu = next[ui.LobbyUpdate](t, s2, nil)
	if len(lu.Continue) != 1 || !lu.Continue[0].Saved.Equal(old) || !reflect.DeepEqual(lu.Continue[0].Players, want[0].Players) {
		t.Fatalf("started again, the lobby offers %+v, want ann, bob, cat saved %v", lu.Continue, old)
	}
	if err := s2.Continue("0123"); err == nil {
		t.Error("a game that is not saved was continued")
	}
	if err := s2.Continue(lu.Continue[0].Lobby); err != nil {
		t.Fatalf("continue: %v", err)
	}
	table := next[ui.TableUpdate](t, s2, func(tu ui.TableUpdate) bool { return tu.Started })
	people := 0
	for _, st := range table.Seats {
		if st.You {
			people++
		}
	}
	if people != 3 {
		t.Fatalf("the continued table seats %d people here, want 3: %+v", people, table.Seats)
	}
	over := next[ui.GameOver](t, s2, nil)
	if over.LogPath != p.LogPath {
		t.Fatalf("continued into log %s, want the paused game's %s", over.LogPath, p.LogPath)
	}
	v, err := lockstep.Verify(mustRead(t, over.LogPath))
	if err != nil || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 || v.Rolls <= before.Rolls {
		t.Fatalf("the continued log: %v, phase %s, cheats %v, rolls %d (paused at %d)", err, v.Phase, v.Cheats, v.Rolls, before.Rolls)
	}
	if !reflect.DeepEqual(v.Setup, before.Setup) {
		t.Fatalf("continued with setup %+v, paused with %+v", v.Setup, before.Setup)
	}
	d, err := savegame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if games, _ := d.PausedLocal(v.Setup.Players()[0]); len(games) != 0 {
		t.Fatalf("a game played to its end is still offered: %+v", games)
	}
	t.Logf("paused at roll %d, over at roll %d", before.Rolls, v.Rolls)
}

// One person alone with bots pauses too; quitting without a pause leaves
// the game to continue as well (as on the LAN), and leaving it does not.
func TestLocalPauseAloneAndQuit(t *testing.T) {
	dir := t.TempDir()
	s := newPauseLocal(t, dir, "ann")
	_, lu := pauseAfter(t, s, 4)
	if len(lu.Continue) != 1 || !reflect.DeepEqual(lu.Continue[0].Players, []string{"ann"}) {
		t.Fatalf("the lobby offers %+v, want ann's game", lu.Continue)
	}
	// A second game, quit unpaused: both are offered, newest first.
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	next[ui.Rolled](t, s, nil)
	s.Close()
	for range s.Events() {
	}
	s2 := newPauseLocal(t, dir, "ann")
	lu = next[ui.LobbyUpdate](t, s2, nil)
	if len(lu.Continue) != 2 {
		t.Fatalf("the lobby offers %+v, want the paused game and the one quit", lu.Continue)
	}
	// Leaving the continued game closes it for good.
	if err := s2.Continue(lu.Continue[0].Lobby); err != nil {
		t.Fatal(err)
	}
	next[ui.GameStarted](t, s2, nil)
	if err := s2.Leave(); err != nil {
		t.Fatal(err)
	}
	next[ui.LeaveDone](t, s2, nil)
	s2.Close()
	for range s2.Events() {
	}
	s3 := newPauseLocal(t, dir, "ann")
	if lu = next[ui.LobbyUpdate](t, s3, nil); len(lu.Continue) != 1 {
		t.Fatalf("after leaving one, the lobby offers %+v, want the other", lu.Continue)
	}
}

// A log the lobby cannot continue is not offered, and the reason is
// logged: another person's game, a log renamed over another game's, a
// missing dice secret; a game whose files changed after the lobby listed
// it is refused with the reason when continued.
func TestLocalContinueRefusals(t *testing.T) {
	src := t.TempDir()
	s := newPauseLocal(t, src, "ann", "bob")
	p, _ := pauseAfter(t, s, 3)
	s.Close()
	for range s.Events() {
	}
	base := strings.TrimSuffix(filepath.Base(p.LogPath), ".log")
	copyDir := func(t *testing.T, skip func(name string) bool) string {
		t.Helper()
		dst := t.TempDir()
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || skip != nil && skip(e.Name()) {
				continue
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), mustRead(t, filepath.Join(src, e.Name())), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dst
	}
	cases := []struct {
		name   string
		dir    func(t *testing.T) string
		player string
		why    string
	}{
		{"another person's game", func(t *testing.T) string { return copyDir(t, nil) }, "dan", "not a game of ours"},
		{"bob's secret missing", func(t *testing.T) string {
			bob := seatSecretOf(t, src, base, "bob")
			return copyDir(t, func(n string) bool { return n == bob })
		}, "ann", "dice secret"},
		{"renamed over another game", func(t *testing.T) string {
			d := copyDir(t, nil)
			other := strings.Replace(base, base[len(base)-4:], "0000", 1)
			if err := os.Rename(filepath.Join(d, base+".log"), filepath.Join(d, other+".log")); err != nil {
				t.Fatal(err)
			}
			return d
		}, "ann", "not the one its name says"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.dir(t)
			s := newPauseLocal(t, d, tc.player)
			if lu := next[ui.LobbyUpdate](t, s, nil); len(lu.Continue) != 0 {
				t.Fatalf("offered %+v", lu.Continue)
			}
			sd, err := savegame.Open(d)
			if err != nil {
				t.Fatal(err)
			}
			_, skipped := sd.PausedLocal(s.self)
			if len(skipped) != 1 || !strings.Contains(skipped[0].Error(), tc.why) {
				t.Fatalf("skipped %v, want one: %q", skipped, tc.why)
			}
		})
	}
	t.Run("changed after the lobby listed it", func(t *testing.T) {
		d := copyDir(t, nil)
		s := newPauseLocal(t, d, "ann")
		lu := next[ui.LobbyUpdate](t, s, nil)
		if len(lu.Continue) != 1 {
			t.Fatalf("offered %+v, want the game", lu.Continue)
		}
		if err := os.Remove(filepath.Join(d, seatSecretOf(t, d, base, "ann"))); err != nil {
			t.Fatal(err)
		}
		err := s.Continue(lu.Continue[0].Lobby)
		var uerr *ui.Error
		if !errors.As(err, &uerr) || uerr.Msg.Key != "err.nocontinue" {
			t.Fatalf("continue of a game whose secret is gone: %v, want err.nocontinue", err)
		}
	})
}

// seatSecretOf is the name of the dice secret of name's seat key beside
// the log base in dir.
func seatSecretOf(t *testing.T, dir, base, name string) string {
	t.Helper()
	d, err := savegame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	k, err := d.SeatKey(name)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return base + "-seat-" + id.String() + ".secret"
}
