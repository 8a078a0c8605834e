package perf

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BuildBinary builds the aeroplane command (module path "aeroplane") into
// dir/name with extra go build arguments, and returns its path and size.
func BuildBinary(dir, name string, args ...string) (string, int64, error) {
	out := filepath.Join(dir, name)
	all := append([]string{"build", "-o", out}, args...)
	// The go command that runs this test, else the one on PATH.
	goCmd := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		goCmd = filepath.Join(root, "bin", "go")
	}
	cmd := exec.Command(goCmd, append(all, "aeroplane")...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("go %s: %w\n%s", strings.Join(cmd.Args[1:], " "), err, b)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return "", 0, err
	}
	return out, fi.Size(), nil
}
