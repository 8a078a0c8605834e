package cli

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"aeroplane/engine"
)

func TestPlayFlags(t *testing.T) {
	envs := map[string]string{"XDG_STATE_HOME": "/tmp/st", "LANG": "el_GR.UTF-8"}
	old := playEnv
	playEnv = func(k string) string { return envs[k] }
	defer func() { playEnv = old }()

	cases := []struct {
		args     []string
		lang     string
		rules    string
		name     string
		usageErr string
	}{
		{args: nil, lang: "el", rules: engine.DefaultRules().String()},
		{args: []string{"--lang", "zh", "--name", "mei"}, lang: "zh", name: "mei", rules: engine.DefaultRules().String()},
		{args: []string{"--rules", "takeoff=six,stack=off"}, lang: "el", rules: "takeoff=six,overshoot=bounce,stack=off,flyjump=off"},
		{args: []string{"--rules", "takeoff=seven"}, usageErr: "takeoff"},
		{args: []string{"--lang", "xx"}, usageErr: "no such language"},
		{args: []string{"--bot-delay", "-1s"}, usageErr: "bot-delay"},
	}
	for _, c := range cases {
		var got *playSetup
		var stderr bytes.Buffer
		err := play(&env{args: c.args, stderr: &stderr}, func(s playSetup) error { got = &s; return nil })
		if c.usageErr != "" {
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.usageErr) {
				t.Errorf("%v: err %v, want a usage error about %q", c.args, err, c.usageErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got.opts.Lang != c.lang || got.opts.Rules.String() != c.rules {
			t.Errorf("%v: lang %s rules %s, want %s %s", c.args, got.opts.Lang, got.opts.Rules, c.lang, c.rules)
		}
		if c.name != "" && got.solo.Name != c.name {
			t.Errorf("%v: name %q", c.args, got.solo.Name)
		}
		if got.solo.Name == "" {
			t.Errorf("%v: empty default name", c.args)
		}
		if got.logPath != filepath.Join("/tmp/st", "aeroplane", "aeroplane.log") || got.solo.LogDir != "/tmp/st/aeroplane/games" {
			t.Errorf("%v: logs in %s and %s", c.args, got.logPath, got.solo.LogDir)
		}
	}
}

func TestPlayIsDefaultCommand(t *testing.T) {
	for _, c := range commands {
		if c.name == "play" {
			return
		}
	}
	t.Fatal("no play command registered: `go run .` would have nothing to run")
}
