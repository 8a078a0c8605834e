//go:build browser

package web_test

import (
	"context"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/session"
	"aeroplane/ui"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
)

// netPerson is a person at a program of the table (a tableGoer of
// joinHost's game, nil at the host) for games games: the first move of
// every choice; at each end but the last it asks for the rematch (the
// terminal's r). At the host it says "good luck" as each game starts.
func netPerson(t *testing.T, s *session.NetSession, joinHost *session.NetSession, games int, done chan<- personEnd) {
	goer := tableGoer{s: s, host: joinHost}
	var chats []ui.ChatLine
	for e := range s.Events() {
		if err := goer.see(e); err != nil {
			t.Errorf("join: %v", err)
		}
		switch e := e.(type) {
		case ui.ChatLine:
			chats = append(chats, e)
		case ui.GameStarted:
			if joinHost == nil {
				if err := s.Chat("good luck"); err != nil {
					t.Errorf("chat: %v", err)
				}
			}
		case ui.Rolled:
			if e.YouChoose {
				if err := s.Choose(e.Moves[0]); err != nil && !closedUnder(err) {
					t.Errorf("choose: %v", err)
				}
			}
		case ui.GameOver:
			if games--; games == 0 {
				done <- personEnd{e, chats}
				return
			}
			if err := s.Rematch(); err != nil {
				t.Errorf("rematch: %v", err)
			}
		}
	}
	done <- personEnd{chats: chats}
}

// closedUnder reports whether err says the session was closed: a test
// that stops a program (its laptop gone) may do so while its person is
// choosing a move.
func closedUnder(err error) bool {
	var ue *ui.Error
	return errors.As(err, &ue) && ue.Msg.Key == "err.closed"
}

// personEnd is how a program's person saw the game end, and its chat.
type personEnd struct {
	over  ui.GameOver
	chats []ui.ChatLine
}

// newTableProgram is a program of the table on loopback; more changes
// its options first.
func newTableProgram(t *testing.T, name string, key int, more ...func(*session.NetOptions)) *session.NetSession {
	t.Helper()
	o := session.NetOptions{Name: name, DataDir: t.TempDir(), Key: testkit.Key(key),
		ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}, Transport: p2p.TransportConfig{Heartbeat: 100 * time.Millisecond},
		Linger: 300 * time.Millisecond}
	for _, f := range more {
		f(&o)
	}
	s, err := session.NewNet(o)
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

// TestBrowserSitsAtLANTable: chromium opens the page a program at a LAN
// table serves (Ann's, whose table has Bob of another program and a
// bot), the person types a name and sits down, says a line (both
// programs show it under the person's name), says ready, and the
// game starts with the web player as a seat of its own; it plays by
// tapping to the end, on the history Ann's and Bob's logs end on, and
// the page's exported log verifies to it.
//
// Reloaded, the page is reloaded (Page.reload) after a few taps in the
// game: the new page takes its key, chain secret and log from the
// browser's localStorage, the serving program gives it its game's setup
// again, and it plays on to the same history, its exported log (the kept
// one, then the rest) verifying whole.
func TestBrowserSitsAtLANTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	for _, tc := range []struct {
		name        string
		reloadAfter int  // taps; 0: never
		newTab      bool // instead of a reload, the page opened in a second tab
	}{{"stays", 0, false}, {"reloaded mid-game", 4, false}, {"a second tab takes it", 4, true}} {
		t.Run(tc.name, func(t *testing.T) { browserAtLANTable(t, tc.reloadAfter, tc.newTab) })
	}
}

