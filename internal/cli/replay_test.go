package cli

import (
	"strings"
	"testing"
)

func TestReplayCommand(t *testing.T) {
	code, out, errs := runCLI(t, "replay", goldenLog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "the dice chose") || !strings.Contains(out, "roll 1: ") || !strings.Contains(out, "game over: 1. ") {
		t.Fatalf("replay output lacks turns:\n%.600s", out)
	}
	code, short, _ := runCLI(t, "replay", "--boards=false", goldenLog)
	if code != 0 || len(short) >= len(out) {
		t.Fatalf("--boards=false: exit %d, %d bytes vs %d", code, len(short), len(out))
	}
}
