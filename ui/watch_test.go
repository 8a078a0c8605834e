package ui

import (
	"reflect"
	"strings"
	"testing"

	"aeroplane/engine"
)

// runningLobbyUI is the lobby with one table to join and two running
// games to watch, numbered on from the table.
func runningLobbyUI() (*UI, *fakeSession) {
	u, f := lobbyUI()
	u.Apply(LobbyUpdate{
		Me:    Peer{ID: "me", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/4001"},
		Games: []Game{{ID: "g-bob", Host: Peer{Name: "bob"}}},
		Running: []RunningGame{
			{Lobby: "friday 3f2a", Players: []string{"ann", "bob", "cat"}, Roll: 143, Leader: engine.Yellow, Watchers: 2},
			{Lobby: "zed 0001", Players: []string{"zed", "yan"}, Roll: 0, Leader: engine.NoColour},
		},
	})
	return u, f
}

// The lobby lists the running games after the tables, with their people,
// roll, who leads and how many watch; the keys after the tables' watch
// them.
func TestLobbyRunningGames(t *testing.T) {
	u, f := runningLobbyUI()
	scr := render(t, u, 80, 24)
	checkGolden(t, "lobby-running-80x24", scr)
	for _, want := range []string{"Running games", "2) ann, bob, cat — roll 143, Yellow leads, 2 watching", "3) zed, yan — roll 0, 0 watching"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the lobby lacks %q:\n%s", want, scr)
		}
	}
	for _, c := range []struct {
		key  rune
		want []string
	}{{'1', []string{"join g-bob"}}, {'2', []string{"watch friday 3f2a"}}, {'3', []string{"watch zed 0001"}}, {'4', nil}} {
		u.HandleKey(ch(c.key))
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("key %c: %v, want %v", c.key, got, c.want)
		}
	}
}

// watchingUI is a watcher's screen mid-game: the game as a player's,
// with the referee's line in the turn panel.
func watchingUI(t *testing.T, w Watching) *UI {
	u, _ := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H B 0 -", engine.DefaultRules())
	u.Apply(DiceWaiting{ToMove: engine.Blue, Waiting: []string{"bob"}})
	u.Apply(w)
	return u
}

// A watcher's screen says what its own referee checked: "watching —
// verified", the records and roll, whose log; a log that failed the
// checks is said in red and the watching goes on from another's; the
// end says it was verified to the end.
func TestWatcherView(t *testing.T) {
	u := watchingUI(t, Watching{Lobby: "friday", From: "ann", Records: 312, Roll: 57})
	scr := render(t, u, 80, 24)
	checkGolden(t, "watching-80x24", scr)
	if !strings.Contains(scr, "watching — verified: 312") || !strings.Contains(scr, "records, roll 57 (from ann)") {
		t.Errorf("no watching line:\n%s", scr)
	}
	u = watchingUI(t, Watching{Lobby: "friday", From: "bob", Records: 320, Roll: 58, Problem: "ann's log: record 9: bad signature"})
	if scr := render(t, u, 120, 40); !strings.Contains(scr, "a player's log failed the checks: ann's log") || !strings.Contains(scr, "(from bob)") {
		t.Errorf("no failed-check line:\n%s", scr)
	}
	u = watchingUI(t, Watching{Lobby: "friday", From: "bob", Records: 900, Roll: 200, Over: true})
	if scr := render(t, u, 120, 40); !strings.Contains(scr, "watched to the end — verified: 900 records") {
		t.Errorf("no end line:\n%s", scr)
	}
}

// A player sees who watches its game, until the next game starts.
func TestPlayerSeesWatchers(t *testing.T) {
	u := watchingUI(t, Watching{Watchers: []string{"zoe", "yan"}})
	if scr := render(t, u, 80, 24); !strings.Contains(scr, "watched by zoe, yan") {
		t.Errorf("the player is not told who watches:\n%s", scr)
	}
	u.Apply(GameStarted{Position: mustPos(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"), Rules: engine.DefaultRules()})
	if scr := render(t, u, 80, 24); strings.Contains(scr, "watched by") {
		t.Errorf("the last game's watchers shown in the next:\n%s", scr)
	}
}

// When the players pause the game together, a watcher is told the game
// paused at roll k and that what it watched is saved and verified, not
// to continue it (it holds no seat); a player is still told to continue
// it another day.
func TestWatcherToldOfPause(t *testing.T) {
	u := watchingUI(t, Watching{Lobby: "friday", From: "ann", Records: 312, Roll: 57})
	u.Apply(GamePaused{Roll: 57, LogPath: "/data/games/w.log"})
	u.Apply(Watching{Lobby: "friday", From: "ann", Records: 330, Roll: 57, Over: true, Paused: true})
	scr := render(t, u, 80, 24)
	checkGolden(t, "watching-paused-80x24", scr)
	if !strings.Contains(scr, "the players paused the game at roll 57") || strings.Contains(scr, "continue it from the lobby") {
		t.Errorf("the watcher is not told the players paused at roll 57:\n%s", scr)
	}
	u = watchingUI(t, Watching{Lobby: "friday", From: "ann", Records: 330, Roll: 57, Over: true, Paused: true})
	if scr := render(t, u, 120, 40); !strings.Contains(scr, "the players paused the game at roll 57 — verified:") || !strings.Contains(scr, "330 records") {
		t.Errorf("no paused line in the watcher's panel:\n%s", scr)
	}
	p, _ := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H B 0 -", engine.DefaultRules())
	p.Apply(GamePaused{Roll: 57})
	if scr := render(t, p, 120, 40); !strings.Contains(scr, "continue it from the lobby") {
		t.Errorf("a player is no longer told to continue the paused game:\n%s", scr)
	}
}
