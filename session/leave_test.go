package session

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
)

// bobLoop is Bob at Ann's table: he joins her game, says ready, chooses
// the first move, and after moves moves does act (once) on a goroutine
// of its own; the loop ends when his events close. Its events are
// returned once it ends.
func bobLoop(t *testing.T, a, b *NetSession, moves int, act func()) <-chan []ui.Event {
	out := make(chan []ui.Event, 1)
	go func() {
		var seen []ui.Event
		joined, n, acted := false, 0, false
		p := &netPlayer{s: b}
		for e := range b.Events() {
			seen = append(seen, e)
			switch e := e.(type) {
			case ui.LobbyUpdate:
				for _, g := range e.Games {
					if g.Host.ID == a.ID().String() && !joined {
						joined = true
						if err := b.Join(g.ID); err != nil {
							t.Errorf("join: %v", err)
						}
					}
				}
			case ui.TableUpdate:
				p.sayReady(t, e)
			case ui.Rolled:
				if e.YouChoose {
					_ = b.Choose(e.Moves[0]) // refused once he left: a bot flies
				}
			case ui.Moved:
				if n++; n == moves && !acted {
					acted = true
					go act()
				}
			}
		}
		out <- seen
	}()
	return out
}

// annTable opens Ann's table for Bob with bots at Yellow and Green.
func annTable(t *testing.T, a *NetSession) {
	t.Helper()
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "random"); err != nil {
			t.Fatal(err)
		}
	}
}

// annPlays runs Ann to the end of her game, recording what onEvent saw.
func annPlays(t *testing.T, a *NetSession, onEvent func(ui.Event)) *netPlayer {
	t.Helper()
	pa := &netPlayer{s: a, c: &checker{t: t, you: engine.Red, autoRoll: true}}
	done := make(chan *netPlayer, 1)
	go pa.run(t, onEvent, done)
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a hang guard, not a speed claim
		t.Fatal("Ann's game did not end")
	}
	if pa.err != nil {
		t.Fatal(pa.err)
	}
	return pa
}

// verifyOver checks a finished game's log.
func verifyOver(t *testing.T, p *netPlayer) *lockstep.Verification {
	t.Helper()
	data, err := os.ReadFile(p.over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || len(p.over.Ranking) != engine.NumColours {
		t.Fatalf("%s's log: %v, phase %s, ranking %v", p.s.name, err, v.Phase, p.over.Ranking)
	}
	return v
}

// Two people and two bots; Bob leaves for good mid-game (Leave, then
// Close, as the interface does): Ann's session says "Bob left" for his
// colour, a bot flies it, and her game ends with a full result, never
// asking her a lone decision (the leave needs none).
func TestNetLeaveLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	annTable(t, a)
	var leaveErr error
	var left sync.WaitGroup
	left.Add(1)
	bob := bobLoop(t, a, b, 6, func() {
		defer left.Done()
		leaveErr = b.Leave()
		b.Close()
	})
	var lefts []ui.Left
	asked := 0
	pa := annPlays(t, a, func(e ui.Event) {
		switch e := e.(type) {
		case ui.Left:
			lefts = append(lefts, e)
		case ui.AloneDecision:
			asked++
		}
	})
	left.Wait()
	<-bob
	if leaveErr != nil {
		t.Fatalf("Leave: %v", leaveErr)
	}
	if len(lefts) != 1 || lefts[0] != (ui.Left{Colour: engine.Blue, Name: "Bob"}) {
		t.Fatalf("Ann saw %+v, want Bob leaving Blue once", lefts)
	}
	if asked != 0 {
		t.Fatalf("Ann was asked %d lone decisions after a leave", asked)
	}
	v := verifyOver(t, pa)
	if !b.dir.Closed(v.Setup.GameID()) {
		t.Fatal("Bob's game is not marked closed after he left")
	}
}

// Two people and two bots; Bob's peer vanishes mid-game (its host
// closed, no Leave): Ann alone is no majority, so her session asks her
// (ui.AloneDecision naming Bob); GoOn goes on with a bot at Blue and the
// game ends with a result.
func TestNetAloneDecisionLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	fast := func(o *NetOptions) { o.AbsentTicks = 5 }
	a, b := newNetTestWith(t, "Ann", fast), newNetTestWith(t, "Bob", fast)
	annTable(t, a)
	// Close without Leave: nothing is signed, the peer just goes (as
	// after a crash or a pulled cable).
	bob := bobLoop(t, a, b, 6, func() { b.Close() })
	var asked []ui.AloneDecision
	goOnErr := make(chan error, 8)
	pa := annPlays(t, a, func(e ui.Event) {
		if q, ok := e.(ui.AloneDecision); ok {
			asked = append(asked, q)
			if len(q.Missing) > 0 {
				go func() { goOnErr <- a.GoOn() }()
			}
		}
	})
	<-bob
	if len(asked) == 0 || len(asked[0].Missing) != 1 || asked[0].Missing[0] != "Bob" {
		t.Fatalf("Ann was asked %+v, want a decision about Bob", asked)
	}
	if err := <-goOnErr; err != nil {
		t.Fatalf("GoOn: %v", err)
	}
	verifyOver(t, pa)
	if err := a.GoOn(); err == nil {
		t.Fatal("GoOn accepted after the game")
	}
}

