//go:build browser

package web_test

import (
	"context"
	"encoding/base64"
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
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a stuck game, not a slow one
	defer cancel()
	assets, _ := web.BuiltClient(t)
	a, b := fastProgram(t, "Ann", 94), fastProgram(t, "Bob", 95)
	srvA, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Assets: assets, Players: a.ServeWeb})
	if err != nil {
		t.Fatal(err)
	}
	defer srvA.Close()
	srvB, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Assets: assets, Players: b.ServeWeb})
	if err != nil {
		t.Fatal(err)
	}
	defer srvB.Close()
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSeat(engine.Yellow, "random"); err != nil {
		t.Fatal(err)
	}
	annEnds := make(chan personEnd, 1)
	go netPerson(t, a, nil, annEnds)
	absent, back := make(chan struct{}), make(chan struct{})
	bobEnd := make(chan ui.GameOver, 1)
	go func() { // Bob: slow while the web player is away, so the game is on when she is back
		joined, away, gone := false, false, false
		for e := range b.Events() {
			switch e := e.(type) {
			case ui.LobbyUpdate:
				for _, g := range e.Games {
					if !joined && g.Host.ID == a.ID().String() {
						joined = true
						_ = b.Join(g.ID)
					}
				}
			case ui.TableUpdate:
				for _, st := range e.Seats {
					if st.You && st.Kind == ui.SeatHuman && !st.Ready && !e.Started {
						_ = b.SetReady(true)
					}
				}
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

	tab := web.NewBrowser(t)
	tctx, tcancel := context.WithTimeout(tab, 5*time.Minute)
	defer tcancel()
	poll := func(what, js string) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
			state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset)`))
			t.Fatalf("%s: %v (page: %s)", what, err, state)
		}
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(srvA.URLs()[0])); err != nil {
		t.Fatal(err)
	}
	poll("the table with Bob at it", `document.body.dataset.game === "table" && document.getElementById("players").textContent.includes("Bob")`)
	if err := chromedp.Do(tctx, chromedp.SendKeys("#name", "Wendy"), chromedp.Click("#sit")); err != nil {
		t.Fatal(err)
	}
	poll("seated", `!!document.body.dataset.seated`)
	for {
		state, err := chromedp.Run(tctx, chromedp.Poll[string](`document.body.dataset.game !== "table" ? "started" : (document.body.dataset.ready === "no" ? "unready" : false)`,
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		if state == "started" {
			break
		}
		if err := chromedp.Do(tctx, chromedp.Click("#readybtn")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The person taps every plane offered, at once, all game long.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[int](`setInterval(() => { const p = document.querySelector(".movable");
		if (p) p.dispatchEvent(new MouseEvent("click", {bubbles: true})); }, 20)`)); err != nil {
		t.Fatal(err)
	}
	poll("playing", `document.body.dataset.game === "playing" && !document.getElementById("moveform").hidden`)
	time.Sleep(time.Second)
	// A wrong address first: Ann's socket closes, nothing answers.
	if err := chromedp.Do(tctx, chromedp.SendKeys("#movehost", "127.0.0.1:1"), chromedp.Click("#movego")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-absent:
	case <-ctx.Done():
		t.Fatal("Bob never saw the web player absent")
	}
	a.Close() // Ann's laptop is gone, and the page it served stays open
	srvA.Close()
	bobAddr := strings.TrimSuffix(strings.TrimPrefix(srvB.URLs()[0], "http://"), "/")
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("movehost").value = ""`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.SendKeys("#movehost", bobAddr), chromedp.Click("#movego")); err != nil {
		t.Fatal(err)
	}
	poll("moved", `document.body.dataset.movedTo === "`+bobAddr+`" && !document.body.dataset.moveError`)
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
	poll("the page's game over", `["over", "halted", "none", "left"].includes(document.body.dataset.game)`)
	type end struct{ Game, History, Error string }
	got, err := chromedp.Run(tctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
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
	b64, err := chromedp.Run(tctx, chromedp.Evaluate[string](`aeroplane.exportLog()`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	vw, err := lockstep.Verify(raw)
	if err != nil || vw.History != vb.History || vw.Phase != lockstep.PhaseOver {
		t.Fatalf("the page's log: %v, %v", vw, err)
	}
	t.Logf("the page moved its seat to Bob's program and ended on %x with him; its log %d bytes verifies (%d cheats named: %v)", vb.History[:8], len(raw), len(vw.Cheats), vw.Cheats)
}
