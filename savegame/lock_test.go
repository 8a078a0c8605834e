package savegame

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockHelperProcess is the other program of TestSecondProgramRefused:
// it opens the directory it is given and holds it until its stdin closes.
func TestLockHelperProcess(t *testing.T) {
	dir, id := os.Getenv("SAVEGAME_LOCK_DIR"), os.Getenv("SAVEGAME_LOCK_ID")
	if dir == "" && id == "" {
		return // run by TestSecondProgramRefused only
	}
	if dir != "" {
		if _, err := Open(dir); err != nil {
			t.Fatal(err)
		}
	}
	if id != "" {
		if err := LockIdentity(id); err != nil {
			t.Fatal(err)
		}
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
}

// A second program on a data directory another holds stops with a clear
// error; opening it again in the same program is fine; once the other
// program ends (however it ends), the directory is free.
func TestSecondProgramRefused(t *testing.T) {
	dir := t.TempDir()
	stdin, cmd := lockingHelper(t, "SAVEGAME_LOCK_DIR="+dir)
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

// lockingHelper starts TestLockHelperProcess with env and waits until it
// holds its locks; closing stdin ends it.
func lockingHelper(t *testing.T, env ...string) (io.WriteCloser, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper said %q", line)
	}
	return stdin, cmd
}

// A second program playing as an identity another program plays as
// (whatever its data directory) stops with one clear error naming what to
// do; the same program may lock it again; once the other ends, it is free.
// The lock never changes the key file.
func TestSecondProgramSameIdentityRefused(t *testing.T) {
	id := filepath.Join(t.TempDir(), "id.key")
	if err := os.WriteFile(id, []byte("key bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdin, cmd := lockingHelper(t, "SAVEGAME_LOCK_ID="+id, "SAVEGAME_LOCK_DIR="+t.TempDir())
	if _, err := Open(t.TempDir()); err != nil {
		t.Fatalf("another data directory: %v", err)
	}
	err := LockIdentity(id)
	if !errors.Is(err, ErrIdentityInUse) || !strings.Contains(err.Error(), "--identity FILE") || !strings.Contains(err.Error(), id) {
		t.Errorf("LockIdentity of an identity another program holds: %v, want ErrIdentityInUse naming the file and --identity", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	for range 2 {
		if err := LockIdentity(id); err != nil {
			t.Errorf("LockIdentity once the other program ended: %v", err)
		}
	}
	if b, _ := os.ReadFile(id); string(b) != "key bytes" {
		t.Errorf("the key file became %q", b)
	}
	if err := LockIdentity(filepath.Join(t.TempDir(), "missing.key")); err == nil || errors.Is(err, ErrIdentityInUse) {
		t.Errorf("LockIdentity of a missing file: %v, want a plain error", err)
	}
}
