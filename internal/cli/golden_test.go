package cli

import (
	"path/filepath"
	"testing"

	"aeroplane/internal/testkit"
)

// checkGolden compares got with testdata/name, or writes it there with
// go test ./internal/cli -update (testkit's flag). Review the diff before committing.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), []byte(got))
}
