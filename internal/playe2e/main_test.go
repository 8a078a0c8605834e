package playe2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// binEnv hands the built binary to the inner runs netlab starts in a
// namespace, so it is built once per `go test`.
const binEnv = "AEROPLANE_PLAYE2E_BIN"

func TestMain(m *testing.M) {
	if os.Getenv(binEnv) != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "aeroplane-playe2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, "aeroplane")
	// Not -race: the binary plays next to three other processes on a
	// small machine; the packages' own tests run with -race.
	cmd := exec.Command(goTool(), "build", "-o", bin, "aeroplane")
	code := 1
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build aeroplane: %v\n%s", err, out)
	} else {
		os.Setenv(binEnv, bin)
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// goTool is the go command that runs this test: the one on PATH, else the
// one of the toolchain that built the test.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	//lint:ignore SA1019 the test binary runs where it was built, so its GOROOT is real
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

func binary() string { return os.Getenv(binEnv) }
