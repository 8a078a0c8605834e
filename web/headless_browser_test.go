//go:build browser

package web_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/web"

	"github.com/chromedp/chromedp"
)

var headlessResult = regexp.MustCompile(`(?m)^result ([RBYG]{2,4}) log=\S+ hash=([0-9a-f]{64})$`)

// TestBrowserSitsAtHeadlessLANTable: two headless programs, each in its
// own namespace of a private LAN, meet at a table by mDNS; Ann's serves
// the page (--web on her LAN address); chromium, one more machine of the
// LAN, opens it, sits down beside Bob, says ready and plays by tapping
// to the end, on the hash both programs print.
func TestBrowserSitsAtHeadlessLANTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan, bin := headlessLAN(t)
	page := fmt.Sprintf("http://%s:8080/", lan.Addr(0))
	var runs []*headlessRun
	for i, name := range []string{"Ann", "Bob"} {
		dir := t.TempDir()
		args := []string{"--headless", "--name", name, "--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"),
			"--lobby", "phones", "--players", "3", "--bots", "1", "--bot", "random"}
		if i == 0 {
			args = append(args, "--web", lan.Addr(0).String()+":8080")
		}
		runs = append(runs, startHeadless(t, lan, i, bin, args...))
	}
	waitPage(t, page, runs[0])

	tab := openTab(t, web.NewBrowser(t), 20*time.Millisecond)
	tab.also = func() string { return "Ann: " + runs[0].stderr.String() }
	tab.openTable(page)
	tab.sit()
	tab.readyUntilStart()
	taps, err := web.TapUntilEnd(tab.ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[map[string]string](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
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
