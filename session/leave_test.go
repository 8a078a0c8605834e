package session

import (
	"context"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
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
		n, acted := 0, false
		p := &netPlayer{s: b}
		join := joinOnce(t, a, b)
		for e := range b.Events() {
			seen = append(seen, e)
			join(e)
			switch e := e.(type) {
			case ui.TableUpdate:
				p.sayReady(t, e)
			case ui.Rolled:
				if e.YouChoose {
					_ = b.Choose(e.Moves[0]) // refused once he left: a bot flies
				}
			case ui.LeaveDone:
				go b.Close() // as the interface does once the leave is out
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
	openTable(t, a, engine.DefaultRules())
}

// openTable is the two-player LAN table of these tests: a creates a game
// under rules with random bots at Yellow and Green, Blue open for the
// other player.
func openTable(t *testing.T, a *NetSession, rules engine.Rules) {
	t.Helper()
	if err := a.CreateGame(rules); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "random"); err != nil {
			t.Fatal(err)
		}
	}
}

// gameOf is host's game, when e is a lobby that lists it.
func gameOf(e ui.Event, host *NetSession) (ui.Game, bool) {
	if u, ok := e.(ui.LobbyUpdate); ok {
		for _, g := range u.Games {
			if g.Host.ID == host.ID().String() {
				return g, true
			}
		}
	}
	return ui.Game{}, false
}

