//go:build browser

package web

import (
	"bytes"
	"context"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/web/client"

	"github.com/chromedp/chromedp"
)

// A screen the page is laid out for.
type screen struct {
	name          string
	width, height int64
	phone         bool // portrait, touch, a mobile viewport
}

var screens = []screen{
	{"phone", 360, 640, true},
	{"desktop", 1280, 800, false},
}

// screenReport is what the page's own layout says, measured in it
// (screenCheck): the numbers the size and contrast test asserts.
type screenReport struct {
	Width, Height  float64 // the viewport
	ScrollWidth    float64
	Board, Sit     struct{ Left, Top, Right, Bottom, Width, Height float64 } // #board, and #sit (zero when hidden)
	Overflow       []string                                                  // elements reaching outside the viewport's width
	LowContrast    []string                                                  // text below 4.5:1 on its background (WCAG)
	LowPlane       []string                                                  // a plane's aeroplane below 3:1 on its disc (WCAG, non-text)
	SmallTargets   []string                                                  // tap targets under 44×44 px
	Targets, Texts int                                                       // how many of each were checked
}

// screenCheck measures the page from inside: WCAG 2's relative luminance
// and contrast ratio from computed styles (the background is the nearest
// ancestor's that is painted), every element's box against the viewport,
// every tap target's box.
const screenCheck = `(() => {
  const W = innerWidth, H = innerHeight;
  const nums = c => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = c => { const [r, g, b] = nums(c).slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const opaque = c => { const n = nums(c); return n.length >= 3 && (n.length < 4 || n[3] > 0.5); };
  const ground = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (opaque(c)) return c; } return "rgb(255, 255, 255)"; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.getAttribute("class") ? "." + e.getAttribute("class").replace(/ /g, ".") : "");
  const rep = { width: W, height: H, scrollWidth: document.documentElement.scrollWidth, overflow: [], lowContrast: [], lowPlane: [], smallTargets: [], targets: 0, texts: 0 };
  const b = document.getElementById("board").getBoundingClientRect();
  rep.board = { left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height };
  const s = document.getElementById("sit").getBoundingClientRect();
  rep.sit = { left: s.left, top: s.top, right: s.right, bottom: s.bottom, width: s.width, height: s.height };
  for (const e of document.body.querySelectorAll("*")) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > W + 0.5) rep.overflow.push(name(e) + " " + Math.round(r.left) + ".." + Math.round(r.right));
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== "") || (e.tagName === "INPUT" && e.type !== "hidden");
    if (own && !(e instanceof SVGElement)) {
      rep.texts++;
      const k = ratio(getComputedStyle(e).color, ground(e));
      if (k < 4.5) rep.lowContrast.push(name(e) + " " + k.toFixed(2) + ":1 (" + getComputedStyle(e).color + " on " + ground(e) + ")");
    }
  }
  for (const p of document.querySelectorAll("circle.plane")) {
    const glyph = p.nextElementSibling;
    const k = ratio(getComputedStyle(p).fill, getComputedStyle(glyph).fill);
    if (k < 3) rep.lowPlane.push(p.dataset.plane + " " + k.toFixed(2) + ":1");
  }
  for (const e of document.querySelectorAll("button, input, a, .hit")) {
    if (!shown(e)) continue;
    rep.targets++;
    const r = e.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) rep.smallTargets.push(name(e) + " " + r.width.toFixed(0) + "×" + r.height.toFixed(0));
  }
  return rep;
})()`

// The moments of the page a screenshot is kept of.
var pageStates = []struct {
	name string
	// table, if set, is the serving program's table the page is shown
	// (the moment before sitting down); else the page plays a game to the
	// player's choice.
	table *client.Table
}{
	{"table", &client.Table{Lobby: "phones", Free: 1, Bots: []string{"Y"}, Players: []client.TablePlayer{
		{ID: testkit.ID(1).String(), Name: "Ann", Colour: "R", Ready: true},
		{ID: testkit.ID(2).String(), Name: "Bob", Colour: "B", Web: true}}}},
	{"game", nil},
}

