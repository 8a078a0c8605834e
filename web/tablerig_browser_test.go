//go:build browser

package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
	"aeroplane/session"
	"aeroplane/ui"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
)

// The rig the chromium tests at a LAN table share: Ann's program serving
// the page with a game open at her table (hostTable), or headless
// programs of a netlab LAN serving it (startHeadless, waitPage), and a
// chromium tab driven as the person Wendy at that page (pageTab). The
// tests name the people Ann, Bob and Wendy: the tab waits for Bob at the
// table before Wendy sits down.

// hostTable serves the built client on the namespace's loopback, its
// sockets to players (nil: ann's program's ServeWeb), and opens a new game
// at ann's table with a random bot at each of bots. The caller closes the
// server (a benchmark's iterations each serve their own table).
func hostTable(tb testing.TB, ann *session.NetSession, players func(*web.Conn), bots ...engine.Colour) *web.Server {
	tb.Helper()
	if players == nil {
		players = ann.ServeWeb
	}
	assets, _ := web.BuiltClient(tb)
	srv, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Assets: assets, Players: players})
	if err != nil {
		tb.Fatal(err)
	}
	if err := ann.CreateGame(engine.DefaultRules()); err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	for _, c := range bots {
		if err := ann.SetSeat(c, "random"); err != nil {
			srv.Close()
			tb.Fatal(err)
		}
	}
	return srv
}

// playAtAnnsTable is hostTable's table of Ann's program (key key), a bot
// at Yellow and Bob's program (key key+1) joining it, their people
// playing games games (netPerson) and each telling its end on ends. The
// server closes when t ends.
func playAtAnnsTable(t *testing.T, key, games int) (srv *web.Server, ends chan personEnd) {
	t.Helper()
	a, b := newTableProgram(t, "Ann", key), newTableProgram(t, "Bob", key+1)
	srv = hostTable(t, a, nil, engine.Yellow)
	t.Cleanup(func() { srv.Close() })
	ends = make(chan personEnd, 2)
	go netPerson(t, a, nil, games, ends)
	go netPerson(t, b, a, games, ends)
	return srv, ends
}

// headlessLAN is a private LAN of two machines (netlab's), this test's
// namespace joined to it as the browser's machine, and the aeroplane
// binary its programs run, with the client built for this test.
func headlessLAN(tb testing.TB) (*netlab.LAN, string) {
	tb.Helper()
	_, clientDir := web.BuiltClient(tb)
	bin := buildAeroplane(tb, clientDir)
	lan := netlab.NewLAN(tb, 2)
	lan.JoinHere()
	return lan, bin
}

// buildAeroplane builds the aeroplane binary with the client built for
// this test embedded (go build -overlay puts it where go generate would).
func buildAeroplane(t testing.TB, clientDir string) string {
	t.Helper()
	static, err := filepath.Abs("static")
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	for _, name := range []string{"client.wasm.gz", "wasm_exec.js"} {
		replace[filepath.Join(static, name)] = filepath.Join(clientDir, name)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "aeroplane")
	cmd := exec.Command(web.GoCmd(), "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "aeroplane")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building aeroplane: %v\n%s", err, out)
	}
	return bin
}

// headlessRun is an `aeroplane --headless` of a netlab LAN, its output
// kept for the test's checks and failure messages.
type headlessRun struct {
	cmd    *exec.Cmd
	stdout testout.Buffer
	stderr testout.Buffer
}

// startHeadless starts bin with args as machine i of lan; it is killed
// when tb ends.
func startHeadless(tb testing.TB, lan *netlab.LAN, i int, bin string, args ...string) *headlessRun {
	tb.Helper()
	r := &headlessRun{cmd: lan.Command(i, bin, args...)}
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
	return r
}

// waitPage waits up to 20 s for the page r serves to answer.
func waitPage(tb testing.TB, page string, r *headlessRun) {
	tb.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(page); err == nil {
			res.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the page at %s never answered:\n%s", page, r.stderr.String())
		}
	}
}

// pageTab is a chromium tab at a table's page, driven as its person.
type pageTab struct {
	tb    testing.TB
	ctx   context.Context // the tab's, bounded: a stuck game, not a slow one
	every time.Duration   // how often a poll looks; after a tap the tab waits five of these for the table's answer
	also  func() string   // more for a failed poll's message (a program's log), or nil
}

// pageDump is what a failed poll prints of the page.
const pageDump = `(() => { const text = id => { const e = document.getElementById(id); return e ? e.textContent : "-"; };
	return JSON.stringify(document.body.dataset) + " players=" + text("players") + " status=" + text("status") + " chat=" + text("chatlog"); })()`

