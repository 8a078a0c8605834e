package ui

import (
	"context"
	"testing"
	"time"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// TestRunOnSimulationScreen drives the real tview loop: the session's
// events reach the screen, keys reach the session, and q mid-game asks
// first: only its confirmation leaves the game, and the session's
// LeaveDone ends Run and closes the session.
func TestRunOnSimulationScreen(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	f := newFake()
	done := make(chan error, 1)
	a := newApp(leaverSession{f}, Options{Lang: "en"}, sim)
	go func() { done <- a.run(context.Background()) }()

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for i := 0; i < 500; i++ {
			if ok() {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	f.ev <- LobbyUpdate{Me: Peer{Name: "alice"}}
	p := mustPos(t, "H,H,H,H/-/H,H,H,H/- R 0 -")
	tb := table4(true)
	f.ev <- tb
	f.ev <- GameStarted{Position: p}
	f.ev <- DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true}
	// Space does nothing until the events have reached the interface, so
	// a roll command proves they did and that keys reach the session.
	var calls []string
	waitFor("the roll command", func() bool {
		sim.InjectKey(tcell.KeyRune, ' ', tcell.ModNone)
		calls = append(calls, f.took()...)
		return len(calls) > 0
	})
	if calls[0] != "roll" {
		t.Fatalf("space sent %q", calls)
	}
	sim.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	sim.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	// Leave returned at once; the screen says leaving until the session's
	// LeaveDone.
	waitFor("the leave command", func() bool {
		calls = append(calls, f.took()...)
		return len(calls) > 0 && calls[len(calls)-1] == "leave"
	})
	select {
	case <-done:
		t.Fatal("Run ended before LeaveDone")
	case <-time.After(50 * time.Millisecond):
	}
	f.ev <- LeaveDone{}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q, y did not end Run")
	}
	// (the fake session stays waiting, so queued spaces may roll again)
	// Had q quit at once, Run would have closed the session without
	// reading the y that leaves.
	if got := append(calls, f.took()...); len(got) < 2 || got[len(got)-2] != "leave" || got[len(got)-1] != "close" {
		t.Fatalf("after q, y: %q, want the game left, then the session closed", got)
	}
}
