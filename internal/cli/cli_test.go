package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommandName(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "play"},
		{[]string{"--lang", "zh"}, "play"},
		{[]string{"moves", "x", "1"}, "moves"},
		{[]string{"--headless", "--bot", "greedy"}, "headless"},
		{[]string{"--name", "a", "-headless"}, "headless"},
		{[]string{"--headless=true"}, "headless"},
		{[]string{"--", "--headless"}, "play"},
		{[]string{"-h"}, "help"},
		{[]string{"--help"}, "help"},
		{[]string{"help"}, "help"},
	}
	for _, tt := range tests {
		if got := commandName(tt.args); got != tt.want {
			t.Errorf("commandName(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestUnknownCommandExits2(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"frobnicate"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), `unknown command "frobnicate"`) {
		t.Errorf("stderr %q does not name the command", errb.String())
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	var out bytes.Buffer
	if code := Main([]string{"--help"}, strings.NewReader(""), &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(out.String(), "  "+c.name+" ") {
			t.Errorf("help does not list %q:\n%s", c.name, out.String())
		}
	}
}

// TestPositionStartingWithDash: with Red out of play a position begins with
// "-"; it must be read as the POSITION argument, not as a flag.
func TestPositionStartingWithDash(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"moves", "-/H,H,H,H/-/H,H,H,H B 0 -", "2"}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if want := "B0 -/L,H,H,H/-/H,H,H,H G 0 -\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
}
