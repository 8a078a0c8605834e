package playe2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/web"

	"github.com/skip2/go-qrcode"
)

// fetchEnv makes the test binary a phone's browser for one request (run
// in another peer's namespace): it GETs the URL and prints the status
// line and the body.
const fetchEnv = "AEROPLANE_PLAYE2E_FETCH"

// fetchMain is the test binary run with fetchEnv.
func fetchMain(url string) int {
	c := http.Client{Timeout: 10 * time.Second}
	res, err := c.Get(url)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	fmt.Printf("status=%d type=%s\n%s", res.StatusCode, res.Header.Get("Content-Type"), body)
	return 0
}

// fetchFrom GETs url from peer i's namespace, as a phone on the LAN.
func fetchFrom(t *testing.T, lan *netlab.LAN, i int, url string) string {
	t.Helper()
	cmd := lan.Command(i, os.Args[0])
	cmd.Env = append(os.Environ(), fetchEnv+"="+url)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

var phoneLine = regexp.MustCompile(`Page for phones: (http://10\.213\.0\.1:\d+/)`)

// The module rows of the finder pattern's top: the first row of the code.
const finderTop = "█▀▀▀▀▀█"

// qrOnScreen reads the QR code of n×n modules off a captured screen: the
// half-block cells from the row with the first two finder tops, two
// modules a cell. ok is false when no code is on the screen.
func qrOnScreen(screen string, n int) (modules [][]bool, ok bool) {
	lines := strings.Split(screen, "\n")
	for y, l := range lines {
		x := strings.Index(l, finderTop)
		if x < 0 || strings.Count(l, finderTop) < 2 {
			continue
		}
		x = len([]rune(l[:x]))
		for cy := y; cy < len(lines) && len(modules) < n; cy++ {
			r := []rune(lines[cy] + strings.Repeat(" ", n+x))
			top, bottom := make([]bool, n), make([]bool, n)
			for i := range n {
				c := r[x+i]
				top[i], bottom[i] = c == '▀' || c == '█', c == '▄' || c == '█'
			}
			modules = append(modules, top, bottom)
		}
		return modules[:min(n, len(modules))], len(modules) >= n
	}
	return nil, false
}

// sameCode says where the code read off the screen differs from the
// encoder's matrix of url ("" when it is the same).
func sameCode(t *testing.T, screen, url string) string {
	t.Helper()
	q, err := qrcode.New(url, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	want := q.Bitmap()
	got, ok := qrOnScreen(screen, len(want))
	if !ok {
		return "no QR code on the screen"
	}
	for y := range want {
		for x := range want[y] {
			if got[y][x] != want[y][x] {
				return fmt.Sprintf("module %d,%d differs from the encoder's", x, y)
			}
		}
	}
	return ""
}

// A person runs `aeroplane` on the LAN and opens a table: the table
// names the page for phones on the program's LAN address, with its QR
// code beside the text in a 120×40 window (the encoder's matrix of that
// very address, read off the terminal); another machine on the LAN (a
// phone) gets the client's page there. In an 80×24 window the address
// stays and m opens the code in a box, esc closes it. Before the table
// nothing is served; after the program quits, nothing answers.
func TestPlayPhonePageAtTable(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	home := t.TempDir()
	inPeer0 := func(name string, args ...string) *exec.Cmd { return lan.Command(0, name, args...) }
	tm := startTerm(t, inPeer0, playerEnv(home), binary(), "--name", "ann", "--lang", "en")
	lobby := tm.waitFor("the LAN lobby", 200, contains("Your address (for manual connect): /ip4/10.213.0.1/", "c create game"))
	if strings.Contains(lobby, "Page for phones") || strings.Contains(lobby, finderTop) {
		t.Fatalf("the lobby names a page before any table (the default serves only at one):\n%s", lobby)
	}

	tm.keys(keyCreate)
	s := tm.waitFor("the table with the page's address and its code", 100, func(s string) bool {
		return phoneLine.MatchString(s) && strings.Contains(s, "scan to play from a phone")
	})
	url := phoneLine.FindStringSubmatch(s)[1]
	if diff := sameCode(t, s, url); diff != "" {
		t.Fatalf("the code beside the table is not %s: %s\n%s", url, diff, s)
	}

	page := fetchFrom(t, lan, 1, url)
	if !strings.HasPrefix(page, "status=200 type=text/html") || !strings.Contains(page, `<script src="/app.js"`) {
		t.Fatalf("GET %s from another machine of the LAN:\n%s", url, page)
	}
	client := fetchFrom(t, lan, 1, url+"client.wasm")
	if web.HasClient(web.Assets()) {
		if !strings.HasPrefix(client, "status=200 type=application/wasm") {
			t.Errorf("GET %sclient.wasm, in a build with the client: %.200s", url, client)
		}
	} else if !strings.HasPrefix(client, "status=404") || !strings.Contains(client, "built without its web client") {
		t.Errorf("GET %sclient.wasm, in a build without the client: %.200s, want 404 saying so", url, client)
	}

	if out, err := tm.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24"); err != nil {
		t.Fatalf("resize-window: %v: %s", err, out)
	}
	small := tm.waitFor("the table at 80×24: the address, no code beside it", 100, func(s string) bool {
		return len(strings.Split(strings.TrimRight(s, "\n"), "\n")) <= 24 && strings.Contains(s, url) && !strings.Contains(s, finderTop)
	})
	if !strings.Contains(small, "(m: code to scan)") {
		t.Errorf("the table at 80×24 does not say how to show the code:\n%s", small)
	}
	tm.keys("m")
	box := tm.waitFor("the phone box at 80×24", 100, contains("Play from a phone", finderTop, "esc closes"))
	if diff := sameCode(t, box, url); diff != "" {
		t.Fatalf("the code in the box is not %s: %s\n%s", url, diff, box)
	}
	tm.keys("Escape")
	tm.waitFor("the table again after esc", 100, func(s string) bool {
		return !strings.Contains(s, "Play from a phone") && strings.Contains(s, "b bot / open seat")
	})

	tm.quitAndCheck()
	if after := fetchFrom(t, lan, 1, url); !strings.HasPrefix(after, "error:") {
		t.Errorf("GET %s after the program quit:\n%.200s", url, after)
	}
}

// --web ADDR serves the page at ADDR from the lobby on, and the lobby
// names it; --no-web serves nothing, not even at a table.
func TestPlayPhonePageFlags(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 2)
	inPeer0 := func(name string, args ...string) *exec.Cmd { return lan.Command(0, name, args...) }

	const url = "http://10.213.0.1:8765/"
	tm := startTerm(t, inPeer0, playerEnv(t.TempDir()), binary(), "--name", "ann", "--lang", "en", "--web", "10.213.0.1:8765")
	tm.waitFor("the lobby naming the page --web serves", 200, contains("Page for phones: "+url, "c create game"))
	if page := fetchFrom(t, lan, 1, url); !strings.HasPrefix(page, "status=200 type=text/html") {
		t.Fatalf("GET %s from the LAN, in the lobby with --web:\n%.300s", url, page)
	}
	tm.quitAndCheck()

	tm = startTerm(t, inPeer0, playerEnv(t.TempDir()), binary(), "--name", "bob", "--lang", "en", "--no-web")
	tm.waitFor("the LAN lobby", 200, contains("Your address (for manual connect): /ip4/10.213.0.1/", "c create game"))
	tm.keys(keyCreate)
	s := tm.waitFor("the table", 100, contains("R bob", "b bot / open seat"))
	if strings.Contains(s, "Page for phones") || strings.Contains(s, finderTop) {
		t.Errorf("--no-web: the table names a page:\n%s", s)
	}
	tm.quitAndCheck()
}
