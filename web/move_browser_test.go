//go:build browser

package web_test

import (
	"context"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/session"
	"aeroplane/ui"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
)

// fastProgram is a program of the table whose players vote an absent
// player out within half a second's ticks and go on alone.
func fastProgram(t *testing.T, name string, key int) *session.NetSession {
	t.Helper()
	return newTableProgram(t, name, key, func(o *session.NetOptions) { o.AbsentTicks, o.GoOnAlone = 5, true })
}

// TestBrowserMovesToAnotherLaptop: chromium plays at a LAN table from the
// page Ann's program served; the page loses Ann's socket (the person
// typed a wrong address under Play on there) and the programs vote the
// web player absent; Ann's program then goes away for good. The person
// types Bob's page address and taps Play on there: the page, its key
// still in memory, reaches Bob's program, moves its seat there, returns
// and plays to the end on the history Bob's log ends on, and its own log
// verifies.
func TestBrowserMovesToAnotherLaptop(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a stuck game, not a slow one
	defer cancel()
	assets, _ := web.BuiltClient(t)
	a, b := fastProgram(t, "Ann", 94), fastProgram(t, "Bob", 95)
	srvA := hostTable(t, a, nil, engine.Yellow)
	defer srvA.Close()
	srvB, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Assets: assets, Players: b.ServeWeb})
	if err != nil {
		t.Fatal(err)
	}
	defer srvB.Close()
	annEnds := make(chan personEnd, 1)
	go netPerson(t, a, nil, 1, annEnds)
	absent, back := make(chan struct{}), make(chan struct{})
	bobEnd := make(chan ui.GameOver, 1)
	go func() { // Bob: slow while the web player is away, so the game is on when she is back
		goer := tableGoer{s: b, host: a}
		away, gone := false, false
		for e := range b.Events() {
			_ = goer.see(e)
			switch e := e.(type) {
			case ui.Presence:
				if e.Name == "Wendy" && !e.Present && !away {
					away = true
					close(absent)
				}
				if e.Name == "Wendy" && e.Present && away && !gone {
					gone = true
					close(back)
				}
			case ui.Rolled:
				if e.YouChoose {
					if away && !gone {
						select {
						case <-back:
						case <-time.After(3 * time.Second):
						}
					}
					_ = b.Choose(e.Moves[0])
				}
			case ui.GameOver:
				bobEnd <- e
				return
			}
		}
	}()

	tab := openTab(t, web.NewBrowser(t), 10*time.Millisecond)
	tab.openTable(srvA.URLs()[0])
	tab.sit()
	tab.readyUntilStart()
	tab.tapAllGameLong()
	time.Sleep(time.Second)
	// A wrong address first: Ann's socket closes, nothing answers.
	tab.playOnThere("127.0.0.1:1")
	select {
	case <-absent:
	case <-ctx.Done():
		t.Fatal("Bob never saw the web player absent")
	}
	a.Close() // Ann's laptop is gone, and the page it served stays open
	srvA.Close()
	bobAddr := strings.TrimSuffix(strings.TrimPrefix(srvB.URLs()[0], "http://"), "/")
	tab.playOnThere(bobAddr)
	tab.poll("moved", `document.body.dataset.movedTo === "`+bobAddr+`" && !document.body.dataset.moveError`)
	var over ui.GameOver
	select {
	case over = <-bobEnd:
	case <-ctx.Done():
		t.Fatal("Bob's game never ended")
	}
	select {
	case <-back:
	default:
		t.Fatal("Bob never saw the web player back")
	}
	tab.poll("the page's game over", `["over", "halted", "none", "left"].includes(document.body.dataset.game)`)
	type end struct{ Game, History, Error string }
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := lockstep.Verify(data)
	if err != nil || vb.Phase != lockstep.PhaseOver || len(vb.Cheats) != 0 {
		t.Fatalf("Bob's log: %v, %v", vb, err)
	}
	if got.Game != "over" || got.History != hex.EncodeToString(vb.History[:]) {
		t.Fatalf("the page's game ended %q on %s (%s), Bob's on %x", got.Game, got.History, got.Error, vb.History)
	}
	raw, err := web.PageLog(tab.ctx)
	if err != nil {
		t.Fatal(err)
	}
	vw, err := lockstep.Verify(raw)
	if err != nil || vw.History != vb.History || vw.Phase != lockstep.PhaseOver {
		t.Fatalf("the page's log: %v, %v", vw, err)
	}
	t.Logf("the page moved its seat to Bob's program and ended on %x with him; its log %d bytes verifies (%d cheats named: %v)", vb.History[:8], len(raw), len(vw.Cheats), vw.Cheats)
}