// openTab is a tab of browser (web.NewBrowser's), for five minutes at
// most, polling every every.
func openTab(tb testing.TB, browser context.Context, every time.Duration) *pageTab {
	ctx, cancel := context.WithTimeout(browser, 5*time.Minute)
	tb.Cleanup(cancel)
	return &pageTab{tb: tb, ctx: ctx, every: every}
}

// poll waits up to a minute until js is true on the page.
func (p *pageTab) poll(what, js string) {
	p.tb.Helper()
	p.pollWithin(what, js, time.Minute)
}

// pollWithin waits up to within until js is true on the page; else the
// test fails with what it waited for and what the page showed.
func (p *pageTab) pollWithin(what, js string, within time.Duration) {
	p.tb.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(p.every), chromedp.WithPollingTimeout(within))); err != nil {
		state, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](pageDump))
		more := ""
		if p.also != nil {
			more = "\n" + p.also()
		}
		p.tb.Fatalf("%s: %v (page: %s)%s", what, err, state, more)
	}
}

// do runs actions on the page; the test fails if one does.
func (p *pageTab) do(actions ...chromedp.Action[chromedp.Void]) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.tb.Fatal(err)
	}
}

// openTable opens the page at url and waits for its table with Bob at it.
func (p *pageTab) openTable(url string) {
	p.tb.Helper()
	p.do(chromedp.Navigate(url))
	p.poll("the table with Bob at it", `document.body.dataset.game === "table" && document.getElementById("players").textContent.includes("Bob")`)
}

// sit types Wendy's name and sits down at the open table.
func (p *pageTab) sit() {
	p.tb.Helper()
	p.do(chromedp.SendKeys("#name", "Wendy"), chromedp.Click("#sit"))
	p.poll("seated", `!!document.body.dataset.seated`)
}

// readyUntilStart says ready, again whenever a change of the table
// cleared it, until the game has left the table (playing, or an end the
// test's checks then report). A tap waits 5 s at most for the button:
// the game may start (the table hidden) between the look and the tap,
// and the next look then sees it started.
func (p *pageTab) readyUntilStart() {
	p.tb.Helper()
	for {
		state, err := chromedp.Run(p.ctx, chromedp.Poll[string](`(g => g !== "table" && g !== "joining" ? "started" : (g === "table" && document.body.dataset.seated && document.body.dataset.ready === "no" ? "unready" : false))(document.body.dataset.game)`,
			chromedp.WithPollingInterval(p.every), chromedp.WithPollingTimeout(time.Minute)))
		if err != nil {
			p.tb.Fatal(err)
		}
		if state == "started" {
			return
		}
		tctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		err = chromedp.Do(tctx, chromedp.Click("#readybtn"))
		cancel()
		if err != nil && !(errors.Is(err, context.DeadlineExceeded) && p.ctx.Err() == nil) {
			p.tb.Fatal(err)
		}
		time.Sleep(5 * p.every) // the table's answer
	}
}

// tapAllGameLong has the person tap every plane offered, at once, all
// game long (a timer of the page's), and waits for the game to be on
// with Play on there offered.
func (p *pageTab) tapAllGameLong() {
	p.tb.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`setInterval(() => { const p = document.querySelector(".movable");
		if (p) p.dispatchEvent(new MouseEvent("click", {bubbles: true})); }, 20)`)); err != nil {
		p.tb.Fatal(err)
	}
	p.poll("playing", `document.body.dataset.game === "playing" && !document.getElementById("moveform").hidden`)
}

// playOnThere types addr (a program's page address) under Play on there,
// in place of what the field held, and taps Go.
func (p *pageTab) playOnThere(addr string) {
	p.tb.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("movehost").value = ""`)); err != nil {
		p.tb.Fatal(err)
	}
	p.do(chromedp.SendKeys("#movehost", addr), chromedp.Click("#movego"))
}

// tableGoer is what every person at a program of a test's table does
// before the game: join host's game (nil: this program hosts it) the
// first time the lobby lists it, and say ready whenever the table shows
// their seat unready before the start.
type tableGoer struct {
	s, host *session.NetSession
	joined  bool
}

// see does that for e; it returns a refused join (a ready the table
// refuses, seen late, is harmless).
func (g *tableGoer) see(e ui.Event) error {
	switch e := e.(type) {
	case ui.LobbyUpdate:
		for _, gm := range e.Games {
			if g.host != nil && !g.joined && gm.Host.ID == g.host.ID().String() {
				g.joined = true
				return g.s.Join(gm.ID)
			}
		}
	case ui.TableUpdate:
		for _, st := range e.Seats {
			if st.You && st.Kind == ui.SeatHuman && !st.Ready && !e.Started {
				_ = g.s.SetReady(true)
			}
		}
	}
	return nil
}
