//go:build browser

package web_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
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
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan, bin := headlessLAN(t)
	var runs []*headlessRun
	for i, name := range []string{"Ann", "Bob"} {
		dir := t.TempDir()
		args := []string{"--headless", "--name", name, "--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"),
			"--lobby", "phones", "--players", "3", "--bots", "1", "--bot", "random", "--think", "150ms",
			"--web", lan.Addr(i).String() + ":8080"}
		runs = append(runs, startHeadless(t, lan, i, bin, args...))
	}
	pages := []string{fmt.Sprintf("http://%s:8080/", lan.Addr(0)), fmt.Sprintf("http://%s:8080/", lan.Addr(1))}
	for i, page := range pages {
		waitPage(t, page, runs[i])
	}
	tab := openTab(t, web.NewBrowser(t), 20*time.Millisecond)
	tab.also = func() string { return "Bob: " + tail(runs[1].stderr.String()) }
	// waitBob waits for a line of Bob's program's events.
	waitBob := func(what, line string, within time.Duration) {
		t.Helper()
		for deadline := time.Now().Add(within); !strings.Contains(runs[1].stderr.String(), line); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: Bob's program never printed %q:\n%s", what, line, tail(runs[1].stderr.String()))
			}
		}
	}
	tab.openTable(pages[0])
	tab.sit()
	tab.readyUntilStart()
	idText, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`aeroplane.peerID()`))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.Decode(idText)
	if err != nil {
		t.Fatal(err)
	}
	short := lockstep.ShortID(id)
	tab.tapAllGameLong()
	time.Sleep(time.Second)
	tab.playOnThere("127.0.0.1:1")
	// Voted absent: within AbsentTicks, or a person's time to choose if
	// she was to move (ChooseTicks: 100 s by default).
	waitBob("the web player voted absent", "event absent peer="+short, 2*time.Minute)
	if err := runs[0].cmd.Process.Kill(); err != nil { // SIGKILL: nothing of Ann's says goodbye
		t.Fatal(err)
	}
	bobAddr := lan.Addr(1).String() + ":8080"
	tab.playOnThere(bobAddr)
	waitBob("the web player back through Bob's program", "event returned peer="+short, 2*time.Minute)
	tab.pollWithin("the page's game over", `["over", "halted", "none", "left"].includes(document.body.dataset.game)`, 3*time.Minute)
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[map[string]string](`({game: document.body.dataset.game, history: document.body.dataset.history || "", error: document.body.dataset.gameError || ""})`))
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
	raw, err := web.PageLog(tab.ctx)
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