// browserAtLANTable plays TestBrowserSitsAtLANTable's game, the page
// reloaded after reloadAfter taps, or opened in a second tab of the same
// browser then (newTab): the second tab takes the game from the same
// storage and the first stops, so that one node of the key signs.
func browserAtLANTable(t *testing.T, reloadAfter int, newTab bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a stuck game, not a slow one
	defer cancel()
	srv, ends := playAtAnnsTable(t, 90, 1)
	tab := openTab(t, web.NewBrowser(t), 10*time.Millisecond)
	tab.openTable(srv.URLs()[0])
	tab.sit()
	tab.do(chromedp.SendKeys("#chatline", "hi from chromium"), chromedp.Click("#chatsay"))
	tab.poll("its own line shown back", `document.getElementById("chatlog").textContent.includes("Wendy: hi from chromium")`)
	tab.readyUntilStart()
	seated, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.body.dataset.seated`))
	if err != nil {
		t.Fatal(err)
	}
	taps := 0
	if reloadAfter > 0 {
		if taps, err = tapTimes(tab.ctx, reloadAfter); err != nil {
			t.Fatal(err)
		}
		kept, err := chromedp.Run(tab.ctx, chromedp.Evaluate[int](`Object.keys(localStorage).filter(k => k.startsWith("aeroplane.log.")).length`))
		if err != nil || kept == 0 {
			t.Fatalf("before the reload the browser keeps %d parts of the log (%v)", kept, err)
		}
		if newTab {
			first := tab.ctx
			tab2, cancel2 := chromedp.NewContext(tab.ctx) // a tab of the same browser: the same storage
			defer cancel2()
			tab = openTab(t, tab2, tab.every)
			tab.do(chromedp.Navigate(srv.URLs()[0]))
			stopped, err := chromedp.Run(first, chromedp.Poll[string](`document.body.dataset.endKind === "suspended" ? document.getElementById("status").textContent : false`,
				chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
			if err != nil {
				t.Fatalf("the first tab did not stop: %v", err)
			}
			t.Logf("the first tab says: %s", stopped)
		} else {
			tab.do(chromedp.Reload())
		}
		back := time.Now()
		tab.poll("the reloaded page back in its game", `document.body.dataset.game === "playing"`)
		t.Logf("the page back in its game %v after the reload (or the second tab) loaded", time.Since(back).Round(time.Millisecond))
	}
	more, err := web.TapUntilEnd(tab.ctx)
	if err != nil {
		t.Fatal(err)
	}
	taps += more
	type end struct{ Game, History, Error string }
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != "over" {
		t.Fatalf("the page's game ended %q (%s), want over", got.Game, got.Error)
	}
	var hist [][32]byte
	for range 2 {
		select {
		case end := <-ends:
			if !slices.ContainsFunc(end.chats, func(l ui.ChatLine) bool { return l.From == "Wendy" && l.Text == "hi from chromium" }) {
				t.Errorf("a program's chat %+v lacks the web player's line", end.chats)
			}
			data, err := os.ReadFile(end.over.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			v, err := lockstep.Verify(data)
			if err != nil || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 {
				t.Fatalf("a program's log: %v, %v", v, err)
			}
			if len(v.Setup.Players()) != 3 {
				t.Fatalf("the game seated %v, want Ann, Bob and the web player", v.Setup.Players())
			}
			hist = append(hist, v.History)
		case <-ctx.Done():
			t.Fatal("a program's player never finished")
		}
	}
	if hist[0] != hist[1] || got.History != hex.EncodeToString(hist[0][:]) {
		t.Fatalf("the page ended on %s, the programs on %x and %x", got.History, hist[0], hist[1])
	}
	if log, err := chromedp.Run(tab.ctx, chromedp.Text("#chatlog")); reloadAfter == 0 && (err != nil || !strings.Contains(log, "Ann: good luck")) {
		t.Errorf("the page's chat %q (%v) lacks Ann's line", log, err)
	}
	data, err := web.PageLog(tab.ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.History != hist[0] || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 {
		t.Fatalf("the page's log: %v, %v", v, err)
	}
	if reloadAfter > 0 {
		left, err := chromedp.Run(tab.ctx, chromedp.Evaluate[[]string](`Object.keys(localStorage).filter(k => k.startsWith("aeroplane.log.") || k === "aeroplane.entropy")`))
		if err != nil || len(left) != 0 {
			t.Fatalf("after the game the browser keeps %v (%v), want the game forgotten", left, err)
		}
	}
	t.Logf("the web player sat at %s, tapped %d planes (reloaded after %d); one history %x; its log %d bytes verifies", seated, taps, reloadAfter, hist[0][:8], len(data))
}

// tapTimes taps n shining planes (as web.TapUntilEnd does), or fewer if
// the game ends first.
func tapTimes(ctx context.Context, n int) (taps int, err error) {
	for taps < n {
		state, err := chromedp.Run(ctx, chromedp.Poll[string](`["over", "halted", "none", "left"].includes(document.body.dataset.game) ? "end" : (document.querySelector(".movable") ? "tap" : false)`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
		if err != nil || state == "end" {
			return taps, err
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const p = document.querySelector(".movable");
			if (!p) return false; p.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`)); err != nil {
			return taps, err
		}
		taps++
	}
	return taps, nil
}

