//go:build browser

package web

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/web/client"

	"github.com/chromedp/chromedp"
)

// The browser tests drive Debian's chromium through the DevTools protocol
// (chromedp), inside netlab's private namespace: the page, the client and
// everything the browser might fetch stay on its loopback. They are behind
// the browser build tag so that only the run that installs chromium
// (.ci/run's browser step) builds them:
//
//	go test -tags browser -run 'TestBrowser' ./web

// newBrowser starts a fresh headless chromium (its own profile, nothing
// reaching out: no sync, no component updates, no QUIC) and returns a
// tab's context; it is closed when t ends.
func newBrowser(tb testing.TB) context.Context {
	tb.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		tb.Fatalf("the browser tests need Debian's chromium (apt-get install chromium): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(360, 640), // a phone in portrait
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	tb.Cleanup(func() { cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		tb.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// servePage serves the built client on the namespace's loopback.
func servePage(tb testing.TB) string {
	tb.Helper()
	assets, _ := builtClient(tb)
	s, err := Listen(Options{Addr: "127.0.0.1:0", Assets: assets})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s.URLs()[0]
}

// pageStart is what the page says once the client has started.
type pageStart struct {
	State  string             `json:"state"`
	Key    string             `json:"key"`
	Planes int                `json:"planes"`
	Square int                `json:"squares"`
	Times  map[string]float64 `json:"times"`
}

// loadPage opens url and waits for the page to leave "loading".
func loadPage(ctx context.Context, url string) (pageStart, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.Poll[chromedp.Void](`document.body.dataset.state !== "loading"`, chromedp.WithPollingInterval(5*time.Millisecond)),
	)
	if err != nil {
		return pageStart{}, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[pageStart](`({state: document.body.dataset.state, key: document.getElementById("key").textContent,
		planes: document.querySelectorAll("circle.plane").length, squares: document.querySelectorAll("#board .sq").length,
		times: window.aeroplaneTimes})`))
}

// TestBrowserShowsBoard: the page loads from the program, the wasm client
// starts, makes its key in the browser (the same one after a reload),
// and the board of a new game is
// drawn: 52 squares, 16 planes.
func TestBrowserShowsBoard(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	url := servePage(t)
	ctx := newBrowser(t)
	st, err := loadPage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != "board" {
		status, _ := chromedp.Run(ctx, chromedp.Text("#status"))
		t.Fatalf("page state %q (%s), want board", st.State, status)
	}
	if !strings.HasPrefix(st.Key, "12D3KooW") {
		t.Errorf("key shown %q, want an Ed25519 peer ID", st.Key)
	}
	if st.Planes != 16 || st.Square != 52 {
		t.Errorf("%d planes and %d squares drawn, want 16 and 52", st.Planes, st.Square)
	}
	if !(st.Times["wasm"] > 0 && st.Times["key"] >= st.Times["wasm"] && st.Times["board"] >= st.Times["key"]) {
		t.Errorf("times %v: want wasm, then key, then board", st.Times)
	}
	// A second load is the same browser: the key it kept in its
	// localStorage (client.Keeper), so a page reloaded keeps its seat.
	st2, err := loadPage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if st2.State != "board" || st2.Key != st.Key {
		t.Errorf("reload: state %q key %q (first %q): want the board and the same key", st2.State, st2.Key, st.Key)
	}
	t.Logf("page to board %.0f ms (wasm started %.0f ms)", st.Times["board"], st.Times["wasm"])
}

// BenchmarkBrowserPageToBoard measures, in a running chromium, a fresh
// page load from the program to the board drawn (ms since navigation),
// and reports the client's size as sent (gzip) and raw.
func BenchmarkBrowserPageToBoard(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	url := servePage(b)
	ctx := newBrowser(b)
	var total, wasm float64
	for b.Loop() {
		st, err := loadPage(ctx, url)
		if err != nil || st.State != "board" {
			b.Fatalf("state %q: %v", st.State, err)
		}
		total += st.Times["board"]
		wasm += st.Times["wasm"]
	}
	b.ReportMetric(total/float64(b.N), "ms-to-board")
	b.ReportMetric(wasm/float64(b.N), "ms-to-wasm")
	_, dir := builtClient(b)
	if fi, err := statSize(dir, wasmGz); err == nil {
		b.ReportMetric(float64(fi), "wasm-gz-bytes")
	}
	b.ReportMetric(float64(clientBuild.raw), "wasm-raw-bytes")
}

func statSize(dir, name string) (int64, error) {
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// TestBrowserPlaysAGame: the web player in chromium (the wasm engine and
// lockstep, its key and dice chain made in the page) sits at the serving
// program's table with the program's own player and a bot, and plays the
// whole game over the game socket to the same history hash as the program.
func TestBrowserPlaysAGame(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	table, tctx := tabAtTestTable(t)
	taps, err := playByTapping(tctx, table.url)
	if err != nil {
		t.Fatal(err)
	}
	if taps == 0 {
		t.Error("the player was never asked to tap a plane")
	}
	type end struct {
		Game, History, Ranking, Error string
		Planes                        int
		Save                          bool
	}
	got, err := chromedp.Run(tctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "",
		ranking: document.body.dataset.ranking || "", error: document.body.dataset.gameError || "",
		planes: document.querySelectorAll("circle.plane").length, save: document.getElementById("savelog") !== null})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != "over" {
		t.Fatalf("the page's game ended %q (%s), want over", got.Game, got.Error)
	}
	var host tableResult
	select {
	case host = <-table.result:
	case <-tctx.Done():
		t.Fatal("the program's player never finished")
	}
	if host.err != nil {
		t.Fatal(host.err)
	}
	if want := hex.EncodeToString(host.st.History[:]); got.History != want {
		t.Fatalf("the page's history %s, the program's %s", got.History, want)
	}
	var rank string
	for _, c := range host.st.Pos.Ranking() {
		rank += string(c.Letter())
	}
	if !got.Save {
		t.Error("the page offers no link to save the game's log")
	}
	if got.Ranking != rank || got.Planes != 12 {
		t.Errorf("page ranking %q with %d planes drawn, want %q and 12", got.Ranking, got.Planes, rank)
	}
	// The page's log, exported, verifies as `aeroplane verify` checks a
	// laptop's, to the same end.
	data, err := pageLog(tctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatalf("the page's log (%d bytes) does not verify: %v", len(data), err)
	}
	if v.History != host.st.History || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 {
		t.Errorf("verified log: phase %v, history %x, %d cheats; want over, %x, none", v.Phase, v.History, len(v.Cheats), host.st.History)
	}
	// The event log shows the game's last lines, the last one its end, and
	// the dice panel counts each face of every roll of the verified game.
	type events struct {
		Lines  int
		Last   string
		Rolled int
		Counts string
	}
	ev, err := chromedp.Run(tctx, chromedp.Evaluate[events](`(() => { const log = document.getElementById("eventlog");
		return {lines: log.children.length, last: log.lastElementChild ? log.lastElementChild.dataset.key : "",
			rolled: log.querySelectorAll("li[data-key=rolled]").length, counts: document.getElementById("faces").dataset.counts || ""}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	var faces [6]int
	rolls := 0
	for _, e := range v.Events {
		if e.Kind == lockstep.EventRolled && e.Value >= 1 && e.Value <= 6 {
			faces[e.Value-1]++
			rolls++
		}
	}
	want := fmt.Sprintf("%d %d %d %d %d %d", faces[0], faces[1], faces[2], faces[3], faces[4], faces[5])
	if ev.Lines == 0 || ev.Lines > 200 || ev.Last != "over" || ev.Rolled == 0 {
		t.Errorf("event log: %d lines (%d rolls), the last %q; want 1..200 lines ending with over", ev.Lines, ev.Rolled, ev.Last)
	}
	if ev.Counts != want || (ev.Lines < 200 && ev.Rolled != rolls) {
		t.Errorf("dice panel counts %q, %d rolls in the log; the verified game's %q, %d rolls", ev.Counts, ev.Rolled, want, rolls)
	}
	t.Logf("the browser's game: over, ranking %s, history %s, %d planes tapped; its log %d bytes verifies; event log %d lines, dice %s (%d rolls)", got.Ranking, got.History[:16], taps, len(data), ev.Lines, ev.Counts, rolls)
}

// pageLog is the open page's game log as its save link gives it
// (aeroplane.exportLog, base64).
func pageLog(ctx context.Context) ([]byte, error) {
	b64, err := chromedp.Run(ctx, chromedp.Evaluate[string](`aeroplane.exportLog()`))
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(b64)
}

// tabAtTestTable is a test table (newTestTable) serving the built client
// and a tab of a fresh chromium (newBrowser), each for five minutes at
// most: a stuck game, not a slow one.
func tabAtTestTable(tb testing.TB) (*testTable, context.Context) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	tb.Cleanup(cancel)
	assets, _ := builtClient(tb)
	table := newTestTable(tb, ctx, Options{Assets: assets})
	tctx, tcancel := context.WithTimeout(newBrowser(tb), 5*time.Minute)
	tb.Cleanup(tcancel)
	return table, tctx
}

// playByTapping opens the page and plays its game as a person does: each
// time planes shine, it taps the first (a click event on it, which the
// page hands to the wasm's choose), until the game has ended.
func playByTapping(ctx context.Context, url string) (taps int, err error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return 0, err
	}
	return tapUntilEnd(ctx)
}

// tapUntilEnd plays the open page's game by tapping (playByTapping):
// the die when it shines, the first shining plane when planes do.
func tapUntilEnd(ctx context.Context) (taps int, err error) { return tapUntilEndOn(ctx, ".movable") }

// tapUntilEndOn plays the open page's game by tapping the first element
// sel finds whenever there is one, until the game has ended.
func tapUntilEndOn(ctx context.Context, sel string) (taps int, err error) {
	q := strconv.Quote(sel)
	for {
		state, err := chromedp.Run(ctx, chromedp.Poll[string](`["over", "halted", "none", "left"].includes(document.body.dataset.game) ? "end" : (document.querySelector(`+q+`) ? "tap" : false)`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
		if err != nil {
			return taps, err
		}
		if state == "end" {
			return taps, nil
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const p = document.querySelector(`+q+`);
			if (!p) return false; p.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`)); err != nil {
			return taps, err
		}
		taps++
	}
}

// TestBrowserTapsLandingSquares: the person taps the die to roll and, to
// move, the square a plane would land on (not the plane); the page shows
// the way each move took and flies the plane along it, and the game ends
// on the program's history.
func TestBrowserTapsLandingSquares(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	table, tctx := tabAtTestTable(t)
	if err := chromedp.Do(tctx, chromedp.Navigate(table.url)); err != nil {
		t.Fatal(err)
	}
	// Every path the page draws is counted, and every die tapped.
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`typeof Board !== "undefined" && !!document.getElementById("die")`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`window.seen = {paths: 0, dice: 0, lands: 0, flights: 0};
		new MutationObserver(ms => {
			if (document.querySelector("polyline.trail")) seen.paths++;
			for (const m of ms) for (const n of m.addedNodes) if (n.nodeName === "animateMotion") seen.flights++;
		}).observe(document.getElementById("board"), {childList: true, subtree: true});
		document.addEventListener("click", ev => { if (ev.target.id === "die") seen.dice++; if (ev.target.classList.contains("land")) seen.lands++; }, true);
		true`)); err != nil {
		t.Fatal(err)
	}
	taps, err := tapUntilEndOn(tctx, "#die.movable, .hit.land")
	if err != nil {
		t.Fatal(err)
	}
	type end struct {
		Game, History                       string
		Paths, Dice, Lands, Flights, Planes int
	}
	got, err := chromedp.Run(tctx, chromedp.Evaluate[end](`({game: document.body.dataset.game, history: document.body.dataset.history || "",
		paths: seen.paths, dice: seen.dice, lands: seen.lands, flights: seen.flights, planes: document.querySelectorAll("circle.plane").length})`))
	if err != nil {
		t.Fatal(err)
	}
	host := <-table.result
	if host.err != nil {
		t.Fatal(host.err)
	}
	if want := hex.EncodeToString(host.st.History[:]); got.Game != "over" || got.History != want {
		t.Fatalf("the page's game ended %q on %s, the program's on %s", got.Game, got.History, want)
	}
	if got.Dice == 0 || got.Lands == 0 || got.Paths == 0 || got.Flights == 0 || got.Dice+got.Lands != taps {
		t.Errorf("%d taps: %d on the die, %d on landing squares, %d paths drawn, %d planes flown; want some of each, every tap on one", taps, got.Dice, got.Lands, got.Paths, got.Flights)
	}
	t.Logf("the die tapped %d times, %d landing squares, %d paths drawn, %d planes flown along theirs", got.Dice, got.Lands, got.Paths, got.Flights)
}

