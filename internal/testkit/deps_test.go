package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

// testOnly are the packages of test support: no package's own code may
// import them (its tests may).
var testOnly = map[string]bool{"aeroplane/internal/testkit": true, "aeroplane/internal/webtest": true}

// TestNoProductImportsTestkit: testkit registers a flag and hands out
// public keys, and webtest is a test's browser, so no package of the
// module may import them outside its tests (go list's Imports are the
// non-test imports).
func TestNoProductImportsTestkit(t *testing.T) {
	out, err := exec.Command(goTool(), "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "aeroplane/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || testOnly[f[0]] {
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if testOnly[imp] {
				t.Errorf("%s imports %s, which is for tests only", f[0], imp)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("go list named %d packages: %s", checked, out)
	}
}