// TestBrowserRematch: chromium plays a game at Ann's LAN table (with Bob
// of another program and a bot), and at its end taps Rematch while Ann
// and Bob press r: the page sits down at the reopened table under the
// same name, asks for its colour back, says ready, and plays the second
// game to the history the programs' logs end on, at the colour of the
// first.
func TestBrowserRematch(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, ends := playAtAnnsTable(t, 92, 2)
	tab := openTab(t, web.NewBrowser(t), 10*time.Millisecond)
	tab.openTable(srv.URLs()[0])
	tab.sit()
	tab.readyUntilStart()
	if _, err := web.TapUntilEnd(tab.ctx); err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.body.dataset.game + " " + document.body.dataset.seated`))
	if err != nil || !strings.HasPrefix(first, "over ") {
		t.Fatalf("the first game ended %q (%v)", first, err)
	}
	colour := strings.TrimPrefix(first, "over ")
	tab.poll("the rematch offered", `!!document.getElementById("rematch")`)
	tab.do(chromedp.Click("#rematch"))
	tab.poll("seated again", `document.body.dataset.game === "table" && !!document.body.dataset.seated`)
	tab.readyUntilStart()
	taps, err := web.TapUntilEnd(tab.ctx)
	if err != nil {
		t.Fatal(err)
	}
	type end struct{ Game, History, Seated string }
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "", seated: document.body.dataset.seated})`))
	if err != nil {
		t.Fatal(err)
	}
	var hist []string
	for range 2 {
		select {
		case e := <-ends:
			data, err := os.ReadFile(e.over.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			v, err := lockstep.Verify(data)
			if err != nil || v.Phase != lockstep.PhaseOver || len(v.Setup.Players()) != 3 {
				t.Fatalf("a program's second log: %v, %v", v, err)
			}
			hist = append(hist, hex.EncodeToString(v.History[:]))
		case <-ctx.Done():
			t.Fatal("a program's player never finished the rematch")
		}
	}
	if got.Game != "over" || hist[0] != hist[1] || got.History != hist[0] || got.Seated != colour {
		t.Fatalf("the page's rematch ended %q on %s at %s; the programs on %s and %s; the first game at %s", got.Game, got.History, got.Seated, hist[0], hist[1], colour)
	}
	t.Logf("the rematch: the page at %s again, %d taps, one history %s", colour, taps, hist[0][:16])
}

// TestBrowserReloadAtTheTable: a person sits at Ann's LAN table from
// chromium (Ann and Bob of another program at it, Yellow and Green free)
// and picks Green; the page is reloaded before the game (the phone locked
// and the browser discarded the tab): the new page sits down again at
// that table under the kept name, lands at the first free colour, and
// asks for Green back: the other program sees the person at Green again.
// So too when the page's socket drops at the table (the serving program
// closes it here; a phone locking does the same): the page reloads itself
// and sits down again.
func TestBrowserReloadAtTheTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	for _, dropped := range []bool{false, true} {
		name := "reloaded"
		if dropped {
			name = "socket dropped"
		}
		t.Run(name, func(t *testing.T) { browserBackAtTheTable(t, dropped) })
	}
}

func browserBackAtTheTable(t *testing.T, dropped bool) {
	a, b := newTableProgram(t, "Ann", 94), newTableProgram(t, "Bob", 95)
	conns := make(chan *web.Conn, 8) // the page's sockets, as Ann's program took them
	srv := hostTable(t, a, func(c *web.Conn) { conns <- c; a.ServeWeb(c) })
	defer srv.Close()
	go func() {
		for range a.Events() { // Ann's person only watches
		}
	}()
	// Bob joins Ann's table; wendyAt is where his program showed the
	// person, each change in order.
	var mu sync.Mutex
	var wendyAt []engine.Colour
	go func() {
		joined := false
		for e := range b.Events() {
			if u, ok := e.(ui.LobbyUpdate); ok {
				for _, g := range u.Games {
					if !joined && g.Host.ID == a.ID().String() {
						joined = true
						_ = b.Join(g.ID)
					}
				}
			}
			if u, ok := e.(ui.TableUpdate); ok {
				at := engine.NoColour
				for c, st := range u.Seats {
					if st.Name == "Wendy" && st.Web {
						at = engine.Colour(c)
					}
				}
				mu.Lock()
				if len(wendyAt) == 0 || wendyAt[len(wendyAt)-1] != at {
					wendyAt = append(wendyAt, at)
				}
				mu.Unlock()
			}
		}
	}()
	tab := openTab(t, web.NewBrowser(t), 10*time.Millisecond)
	tab.openTable(srv.URLs()[0])
	tab.sit()
	tab.poll("seated at the first free colour", `document.body.dataset.seated === "Y"`)
	tab.do(chromedp.Click(`#colours button[data-colour="G"]`))
	tab.poll("at Green", `document.body.dataset.seated === "G"`)
	if dropped {
		var last *web.Conn
		for len(conns) > 0 {
			last = <-conns
		}
		if last == nil {
			t.Fatal("Ann's program never took the page's socket")
		}
		last.Close()
		tab.poll("the page told its socket closed", `document.body.dataset.endKind === "closed"`)
	} else {
		tab.do(chromedp.Reload())
	}
	tab.poll("the reloaded page seated again at Green", `document.body.dataset.state === "board" && document.body.dataset.seated === "G" && document.getElementById("sitform").hidden`)
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		seen := slices.Clone(wendyAt)
		mu.Unlock()
		// Yellow, Green; gone with the old page; Yellow again, Green.
		if n := len(seen); n >= 5 && seen[n-1] == engine.Green && slices.Contains(seen[2:], engine.NoColour) {
			t.Logf("Bob's program showed Wendy at %v", seen)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Bob's program showed Wendy at %v: want her gone with the old page, then back at Green", seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