// joinOnce is the guest's side of that table: fed the guest's events, it
// joins host's game the first time a lobby lists it.
func joinOnce(t *testing.T, host, guest *NetSession) func(ui.Event) {
	joined := false
	return func(e ui.Event) {
		if g, ok := gameOf(e, host); ok && !joined {
			joined = true
			if err := guest.Join(g.ID); err != nil {
				t.Errorf("join: %v", err)
			}
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

// Two people and two bots; Bob leaves for good mid-game (Leave, which
// returns at once, then Close on its LeaveDone, as the interface does):
// Ann's session says "Bob left" for his colour, a bot flies it, and her
// game ends with a full result, never asking her a lone decision (the
// leave needs none).
func TestNetLeaveLAN(t *testing.T) {
	t.Parallel()
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
	seen := <-bob // its events end only with the Close after LeaveDone
	if leaveErr != nil {
		t.Fatalf("Leave: %v", leaveErr)
	}
	dones := 0
	for _, e := range seen {
		if _, ok := e.(ui.LeaveDone); ok {
			dones++
		}
	}
	if dones != 1 {
		t.Fatalf("Bob's session said LeaveDone %d times, want once", dones)
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
	t.Parallel()
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
// back by itself, its table names Ann as she chose, not by her peer ID
// (the names are saved beside the log), and it shows the game's chat as
// it was (saved beside the log too), Ann's line and his own; it says it
// is resuming (ui.Resuming) until it has caught up with Ann, and Ann is
// told he is back and catching up (ui.CatchingUp).
func TestNetResumeKeepsNamesLAN(t *testing.T) {
	t.Parallel()
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
		if err := b.Chat("back soon"); err != nil {
			t.Errorf("Bob's chat: %v", err)
		}
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
	annSaw := make(chan ui.CatchingUp, 16)
	go func() {
		pa := &netPlayer{s: a, c: &checker{t: t, you: engine.Red, autoRoll: true}}
		chatted := false
		pa.run(t, func(e ui.Event) {
			if c, ok := e.(ui.CatchingUp); ok {
				annSaw <- c
			}
			if _, ok := e.(ui.GameStarted); ok && !chatted {
				chatted = true
				if err := a.Chat("good luck"); err != nil {
					t.Errorf("Ann's chat: %v", err)
				}
			}
		}, annDone)
	}()
	<-crashed
	<-bob
	b2 := newNetTestWith(t, "Bob", same)
	var table *ui.TableUpdate
	starts, moved := 0, 0
	var first *ui.Moved
	var chat []ui.ChatLine
	guard := time.After(2 * time.Minute) // a hang guard, not a speed claim
	var resuming []bool
	for moved < 6 || len(chat) < 2 || len(resuming) < 2 {
		var e ui.Event
		select {
		case e = <-b2.Events():
		case <-guard:
			t.Fatalf("the resumed program showed %d moves, the chat %+v, resuming %v", moved, chat, resuming)
		}
		if r, ok := e.(ui.Resuming); ok {
			resuming = append(resuming, r.On)
		}
		if l, ok := e.(ui.ChatLine); ok {
			chat = append(chat, l)
		}
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
			moved++ // the history Bob had seen before the crash
		}
	}
	if !reflect.DeepEqual(resuming, []bool{true, false}) {
		t.Errorf("the resumed program said resuming %v, want on, then off once caught up", resuming)
	}
	wantChat := []ui.ChatLine{{From: "Ann", Colour: engine.Red, Text: "good luck"}, {From: "Bob", Colour: engine.Blue, Text: "back soon"}}
	if !reflect.DeepEqual(chat, wantChat) {
		t.Errorf("the resumed program's chat %+v, want the game's chat as it was %+v", chat, wantChat)
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
	// Ann's player list said Bob was catching up once he was back.
	select {
	case c := <-annSaw:
		if c != (ui.CatchingUp{Colour: engine.Blue, Name: "Bob"}) {
			t.Errorf("Ann saw %+v, want Bob at Blue catching up", c)
		}
	default:
		t.Error("Ann was never told Bob was back and catching up")
	}
}

// As TestNetAloneDecisionLAN, but Ann ends the game: her log is kept,
// marked closed (never resumed), and she is back in the lobby, where
// she may create a game again.
func TestNetAloneEndGameLAN(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestNetLeaveWithBotsOnly: a person alone with bots on the LAN, bots'
// pace on, leaves while the die waits for them: Leave returns at once,
// the game stops where it is (nobody to tell; signing the Leave would
// make the node play the bots' whole game first, seconds with expert
// bots), its log verifies and is marked left, and LeaveDone comes ahead
// of the paced rolls still queued, so the interface quits now.
func TestNetLeaveWithBotsOnly(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTestWith(t, "Ann", func(o *NetOptions) { o.ManualRoll, o.BotDelay = true, 200*time.Millisecond })
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Colour{engine.Blue, engine.Yellow, engine.Green} {
		if err := a.SetSeat(c, "expert"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	rolls, left := 0, false
	guard := time.After(2 * time.Minute) // a hang guard, not a speed claim
	for {
		var e ui.Event
		select {
		case e = <-a.Events():
		case <-guard:
			t.Fatal("no LeaveDone")
		}
		switch e := e.(type) {
		case ui.DiceWaiting:
			if e.YouRoll && !left {
				if rolls++; rolls == 3 {
					left = true
					if err := a.Leave(); err != nil {
						t.Fatalf("Leave: %v", err)
					}
				} else if err := a.Roll(); err != nil {
					t.Fatal(err)
				}
			}
		case ui.Rolled:
			if e.YouChoose && !left {
				_ = a.Choose(e.Moves[0])
			}
		case ui.GameOver:
			t.Fatal("the game's paced end came before LeaveDone")
		case ui.LeaveDone:
			if !left {
				t.Fatal("LeaveDone before Leave")
			}
			a.mu.Lock()
			gid := a.gameID
			a.mu.Unlock()
			if !a.dir.Closed(gid) {
				t.Error("the game left is not marked closed")
			}
			data, err := os.ReadFile(a.dir.LogPath(gid))
			if err != nil {
				t.Fatal(err)
			}
			if v, err := lockstep.Verify(data); err != nil || v.Phase == lockstep.PhaseOver {
				t.Errorf("the left game's log: %v, phase %s; want unfinished, verifying", err, v.Phase)
			}
			return
		}
	}
}

// While a game runs the host admits only its players; once it is over
// and the player is back in the lobby, a stranger (a peer that dials us
// to offer its game) is admitted again. (Before, the last game's
// members stayed the only ones admitted until the next table.)
func TestNetAdmitsStrangersAfterTheGameLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	annTable(t, a)
	bob := bobLoop(t, a, b, 1<<30, func() {})
	annPlays(t, a, nil)
	stranger := p2ptest.NewHost(t)
	stranger.Peerstore().AddAddrs(a.ID(), a.h.Addrs(), time.Hour)
	deadline := time.Now().Add(30 * time.Second) // a hang guard: the linger, then the lobby
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s, err := stranger.NewStream(ctx, a.ID(), "/ipfs/ping/1.0.0")
		cancel()
		if err == nil {
			s.Reset()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stranger is still refused after the game: %v", err)
		}
		stranger.Network().ClosePeer(a.ID())
		time.Sleep(200 * time.Millisecond)
	}
	b.Close()
	<-bob
}
