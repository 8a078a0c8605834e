package e2e

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"aeroplane/internal/testkit"
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

// long: -e2e.long, or the module's one switch (testkit.Long, AEROPLANE_LONG=1).
func long() bool { return *longFlag || os.Getenv(longEnv) == "1" || testkit.Long() }

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
	code := 1
	if bin, err := testkit.BuildOnce("aeroplane"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else if cheat, err := testkit.BuildOnce("aeroplane/internal/cheat/cmd/cheatpeer"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		os.Setenv(binEnv, bin)
		os.Setenv(cheatEnv, cheat)
		code = m.Run()
	}
	testkit.RemoveBinaries()
	os.Exit(code)
}

const cheatEnv = "AEROPLANE_E2E_CHEAT"
