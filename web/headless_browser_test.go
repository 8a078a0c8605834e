//go:build browser

package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
)

// buildAeroplane builds the aeroplane binary with the client built for
// this test embedded (go build -overlay puts it where go generate would).
func buildAeroplane(t *testing.T, clientDir string) string {
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

var headlessResult = regexp.MustCompile(`(?m)^result ([RBYG]{2,4}) log=\S+ hash=([0-9a-f]{64})$`)

// TestBrowserSitsAtHeadlessLANTable: two headless programs, each in its
// own namespace of a private LAN, meet at a table by mDNS; Ann's serves
// the page (--web on her LAN address); chromium, one more machine of the
// LAN, opens it, sits down beside Bob, says ready and plays by tapping
// to the end, on the hash both programs print.
func TestBrowserSitsAtHeadlessLANTable(t *testing.T) {
	if !netlab.Enter(t) {
		return
	}
	_, clientDir := web.BuiltClient(t)
	bin := buildAeroplane(t, clientDir)
	lan := netlab.NewLAN(t, 2)
	lan.JoinHere()
	page := fmt.Sprintf("http://%s:8080/", lan.Addr(0))
	type run struct {
		cmd    *exec.Cmd
		stdout testout.Buffer
		stderr testout.Buffer
	}
	var runs []*run
	for i, name := range []string{"Ann", "Bob"} {
		dir := t.TempDir()
		args := []string{"--headless", "--name", name, "--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"),
			"--lobby", "phones", "--players", "3", "--bots", "1", "--bot", "random"}
		if i == 0 {
			args = append(args, "--web", lan.Addr(0).String()+":8080")
		}
		r := &run{cmd: lan.Command(i, bin, args...)}
		r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
		runs = append(runs, r)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(page); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ann's page at %s never answered:\n%s", page, runs[0].stderr.String())
		}
	}

	tab := web.NewBrowser(t)
	tctx, tcancel := context.WithTimeout(tab, 5*time.Minute) // a stuck game, not a slow one
	defer tcancel()
	poll := func(what, js string) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
			state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + " " + document.getElementById("players").textContent`))
			t.Fatalf("%s: %v (page: %s)\nAnn: %s", what, err, state, runs[0].stderr.String())
		}
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	poll("Ann's table with Bob at it", `document.body.dataset.game === "table" && document.getElementById("players").textContent.includes("Bob")`)
	if err := chromedp.Do(tctx, chromedp.SendKeys("#name", "Wendy"), chromedp.Click("#sit")); err != nil {
		t.Fatal(err)
	}
	poll("seated", `!!document.body.dataset.seated`)
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
	taps, err := web.TapUntilEnd(tctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]string](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
	if err != nil {
		t.Fatal(err)
	}
	if got["game"] != "over" {
		t.Fatalf("the page's game ended %q (%s), want over", got["game"], got["error"])
	}
	for i, r := range runs {
		done := make(chan error, 1)
		go func() { done <- r.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("program %d: %v\n%s", i, err, r.stderr.String())
			}
		case <-time.After(time.Minute):
			t.Fatalf("program %d still runs after the page's game ended", i)
		}
		m := headlessResult.FindStringSubmatch(r.stdout.String())
		if m == nil || m[2] != got["history"] || len(m[1]) != 4 {
			t.Fatalf("program %d printed %q; the page ended on %s", i, r.stdout.String(), got["history"])
		}
	}
	t.Logf("chromium on the LAN sat at Ann's headless table, tapped %d planes; all ended on %s", taps, got["history"][:16])
}
