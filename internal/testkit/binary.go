package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// BuildBinary runs go build -o dir/name for pkg (an import path such as
// "aeroplane" or "aeroplane/internal/cheat/cmd/cheatpeer") with extra go
// build arguments, and returns the binary's path and size. It is the one
// place the module's tests and benchmarks build a binary; builds are not
// -race (several race-instrumented peers do not fit a small machine's
// memory), the packages' own tests run -race.
func BuildBinary(dir, name, pkg string, args ...string) (string, int64, error) {
	out := filepath.Join(dir, name)
	all := append(append([]string{"build", "-o", out}, args...), pkg)
	cmd := exec.Command(goTool(), all...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("go %s: %w (fix the build, then rerun the test)\n%s", strings.Join(all, " "), err, b)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return "", 0, fmt.Errorf("built %s but cannot stat it: %w", out, err)
	}
	return out, fi.Size(), nil
}

// goTool is the go command that runs this test: $GOROOT/bin/go when go
// test set GOROOT, else the one on PATH.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// built caches one build per package for the life of the test binary, in
// one temporary directory that RemoveBinaries deletes.
var built struct {
	mu   sync.Mutex
	dir  string
	bins map[string]result
}

type result struct {
	path string
	err  error
}

// BuildOnce builds pkg's binary the first time it is asked for in this
// test binary (default flags) and returns the same path after that; a
// failed build fails every later call the same way. For TestMain, which
// has no testing.TB; call RemoveBinaries when m.Run returns.
func BuildOnce(pkg string) (string, error) {
	built.mu.Lock()
	defer built.mu.Unlock()
	if r, ok := built.bins[pkg]; ok {
		return r.path, r.err
	}
	if built.dir == "" {
		d, err := os.MkdirTemp("", "aeroplane-testkit-")
		if err != nil {
			return "", fmt.Errorf("temporary directory for test binaries: %w", err)
		}
		built.dir, built.bins = d, map[string]result{}
	}
	// One subdirectory per package: two commands may share a base name.
	sub := filepath.Join(built.dir, fmt.Sprint(len(built.bins)))
	var r result
	if r.err = os.Mkdir(sub, 0o755); r.err == nil {
		r.path, _, r.err = BuildBinary(sub, filepath.Base(pkg), pkg)
	}
	built.bins[pkg] = r
	return r.path, r.err
}

// Binary is BuildOnce for a test or benchmark: it fails tb if the build
// fails. The package's TestMain should call RemoveBinaries after m.Run.
func Binary(tb testing.TB, pkg string) string {
	tb.Helper()
	p, err := BuildOnce(pkg)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// RemoveBinaries deletes what BuildOnce built; later calls build afresh.
func RemoveBinaries() {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	built.dir, built.bins = "", nil
}
