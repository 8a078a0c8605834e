package savegame

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLockHelperProcess is the other program of TestSecondProgramRefused:
// it opens the directory it is given and holds it until its stdin closes.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv("SAVEGAME_LOCK_DIR")
	if dir == "" {
		return // run by TestSecondProgramRefused only
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
}

// A second program on a data directory another holds stops with a clear
// error; opening it again in the same program is fine; once the other
// program ends (however it ends), the directory is free.
func TestSecondProgramRefused(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SAVEGAME_LOCK_DIR="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper said %q", line)
	}
	_, err := Open(dir)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "--data") {
		t.Errorf("Open of a directory another program holds: %v, want ErrInUse naming --data", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	if _, err := Open(dir); err != nil {
		t.Errorf("Open once the other program ended: %v", err)
	}
	if _, err := Open(dir); err != nil {
		t.Errorf("a second Open in the same program: %v", err)
	}
}
