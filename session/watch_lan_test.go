package session

import (
	"os"
	"sync"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// The screen's way to watch: a third person's lobby lists the game Ann
// and Bob play (its people and roll), the person watches it (Watch, as
// the lobby's key does), the screen gets the game's events and a
// "watching — verified" state, a chat line it says reaches the players,
// Ann and Bob are told who watches, and the watcher ends with their
// history and a saved log that verifies to it.
func TestNetWatchFromTheLobby(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	type seen struct {
		mu    sync.Mutex
		ended []lockstep.State
		done  chan struct{}
	}
	obs := map[string]*seen{}
	sess := map[string]*NetSession{}
	for _, name := range []string{"Ann", "Bob", "Zoe"} {
		o := &seen{done: make(chan struct{})}
		obs[name] = o
		var s *NetSession
		s = newNetTestWith(t, name, func(opts *NetOptions) {
			opts.AutoReady, opts.NoResume = true, true
			opts.Observer = Observer{
				Ready: func(_ GameInfo, rd lockstep.Ready) {
					if st := rd.State; st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 {
						m := st.Moves[0]
						time.AfterFunc(100*time.Millisecond, func() { _ = s.Choose(m) }) // a person's pace: the game outlasts the lobby's listing
					}
				},
				Ended: func(_ *GameInfo, st lockstep.State, err error) {
					o.mu.Lock()
					defer o.mu.Unlock()
					if err != nil {
						t.Errorf("%s: %v", name, err)
					}
					o.ended = append(o.ended, st)
					if len(o.ended) == 1 {
						close(o.done)
					}
				},
			}
		})
		sess[name] = s
	}
	type zoeSaw struct {
		mu       sync.Mutex
		running  []ui.RunningGame
		watching []ui.Watching
		over     *ui.GameOver
	}
	var zs zoeSaw
	listed := make(chan string, 1)
	go func() {
		for e := range sess["Zoe"].Events() {
			zs.mu.Lock()
			switch e := e.(type) {
			case ui.LobbyUpdate:
				zs.running = e.Running
				if len(e.Running) > 0 {
					select {
					case listed <- e.Running[0].Lobby:
					default:
					}
				}
			case ui.Watching:
				zs.watching = append(zs.watching, e)
			case ui.GameOver:
				o := e
				zs.over = &o
			}
			zs.mu.Unlock()
		}
	}()
	told, heard := make(chan string, 4), make(chan string, 4)
	for _, name := range []string{"Ann", "Bob"} {
		go func() {
			for e := range sess[name].Events() {
				if w, ok := e.(ui.Watching); ok && len(w.Watchers) > 0 {
					select {
					case told <- name + ":" + w.Watchers[0]:
					default:
					}
				}
				if c, ok := e.(ui.ChatLine); ok && c.From == "Zoe (watching)" {
					select {
					case heard <- c.Text:
					default:
					}
				}
			}
		}()
	}
	if err := sess["Ann"].Enter(lobby.Config{Lobby: "friday", Players: 2, Bots: 2, FindFor: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := sess["Bob"].Enter(lobby.Config{Lobby: "friday", FindFor: time.Minute}); err != nil {
		t.Fatal(err)
	}
	var name string
	select {
	case name = <-listed:
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("Zoe's lobby never listed the running game")
	}
	if name != "friday" {
		t.Fatalf("Zoe's lobby lists %q", name)
	}
	zs.mu.Lock()
	if r := zs.running[0]; len(r.Players) != 2 || r.Watchers != 0 {
		t.Errorf("the listed game: %+v", r)
	}
	zs.mu.Unlock()
	if err := sess["Zoe"].Watch(name); err != nil {
		t.Fatal(err)
	}
	select {
	case who := <-told:
		if who != "Ann:Zoe" && who != "Bob:Zoe" {
			t.Errorf("a player was told %q watches", who)
		}
	case <-time.After(time.Minute):
		t.Fatal("no player was told Zoe watches")
	}
	if err := sess["Zoe"].Chat("nice game"); err != nil {
		t.Fatal(err)
	}
	select {
	case text := <-heard:
		if text != "nice game" {
			t.Errorf("the players heard %q", text)
		}
	case <-time.After(30 * time.Second):
		t.Error("no player heard the watcher's chat line")
	}
	for name, o := range obs {
		select {
		case <-o.done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s never saw the end", name)
		}
	}
	want := obs["Ann"].ended[0].History
	for name, o := range obs {
		if st := o.ended[0]; st.Phase != lockstep.PhaseOver || st.History != want {
			t.Errorf("%s ended in %s with %x; Ann with %x", name, st.Phase, st.History, want)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		zs.mu.Lock()
		over, n := zs.over, len(zs.watching)
		var last ui.Watching
		if n > 0 {
			last = zs.watching[n-1]
		}
		zs.mu.Unlock()
		if over != nil && last.Over {
			if last.Lobby != "friday" || last.Records == 0 || last.Problem != "" {
				t.Errorf("Zoe's last watching state: %+v", last)
			}
			data, err := os.ReadFile(over.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			v, err := lockstep.Verify(data)
			if err != nil || v.History != want || v.Phase != lockstep.PhaseOver {
				t.Fatalf("Zoe's saved log %s: %v %+v", over.LogPath, err, v)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Zoe's screen: game over %v, %d watching states (last %+v)", over, n, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
