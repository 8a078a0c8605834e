package cli

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"
)

var webLine = regexp.MustCompile(`web (http://\S+/)`)

// A headless peer given --web serves the page at the address it prints,
// while it waits at its table; --web on a public address stops it before
// any network.
func TestHeadlessServesWebLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "--headless", "--name", "host", "--lobby", "phones", "--players", "2",
		"--identity", filepath.Join(dir, "id.key"), "--data", filepath.Join(dir, "data"), "--web", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "AEROPLANE_AS_MAIN=1")
	var stderr testout.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := webLine.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("no web line on stderr:\n%s", stderr.String())
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `<script src="/app.js"`) {
		t.Fatalf("GET %s: %d %q", url, res.StatusCode, body)
	}

	var out, errb strings.Builder
	code := Main([]string{"--headless", "--lobby", "x", "--identity", filepath.Join(dir, "id2.key"), "--data", filepath.Join(dir, "data2"),
		"--web", "8.8.8.8:8080"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "loopback, private") {
		t.Fatalf("--web 8.8.8.8:8080: exit %d, stderr %q; want a refusal naming the allowed addresses", code, errb.String())
	}
}
