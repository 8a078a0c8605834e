package perf

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Screen is a private tmux server (its own socket) with one 120×40 pane,
// in which a command can be started and its screen read, as a person
// would see it.
type Screen struct {
	socket string
}

// NewScreen starts the tmux server with an idle pane. Close stops it.
func NewScreen(name string, env []string) (*Screen, error) {
	s := &Screen{socket: fmt.Sprintf("%s-%d", name, os.Getpid())}
	args := []string{"new-session", "-d", "-s", "perf", "-x", "120", "-y", "40"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	if _, err := s.tmux(append(args, "sleep 3600")...); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Screen) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// TimeTo starts argv in the pane (killing what ran there) and returns how
// long it took until the screen showed want, polling every poll. The
// clock starts as the tmux client is asked to start the command, so the
// result includes tmux's own fork and exec: measure a trivial command to
// know that floor.
func (s *Screen) TimeTo(want string, poll, limit time.Duration, argv ...string) (time.Duration, error) {
	start := time.Now()
	if _, err := s.tmux(append([]string{"respawn-pane", "-k", "-t", "perf:0", "--"}, argv...)...); err != nil {
		return 0, err
	}
	for {
		screen, err := s.tmux("capture-pane", "-p", "-t", "perf:0")
		if err != nil {
			return 0, err
		}
		if strings.Contains(screen, want) {
			return time.Since(start), nil
		}
		if time.Since(start) > limit {
			return 0, fmt.Errorf("perf: %q not on the screen after %v:\n%s", want, limit, screen)
		}
		time.Sleep(poll)
	}
}

// Close stops the tmux server and everything in it.
func (s *Screen) Close() error {
	_, err := s.tmux("kill-server")
	return err
}