// TestBrowserScreens lays the page out on a phone in portrait (360×640,
// touch) and on a desktop (1280×800), at a table before sitting down and
// in a game at the moment the player is to choose (planes shining, the
// last move's path, the die), keeps a screenshot of each in testdata (go
// test -tags browser ./web -run TestBrowserScreens -args -update rewrites
// them; look at them), and checks what pixels cannot, since they differ
// between chromium versions: the board fills the screen's width on the
// phone and most of its height on the desktop with nothing wider than
// the screen, at the table the name field and Sit down are on the first
// screen, every text is at least 4.5:1 on its background, every plane's
// aeroplane 3:1 on its disc, every tap target 44×44 px.
func TestBrowserScreens(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	assets, _ := builtClient(t)
	for _, st := range pageStates {
		for _, sc := range screens {
			t.Run(sc.name+"-"+st.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				url := ""
				if st.table != nil {
					url = serveTable(t, assets, *st.table)
				} else {
					url = newTestTable(t, ctx, Options{Assets: assets}).url
				}
				tab := newBrowser(t)
				tctx, tcancel := context.WithTimeout(tab, 3*time.Minute)
				defer tcancel()
				vp := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
				if sc.phone {
					vp = append(vp, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
				}
				if err := chromedp.Do(tctx, chromedp.EmulateViewport(sc.width, sc.height, vp...), chromedp.Navigate(url)); err != nil {
					t.Fatal(err)
				}
				if st.table != nil {
					_, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.body.dataset.game === "table" && document.getElementById("players").children.length === 3`,
						chromedp.WithPollingTimeout(time.Minute)))
					if err != nil {
						t.Fatal(err)
					}
				} else if err := tapToAChoice(tctx); err != nil {
					t.Fatal(err)
				}
				rep, err := chromedp.Run(tctx, chromedp.Evaluate[screenReport](screenCheck))
				if err != nil {
					t.Fatal(err)
				}
				shot, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				checkScreen(t, sc, rep, st.table != nil)
				checkShot(t, filepath.Join("testdata", "screen-"+sc.name+"-"+st.name+".png"), shot, sc)
				if sc.phone && st.table == nil {
					touchToPlay(t, tctx)
				}
				t.Logf("%s %v×%v: board %.0f×%.0f at %.0f,%.0f; %d texts, %d tap targets checked", sc.name, rep.Width, rep.Height,
					rep.Board.Width, rep.Board.Height, rep.Board.Left, rep.Board.Top, rep.Texts, rep.Targets)
			})
		}
	}
}

// serveTable serves the page with a program whose table is tb: each
// browser that proves its key is sent it, and nothing more.
func serveTable(t *testing.T, assets fs.FS, tb client.Table) string {
	t.Helper()
	msg, err := client.EncodeLobby(tb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Listen(Options{Addr: "127.0.0.1:0", Assets: assets, Players: func(c *Conn) { _ = c.SendRaw(msg) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.URLs()[0]
}

// tapToAChoice plays the page's game (the die, the first plane) until
// the player is to choose between two planes or more with a move's path
// on the board: the busiest the screen gets.
func tapToAChoice(ctx context.Context) error {
	for {
		state, err := chromedp.Run(ctx, chromedp.Poll[string](`document.body.dataset.game === "over" ? "over" :
			(document.querySelectorAll(".hit").length >= 4 && document.querySelector("polyline.trail") ? "choice" : (document.querySelector(".movable") ? "tap" : false))`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
		switch {
		case err != nil:
			return err
		case state == "choice":
			time.Sleep(100 * time.Millisecond) // the die's and planes' shine is an animation: let it settle on a frame
			return nil
		case state == "over":
			return context.DeadlineExceeded // the game ended with no choice at all: not the page to judge
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const p = document.querySelector(".movable");
			if (!p) return false; p.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`)); err != nil {
			return err
		}
	}
}

// checkScreen asserts the report of a screen; atTable, the page is the
// table before sitting down (Sit down, not the board, on the first screen).
// touchToPlay taps the phone's screen as a finger does (touch events at
// a point, which chromium hit-tests): a landing square picks its move,
// then the die, once it shines again, rolls.
func touchToPlay(t *testing.T, ctx context.Context) {
	t.Helper()
	tap := func(sel, done string) {
		t.Helper()
		type box struct{ X, Y float64 }
		at, err := chromedp.Run(ctx, chromedp.Evaluate[box](`(() => { const r = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect();
			return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		if err := chromedp.Do(ctx, chromedp.TapXY(at.X, at.Y)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](done, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("a finger on %s at %.0f,%.0f: the page did not take it (%v)", sel, at.X, at.Y, err)
		}
	}
	tap(".hit.land", `!document.body.dataset.yourMove`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.game === "over" || !!document.querySelector("#die.movable")`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if over, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.dataset.game === "over"`)); !over {
		tap("#die.movable", `document.body.dataset.yourRoll !== "yes"`)
	}
}

func checkScreen(t *testing.T, sc screen, rep screenReport, atTable bool) {
	t.Helper()
	if rep.Width != float64(sc.width) || rep.Height != float64(sc.height) {
		t.Fatalf("viewport %v×%v, want %d×%d", rep.Width, rep.Height, sc.width, sc.height)
	}
	if rep.ScrollWidth > rep.Width {
		t.Errorf("the page scrolls sideways: %v px wide on a %v px screen", rep.ScrollWidth, rep.Width)
	}
	for _, o := range rep.Overflow {
		t.Errorf("wider than the screen: %s", o)
	}
	b := rep.Board
	if atTable && (rep.Sit.Bottom > rep.Height || rep.Sit.Height == 0) {
		t.Errorf("Sit down at y=%.0f..%.0f: want it on the first %v px", rep.Sit.Top, rep.Sit.Bottom, rep.Height)
	}
	switch {
	case sc.phone && atTable: // the table first, the board below it
		if b.Width < 0.95*rep.Width {
			t.Errorf("board %.0f×%.0f: want the phone's width (≥ %.0f px)", b.Width, b.Height, 0.95*rep.Width)
		}
	case sc.phone:
		if b.Width < 0.95*rep.Width || b.Bottom > rep.Height {
			t.Errorf("board %.0f×%.0f to y=%.0f: want the phone's width (≥ %.0f px) and all of it on the first screen", b.Width, b.Height, b.Bottom, 0.95*rep.Width)
		}
	case b.Height < 0.8*rep.Height || b.Bottom > rep.Height:
		t.Errorf("board %.0f×%.0f to y=%.0f: want ≥ 80%% of the desktop's height, all of it in view", b.Width, b.Height, b.Bottom)
	}
	for _, c := range rep.LowContrast {
		t.Errorf("text contrast: %s", c)
	}
	for _, c := range rep.LowPlane {
		t.Errorf("plane contrast: %s", c)
	}
	for _, s := range rep.SmallTargets {
		t.Errorf("tap target under 44×44 px: %s", s)
	}
	if rep.Texts < 3 || rep.Targets < 2 || !atTable && rep.Targets < 5 {
		t.Errorf("only %d texts and %d tap targets found: the checks looked at nothing", rep.Texts, rep.Targets)
	}
}

// checkShot keeps the screenshot as the golden with -update; otherwise
// the golden must be there, a PNG of the screen's size (its pixels are
// for people to look at: they differ between chromium versions).
func checkShot(t *testing.T, path string, shot []byte, sc screen) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != int(sc.width) || b.Dy() != int(sc.height) {
		t.Errorf("screenshot %v, want %d×%d", b, sc.width, sc.height)
	}
	if testkit.Updating() {
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -tags browser -run TestBrowserScreens -update ./web writes it; look at it)", err)
	}
	golden, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if golden.Bounds() != img.Bounds() {
		t.Errorf("%s is %v, the screen %v: rewrite it with -update and look at it", path, golden.Bounds(), img.Bounds())
	}
}
