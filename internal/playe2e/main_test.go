package playe2e

import (
	"fmt"
	"os"
	"testing"

	"aeroplane/internal/testkit"
)

// binEnv hands the built binary to the inner runs netlab starts in a
// namespace, so it is built once per `go test`.
const binEnv = "AEROPLANE_PLAYE2E_BIN"

// TestMain builds the real aeroplane binary once (testkit, the one
// builder; not -race: the binary plays next to three other processes on
// a small machine, and the packages' own tests run with -race).
func TestMain(m *testing.M) {
	if url := os.Getenv(fetchEnv); url != "" { // a phone's request (phone_test.go)
		os.Exit(fetchMain(url))
	}
	if os.Getenv(binEnv) != "" {
		os.Exit(m.Run())
	}
	code := 1
	if bin, err := testkit.BuildOnce("aeroplane"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		os.Setenv(binEnv, bin)
		code = m.Run()
	}
	testkit.RemoveBinaries()
	os.Exit(code)
}

func binary() string { return os.Getenv(binEnv) }
