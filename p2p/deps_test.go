package p2p

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoGamePackages: p2p is networking only. It carries the game's
// frames and the lobby's as opaque bytes and decides nothing about them,
// so nothing it links may be a game package.
func TestNoGamePackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "aeroplane/") && dep != "aeroplane/p2p" {
			t.Errorf("p2p depends on %s", dep)
		}
	}
}
