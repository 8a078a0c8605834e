package ui

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNetwork: the interface cannot open
// a socket, because nothing it links can: networking is p2p's alone.
func TestNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net" || strings.HasPrefix(dep, "net/") || strings.Contains(dep, "libp2p") || strings.Contains(dep, "mdns") {
			t.Errorf("ui depends on %s", dep)
		}
	}
}