// Bob's program dies mid-game (no Close: nothing is marked) and starts
// again with the same identity and data directory: it takes its seat
// back by itself, and its table names Ann as she chose, not by her peer
// ID (the names are saved beside the log).
func TestNetResumeKeepsNamesLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	_, key := newID(t)
	dir := t.TempDir()
	same := func(o *NetOptions) { o.Key, o.DataDir = key, dir }
	b := newNetTestWith(t, "Bob", same)
	annTable(t, a)
	crashed := make(chan struct{})
	bob := bobLoop(t, a, b, 6, func() {
		defer close(crashed)
		b.cancel() // the game and the owner stop; nothing is marked closed
		b.wg.Wait()
		if b.d != nil {
			b.d.Close()
		}
		b.t.Close()
		b.h.Close()
		b.q.close()
	})
	annDone := make(chan *netPlayer, 1)
	go func() {
		pa := &netPlayer{s: a, c: &checker{t: t, you: engine.Red, autoRoll: true}}
		pa.run(t, nil, annDone)
	}()
	<-crashed
	<-bob
	b2 := newNetTestWith(t, "Bob", same)
	var table *ui.TableUpdate
	starts, moved := 0, 0
	var first *ui.Moved
	for e := range b2.Events() {
		if tu, ok := e.(ui.TableUpdate); ok && tu.Started {
			table = &tu
		}
		if _, ok := e.(ui.GameStarted); ok {
			starts++
		}
		if m, ok := e.(ui.Moved); ok {
			if first == nil {
				first = &m
			}
			if moved++; moved >= 6 {
				break // the history Bob had seen before the crash
			}
		}
	}
	if table == nil {
		t.Fatal("Bob's program did not resume the game")
	}
	if got := table.Seats[engine.Red].Name; got != "Ann" {
		t.Fatalf("the resumed table names Red %q, want Ann", got)
	}
	// The history comes back from the log: the first move shown starts
	// from the game's first position, and the game begins once.
	start, _ := engine.NewGame(engine.Red, engine.Blue, engine.Yellow, engine.Green)
	if first == nil || strings.Fields(first.Before.String())[0] != strings.Fields(start.String())[0] || starts != 1 {
		t.Fatalf("resumed: %d starts, first move from %v; want one start and the history from the first position", starts, first)
	}
	go func() {
		for e := range b2.Events() {
			if r, ok := e.(ui.Rolled); ok && r.YouChoose {
				_ = b2.Choose(r.Moves[0])
			}
		}
	}()
	select {
	case <-annDone:
	case <-time.After(2 * time.Minute): // a hang guard, not a speed claim
		t.Fatal("Ann's game did not end")
	}
}

// As TestNetAloneDecisionLAN, but Ann ends the game: her log is kept,
// marked closed (never resumed), and she is back in the lobby, where
// she may create a game again.
func TestNetAloneEndGameLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	fast := func(o *NetOptions) { o.AbsentTicks = 5 }
	a, b := newNetTestWith(t, "Ann", fast), newNetTestWith(t, "Bob", fast)
	if err := a.EndGame(); err == nil {
		t.Fatal("EndGame accepted with no game on")
	}
	annTable(t, a)
	bob := bobLoop(t, a, b, 6, func() { b.Close() })
	deadline := time.After(30 * time.Second) // a hang guard, not a speed claim
	ended, pa := false, &netPlayer{s: a}
	for !ended {
		select {
		case e := <-a.Events():
			switch e := e.(type) {
			case ui.TableUpdate:
				pa.sayReady(t, e)
			case ui.Rolled:
				if e.YouChoose {
					_ = a.Choose(e.Moves[0])
				}
			case ui.AloneDecision:
				if len(e.Missing) > 0 {
					if err := a.EndGame(); err != nil {
						t.Fatalf("EndGame: %v", err)
					}
					ended = true
				}
			case ui.GameOver:
				t.Fatal("the game ended before Ann was asked")
			}
		case <-deadline:
			t.Fatal("Ann was never asked")
		}
	}
	<-bob
	a.mu.Lock()
	gid := a.gameID
	a.mu.Unlock()
	if !a.dir.Closed(gid) {
		t.Fatal("the ended game is not marked closed")
	}
	if _, err := os.Stat(a.dir.LogPath(gid)); err != nil {
		t.Fatalf("the ended game's log: %v", err)
	}
	for {
		if err := a.CreateGame(engine.DefaultRules()); err == nil {
			break
		}
		select {
		case <-a.Events():
		case <-time.After(50 * time.Millisecond): // the game is still letting go
		case <-deadline:
			t.Fatal("Ann never got back to the lobby")
		}
	}
}

// Bob pauses mid-game and quits (Pause, then Close): nothing is signed,
// so Ann sees him absent and a bot flies Blue to the end, and his game
// is not marked closed: his data directory offers it to continue
// another day (savegame.Dir.Paused), unlike a game he left (above).
func TestNetPauseLAN(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	fast := func(o *NetOptions) { o.AbsentTicks = 5; o.GoOnAlone = true }
	a, b := newNetTestWith(t, "Ann", fast), newNetTestWith(t, "Bob", fast)
	annTable(t, a)
	var pauseErr error
	var paused sync.WaitGroup
	paused.Add(1)
	bob := bobLoop(t, a, b, 6, func() {
		defer paused.Done()
		pauseErr = b.Pause()
		b.Close()
	})
	var lefts int
	pa := annPlays(t, a, func(e ui.Event) {
		if _, ok := e.(ui.Left); ok {
			lefts++
		}
	})
	paused.Wait()
	<-bob
	if pauseErr != nil {
		t.Fatalf("Pause: %v", pauseErr)
	}
	if lefts != 0 {
		t.Fatalf("Ann saw Bob leave for good %d times after a pause", lefts)
	}
	v := verifyOver(t, pa)
	gid := v.Setup.GameID()
	if b.dir.Closed(gid) {
		t.Fatal("Bob's paused game is marked closed")
	}
	games, skipped := b.dir.Paused(b.ID(), "")
	if len(games) != 1 || games[0].Setup.GameID() != gid {
		t.Fatalf("Bob's games to continue: %d (%v)", len(games), skipped)
	}
}
