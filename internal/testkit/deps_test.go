package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoProductImportsTestkit: testkit registers a flag and hands out
// public keys, so no package of the module may import it outside its
// tests (go list's Imports are the non-test imports).
func TestNoProductImportsTestkit(t *testing.T) {
	out, err := exec.Command(goTool(), "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "aeroplane/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == "aeroplane/internal/testkit" {
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if imp == "aeroplane/internal/testkit" {
				t.Errorf("%s imports aeroplane/internal/testkit, which is for tests only", f[0])
			}
		}
	}
	if checked < 10 {
		t.Fatalf("go list named %d packages: %s", checked, out)
	}
}
