package web

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// clientDir is the client as `go generate ./web` makes it, built once per
// test binary into a temporary directory beside a copy of the page, so
// tests serve the real client without writing into the source tree.
var clientBuild struct {
	once sync.Once
	dir  string
	raw  int64
	err  error
}

func builtClient(t testing.TB) (assets fs.FS, dir string) {
	t.Helper()
	clientBuild.once.Do(func() {
		d, err := os.MkdirTemp("", "aeroplane-webclient-")
		if err != nil {
			clientBuild.err = err
			return
		}
		clientBuild.dir = d
		clientBuild.err = buildClientInto(d)
	})
	if clientBuild.err != nil {
		t.Fatal(clientBuild.err)
	}
	return os.DirFS(clientBuild.dir), clientBuild.dir
}

func buildClientInto(d string) error {
	// The same build as go generate ./web's, raw wasm kept for Node.
	cmd := exec.Command(goCmd(), "run", "./internal/clientbuild", "-o", d, "-raw")
	if out, err := cmd.CombinedOutput(); err != nil {
		return &buildError{err, string(out)}
	}
	fi, err := os.Stat(filepath.Join(d, "client.wasm"))
	if err != nil {
		return err
	}
	clientBuild.raw = fi.Size()
	for _, name := range []string{"index.html", "app.js", "board.js", "style.css"} {
		if err := copyFile(filepath.Join("static", name), filepath.Join(d, name)); err != nil {
			return err
		}
	}
	return nil
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string {
	return "building the wasm client: " + e.err.Error() + "\n" + e.out
}

// goCmd is the go command that runs this test: go test sets GOROOT.
func goCmd() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if clientBuild.dir != "" {
		os.RemoveAll(clientBuild.dir)
	}
	os.Exit(code)
}
