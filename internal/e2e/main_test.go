package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Long forms stay out of the default run. netlab re-runs each test in a namespace without our flags,
// so TestMain hands them on in the environment.
var (
	soakFlag = flag.Bool("e2e.soak", false, "run the 300-game soak")
	longFlag = flag.Bool("e2e.long", false, "run the long forms (more kill points, more games)")
)

const (
	binEnv  = "AEROPLANE_E2E_BIN"
	soakEnv = "AEROPLANE_E2E_SOAK"
	longEnv = "AEROPLANE_E2E_LONG"
)

func soak() bool { return *soakFlag || os.Getenv(soakEnv) == "1" }
func long() bool { return *longFlag || os.Getenv(longEnv) == "1" }

// TestMain builds the real aeroplane binary once for the whole run; the
// inner runs in namespaces inherit its path through the environment.
func TestMain(m *testing.M) {
	flag.Parse()
	for env, on := range map[string]bool{soakEnv: *soakFlag, longEnv: *longFlag} {
		if on {
			os.Setenv(env, "1")
		}
	}
	if os.Getenv(binEnv) != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "aeroplane-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, "aeroplane")
	cheat := filepath.Join(dir, "cheatpeer")
	code := 1
	if err := build(bin, "aeroplane"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else if err := build(cheat, "aeroplane/internal/cheat/cmd/cheatpeer"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		os.Setenv(binEnv, bin)
		os.Setenv(cheatEnv, cheat)
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

const cheatEnv = "AEROPLANE_E2E_CHEAT"

// goTool is the go command that runs this test: $GOROOT/bin/go when go
// test set GOROOT, else the one on PATH.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func build(out, pkg string) error {
	// Not -race: four race-instrumented peers do not fit this machine's
	// memory next to the others' work; the packages' own tests run -race.
	cmd := exec.Command(goTool(), "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(cmd.Args[1:], " "), err, b)
	}
	return nil
}
