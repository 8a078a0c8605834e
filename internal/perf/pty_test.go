package perf

import (
	"os"
	"testing"
	"time"
)

// The pseudo-terminal harness sees what a command writes, and times it.
func TestTimeToOutput(t *testing.T) {
	out, err := TimeToOutput("hello there", 20*time.Second, os.Environ(), "sh", "-c", "echo hello there; exec sleep 60")
	if err != nil {
		t.Fatal(err)
	}
	if out.Wall <= 0 || out.OnCPU <= 0 || out.OnCPU > 10*out.Wall {
		t.Fatalf("measured %+v", out)
	}
	if _, err := TimeToOutput("never written", 100*time.Millisecond, os.Environ(), "sleep", "60"); err == nil {
		t.Fatal("found text that was never written")
	}
	if _, err := TimeToOutput("never written", 20*time.Second, os.Environ(), "true"); err == nil {
		t.Fatal("found text from a program that wrote nothing")
	}
}
