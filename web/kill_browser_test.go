//go:build browser

package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
	"aeroplane/lockstep"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TestBrowserBackThroughAnotherLaptopAfterKill9: two headless programs,
// each in its own namespace of a private LAN, both serving the page;
// chromium sits at the table from Ann's page. Its person first types a
// wrong address under Play on there (the page's socket to Ann closes, the
// programs vote the web player absent), then Ann's program is killed with
// SIGKILL; the person types Bob's page address: the page, its key in
// memory, moves its seat to Bob's program, returns (Bob's program prints
// it back) and plays to the end on the hash Bob's program prints; its log
// verifies to it.
func TestBrowserBackThroughAnotherLaptopAfterKill9(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	_, clientDir := web.BuiltClient(t)
	bin := buildAeroplane(t, clientDir)
	lan := netlab.NewLAN(t, 2)
	lan.JoinHere()
	type run struct {
		cmd    *exec.Cmd
		stdout testout.Buffer
		stderr testout.Buffer
	}
	var runs []*run
	for i, name := range []string{"Ann", "Bob"} {
		dir := t.TempDir()
		args := []string{"--headless", "--name", name, "--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"),
			"--lobby", "phones", "--players", "3", "--bots", "1", "--bot", "random", "--think", "150ms",
			"--web", lan.Addr(i).String() + ":8080"}
		r := &run{cmd: lan.Command(i, bin, args...)}
		r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
		runs = append(runs, r)
	}
	pages := []string{fmt.Sprintf("http://%s:8080/", lan.Addr(0)), fmt.Sprintf("http://%s:8080/", lan.Addr(1))}
	for i, page := range pages {
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if res, err := http.Get(page); err == nil {
				res.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the page at %s never answered:\n%s", page, runs[i].stderr.String())
			}
		}
	}
	tab := web.NewBrowser(t)
	tctx, tcancel := context.WithTimeout(tab, 5*time.Minute) // a stuck game, not a slow one
	defer tcancel()
	poll := func(what, js string, within time.Duration) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
			state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset)`))
			t.Fatalf("%s: %v (page: %s)\nBob: %s", what, err, state, tail(runs[1].stderr.String()))
		}
	}
	// waitBob waits for a line of Bob's program's events.
	waitBob := func(what, line string, within time.Duration) {
		t.Helper()
		for deadline := time.Now().Add(within); !strings.Contains(runs[1].stderr.String(), line); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: Bob's program never printed %q:\n%s", what, line, tail(runs[1].stderr.String()))
			}
		}
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(pages[0])); err != nil {
		t.Fatal(err)
	}
	poll("Ann's table with Bob at it", `document.body.dataset.game === "table" && document.getElementById("players").textContent.includes("Bob")`, time.Minute)
	if err := chromedp.Do(tctx, chromedp.SendKeys("#name", "Wendy"), chromedp.Click("#sit")); err != nil {
		t.Fatal(err)
	}
	poll("seated", `!!document.body.dataset.seated`, time.Minute)
	for {
		state, err := chromedp.Run(tctx, chromedp.Poll[string](`document.body.dataset.game !== "table" ? "started" : (document.body.dataset.ready === "no" ? "unready" : false)`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		if state == "started" {
			break
		}
		if err := chromedp.Do(tctx, chromedp.Click("#readybtn")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	idText, err := chromedp.Run(tctx, chromedp.Evaluate[string](`aeroplane.peerID()`))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.Decode(idText)
	if err != nil {
		t.Fatal(err)
	}
	short := lockstep.ShortID(id)
	// The person taps every plane offered, at once, all game long.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[int](`setInterval(() => { const p = document.querySelector(".movable");
		if (p) p.dispatchEvent(new MouseEvent("click", {bubbles: true})); }, 20)`)); err != nil {
		t.Fatal(err)
	}
	poll("playing", `document.body.dataset.game === "playing" && !document.getElementById("moveform").hidden`, time.Minute)
	time.Sleep(time.Second)
	if err := chromedp.Do(tctx, chromedp.SendKeys("#movehost", "127.0.0.1:1"), chromedp.Click("#movego")); err != nil {
		t.Fatal(err)
	}
	// Voted absent: within AbsentTicks, or a person's time to choose if
	// she was to move (ChooseTicks: 100 s by default).
	waitBob("the web player voted absent", "event absent peer="+short, 2*time.Minute)
	if err := runs[0].cmd.Process.Kill(); err != nil { // SIGKILL: nothing of Ann's says goodbye
		t.Fatal(err)
	}
	bobAddr := lan.Addr(1).String() + ":8080"
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("movehost").value = ""`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.SendKeys("#movehost", bobAddr), chromedp.Click("#movego")); err != nil {
		t.Fatal(err)
	}
	waitBob("the web player back through Bob's program", "event returned peer="+short, 2*time.Minute)
	poll("the page's game over", `["over", "halted", "none", "left"].includes(document.body.dataset.game)`, 3*time.Minute)
	got, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]string](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
	if err != nil {
		t.Fatal(err)
	}
	if got["game"] != "over" {
		t.Fatalf("the page's game ended %q (%s), want over", got["game"], got["error"])
	}
	done := make(chan error, 1)
	go func() { done <- runs[1].cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Bob's program: %v\n%s", err, tail(runs[1].stderr.String()))
		}
	case <-time.After(time.Minute):
		t.Fatal("Bob's program still runs after the page's game ended")
	}
	m := headlessResult.FindStringSubmatch(runs[1].stdout.String())
	if m == nil || m[2] != got["history"] {
		t.Fatalf("Bob's program printed %q; the page ended on %s", runs[1].stdout.String(), got["history"])
	}
	b64, err := chromedp.Run(tctx, chromedp.Evaluate[string](`aeroplane.exportLog()`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(raw)
	if err != nil || fmt.Sprintf("%x", v.History) != got["history"] || v.Phase != lockstep.PhaseOver {
		t.Fatalf("the page's log: %v, %v", v, err)
	}
	t.Logf("Ann's program killed, the page came back through Bob's and ended with it on %s", got["history"][:16])
}

// tail is the end of a program's log, for a failure's message.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}
