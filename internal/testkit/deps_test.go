package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoProductImportsTestkit: testkit registers a flag and hands out
// public keys, so no package of the product may depend on it, directly or
// through another package.
func TestNoProductImportsTestkit(t *testing.T) {
	product := []string{"aeroplane", "aeroplane/engine", "aeroplane/lockstep", "aeroplane/p2p",
		"aeroplane/lobby", "aeroplane/savegame", "aeroplane/ui", "aeroplane/internal/cli",
		"aeroplane/internal/netsession", "aeroplane/internal/session"}
	for _, pkg := range product {
		out, err := exec.Command(goTool(), "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			// A package renamed away (netsession is becoming session) is not
			// a dependency; any other failure is.
			if strings.Contains(string(out), "is not in std") || strings.Contains(string(out), "cannot find") {
				t.Logf("%s: not in this tree, skipped", pkg)
				continue
			}
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == "aeroplane/internal/testkit" {
				t.Errorf("%s depends on aeroplane/internal/testkit, which is for tests only", pkg)
			}
		}
	}
}