// BenchmarkBrowserGame plays, per iteration, one game with chromium's
// wasm player (tapped as playByTapping does: a person's think time is not
// measured, the page's and the protocol's is) and one with a Go player over the same kind of socket (the
// program's player and a bot at both tables), and reports the time per
// roll of each: what the browser's engine, lockstep and WebSocket cost
// against the same protocol run natively. Run it with -benchtime 1x (a game
// is seconds).
func BenchmarkBrowserGame(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	assets, _ := builtClient(b)
	tab := newBrowser(b)
	var webMS, goMS, webRolls, goRolls float64
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		table := newTestTable(b, ctx, Options{Assets: assets})
		t0 := time.Now()
		_, err := playByTapping(tab, table.url)
		host := <-table.result
		if err != nil || host.err != nil {
			b.Fatal(err, host.err)
		}
		webMS += float64(time.Since(t0).Milliseconds())
		webRolls += float64(host.st.Roll)

		table = newTestTable(b, ctx, Options{Assets: assets})
		id, err := client.NewIdentity()
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		if _, err := client.Play(ctx, dialSocket(b, table.url), id, client.GameConfig{}); err != nil {
			b.Fatal(err)
		}
		host = <-table.result
		goMS += float64(time.Since(t0).Milliseconds())
		goRolls += float64(host.st.Roll)
		cancel()
	}
	b.ReportMetric(webMS/webRolls, "ms/roll-browser")
	b.ReportMetric(goMS/goRolls, "ms/roll-go")
}
