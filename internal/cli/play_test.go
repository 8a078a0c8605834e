package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/p2p"
	"aeroplane/session"
	"aeroplane/ui"
)

func withPlayEnv(t *testing.T, envs map[string]string) {
	old := playEnv
	playEnv = func(k string) string { return envs[k] }
	t.Cleanup(func() { playEnv = old })
}

func TestPlayFlags(t *testing.T) {
	withPlayEnv(t, map[string]string{"XDG_STATE_HOME": "/tmp/st", "LANG": "el_GR.UTF-8"})
	defIdentity, err := p2p.DefaultIdentityPath()
	if err != nil {
		t.Fatal(err)
	}
	std := engine.DefaultRules().String()
	cases := []struct {
		args     []string
		want     playSetup // lang, rules, name (if set), offline, connect, identity, dataDir, port, noDiscovery, botDelay
		usageErr string
	}{
		{args: nil, want: playSetup{identity: defIdentity, dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--lang", "zh", "--name", "mei"},
			want: playSetup{name: "mei", identity: defIdentity, dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--offline", "--bot-delay", "0"},
			want: playSetup{offline: true, dataDir: "/tmp/st/aeroplane/games"}},
		{args: []string{"--offline", "--identity", "/k/id.key"},
			want: playSetup{offline: true, identity: "/k/id.key", dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--connect", "10.0.0.2:4001", "--connect", "/ip4/10.0.0.3/tcp/5/p2p/x", "--data", "/g", "--identity", "/i", "--port", "4001", "--no-discovery"},
			want: playSetup{connect: []string{"10.0.0.2:4001", "/ip4/10.0.0.3/tcp/5/p2p/x"}, identity: "/i", dataDir: "/g", port: 4001, noDiscovery: true, botDelay: 700 * time.Millisecond}},
		{args: []string{"--rules", "takeoff=six,stack=off"},
			want: playSetup{identity: defIdentity, dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--web", "192.168.1.5:8080"},
			want: playSetup{identity: defIdentity, dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--no-web"},
			want: playSetup{identity: defIdentity, dataDir: "/tmp/st/aeroplane/games", botDelay: 700 * time.Millisecond}},
		{args: []string{"--rules", "takeoff=seven"}, usageErr: "takeoff"},
		{args: []string{"--lang", "xx"}, usageErr: "no such language"},
		{args: []string{"--bot-delay", "-1s"}, usageErr: "bot-delay"},
		{args: []string{"--port", "70000"}, usageErr: "--port"},
		{args: []string{"--name", "\x1b\x07"}, usageErr: "--name"},
		{args: []string{"--offline", "--connect", "1.2.3.4:5"}, usageErr: "drop --connect"},
		{args: []string{"stray"}, usageErr: "unexpected argument"},
		{args: []string{"--web", "127.0.0.1:0", "--no-web"}, usageErr: "give one"},
		{args: []string{"--offline", "--web", "127.0.0.1:0"}, usageErr: "drop --web"},
		{args: []string{"--offline", "--names", "ann,bob,cat", "--bot-delay", "0"},
			want: playSetup{name: "ann", people: []string{"bob", "cat"}, offline: true, dataDir: "/tmp/st/aeroplane/games"}},
		{args: []string{"--names", "ann,bob", "--bot-delay", "0", "--identity", "/k/id.key"},
			want: playSetup{name: "ann", people: []string{"bob"}, identity: "/k/id.key", dataDir: "/tmp/st/aeroplane/games"}},
		{args: []string{"--offline", "--names", "ann,\x1b"}, usageErr: "--names"},
		{args: []string{"--offline", "--names", "a,b,c,d,e"}, usageErr: "at most 4"},
	}
	for _, c := range cases {
		var got *playSetup
		var stderr bytes.Buffer
		err := play(&env{args: c.args, stderr: &stderr}, func(s playSetup) error { got = &s; return nil })
		if c.usageErr != "" {
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.usageErr) {
				t.Errorf("%q: err %v, want a usage error about %q", c.args, err, c.usageErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		wantLang, wantRules := "el", std
		if slices.Contains(c.args, "zh") {
			wantLang = "zh"
		}
		if slices.Contains(c.args, "--rules") {
			wantRules = "takeoff=six,overshoot=bounce,stack=off,flyjump=off"
		}
		if got.opts.Lang != wantLang || got.opts.Rules.String() != wantRules {
			t.Errorf("%q: lang %s rules %s, want %s %s", c.args, got.opts.Lang, got.opts.Rules, wantLang, wantRules)
		}
		if got.name == "" || (c.want.name != "" && got.name != c.want.name) {
			t.Errorf("%q: name %q, want %q (or the user's name)", c.args, got.name, c.want.name)
		}
		w := c.want
		if !slices.Equal(got.people, w.people) {
			t.Errorf("%q: people %q, want %q", c.args, got.people, w.people)
		}
		if got.offline != w.offline || !slices.Equal(got.connect, w.connect) || got.identity != w.identity ||
			got.dataDir != w.dataDir || got.port != w.port || got.noDiscovery != w.noDiscovery || got.botDelay != w.botDelay {
			t.Errorf("%q: got offline=%v connect=%q identity=%q data=%q port=%d nodisc=%v delay=%v\nwant %+v",
				c.args, got.offline, got.connect, got.identity, got.dataDir, got.port, got.noDiscovery, got.botDelay, w)
		}
		if wantWeb := flagValue(c.args, "--web"); got.web.addr != wantWeb || got.web.off != slices.Contains(c.args, "--no-web") {
			t.Errorf("%q: web %+v, want addr %q", c.args, *got.web, wantWeb)
		}
		if got.logPath != filepath.Join("/tmp/st", "aeroplane", "aeroplane.log") {
			t.Errorf("%q: diagnostics in %s", c.args, got.logPath)
		}
	}
}

// The name the player gave last time in this data directory is offered
// again; --name overrides it, and a damaged name file is no name.
func TestPlayNameRemembered(t *testing.T) {
	withPlayEnv(t, map[string]string{"XDG_STATE_HOME": t.TempDir()})
	data := t.TempDir()
	if err := ui.RememberName(data, "Mei Lin"); err != nil {
		t.Fatal(err)
	}
	name := func(args ...string) string {
		var got playSetup
		if err := play(&env{args: append([]string{"--data", data, "--offline"}, args...), stderr: &bytes.Buffer{}},
			func(s playSetup) error { got = s; return nil }); err != nil {
			t.Fatal(err)
		}
		return got.name
	}
	if got := name(); got != "Mei Lin" {
		t.Errorf("no --name: %q, want the remembered %q", got, "Mei Lin")
	}
	if got := name("--name", "ann"); got != "ann" {
		t.Errorf("--name ann: %q", got)
	}
	if err := os.WriteFile(filepath.Join(data, "player-name"), []byte("\x1b\x07\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := name(); got != defaultName() {
		t.Errorf("an unprintable remembered name: %q, want the user's %q", got, defaultName())
	}
}

// The help names every flag and says where games, logs and the identity
// go, with the paths this user would get.
func TestPlayHelp(t *testing.T) {
	withPlayEnv(t, map[string]string{"XDG_STATE_HOME": "/var/st"})
	var stdout bytes.Buffer
	code := Main([]string{"play", "-h"}, strings.NewReader(""), &stdout, &bytes.Buffer{})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	help := stdout.String()
	want := []string{"/var/st/aeroplane/games", "/var/st/aeroplane/aeroplane.log", "aeroplane verify", "mDNS", "--offline",
		// what the web flags do, and the default: phones at the table only
		"only while you are at a table", "Back at the list\nof games it stops", "--web ADDR serves it all the time", "--no-web never"}
	for _, f := range []string{"offline", "name", "names", "connect", "identity", "data", "port", "no-discovery", "lang", "rules", "bot-delay", "web", "no-web"} {
		want = append(want, "  -"+f)
	}
	for _, w := range want {
		if !strings.Contains(help, w) {
			t.Errorf("help lacks %q:\n%s", w, help)
		}
	}
}

// headless serves no page unless --web says where: its help says so and
// does not promise play's table default.
func TestHeadlessWebHelp(t *testing.T) {
	var stdout bytes.Buffer
	if code := Main([]string{"headless", "-h"}, strings.NewReader(""), &stdout, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	help := stdout.String()
	if !strings.Contains(help, "default: not served") || strings.Contains(help, "at a table") {
		t.Errorf("headless help on --web:\n%s", help)
	}
}

// firstLobby waits for the session's first lobby.
func firstLobby(t *testing.T, s ui.Session) ui.LobbyUpdate {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-s.Events():
			if !ok {
				t.Fatal("events closed before a lobby")
			}
			if l, ok := e.(ui.LobbyUpdate); ok {
				return l
			}
		case <-timeout:
			t.Fatal("no lobby")
		}
	}
}

// --offline is the real lockstep game with no network: the lobby has no
// address, and a game started against bots writes its log to --data.
func TestPlayOfflineSession(t *testing.T) {
	dir := t.TempDir()
	s := playSetup{name: "ann", offline: true, dataDir: filepath.Join(dir, "games")}
	sess, err := newPlaySession(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if _, ok := sess.(*session.LocalSession); !ok {
		t.Fatalf("offline session is a %T, want the lockstep LocalSession", sess)
	}
	l := firstLobby(t, sess)
	if l.Me.Addr != "" || l.Me.Name != "ann" {
		t.Errorf("offline lobby %+v: want no address and the name ann", l.Me)
	}
	if err := sess.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := sess.Start(); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("game logs after the start: %q, want one", logs)
	}
}

// Without HOME or XDG_STATE_HOME, --data is where everything goes; without
// it too, the error says what to set.
func TestPlayNoStateDir(t *testing.T) {
	withPlayEnv(t, map[string]string{})
	t.Setenv("HOME", "")
	var got *playSetup
	err := play(&env{args: []string{"--offline", "--data", "/d"}, stderr: &bytes.Buffer{}}, func(s playSetup) error { got = &s; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if got.dataDir != "/d" || got.logPath != "/d/aeroplane.log" {
		t.Errorf("data %s, diagnostics %s: want both in /d", got.dataDir, got.logPath)
	}
	err = play(&env{args: []string{"--offline"}, stderr: &bytes.Buffer{}}, func(playSetup) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "--data") || !strings.Contains(err.Error(), "XDG_STATE_HOME") {
		t.Errorf("err %v, want advice to set XDG_STATE_HOME or pass --data", err)
	}
}

// A --data that cannot hold game logs stops play (offline and LAN) and
// headless at start-up, before any host or lobby, with what to do. The
// read-only case is a read-only tmpfs mounted in the test's own mount
// namespace, so it holds for root too (permission bits do not stop root).
func TestDataDirCheckedAtStart(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(base, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=1m", "aeroplane-ro", ro).CombinedOutput(); err != nil {
		t.Fatalf("mounting a read-only tmpfs in the test's namespace: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", ro).Run() })
	for _, c := range []struct {
		name, dir string
		want      string // "" : accepted
	}{
		{"missing parent", filepath.Join(base, "nosuch", "games"), "parent"},
		{"parent is a file", filepath.Join(file, "games"), "parent"},
		{"a file, not a directory", file, "not a directory"},
		{"read-only directory", ro, "read-only"},
		{"missing directory under a read-only one", filepath.Join(ro, "games"), "read-only"},
		{"missing directory, parent exists", filepath.Join(base, "new"), ""},
		{"existing directory", base, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(mode string, err error) {
				t.Helper()
				if c.want == "" {
					if err != nil {
						t.Errorf("%s: %v, want the directory accepted", mode, err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--data") {
					t.Errorf("%s: err %v, want %q and advice about --data", mode, err, c.want)
				}
			}
			check("check", checkDataDir(c.dir))
			if c.want == "" {
				return
			}
			for _, offline := range []bool{true, false} {
				_, err := newPlaySession(playSetup{name: "ann", offline: offline, dataDir: c.dir,
					identity: filepath.Join(t.TempDir(), "id.key")}, nil)
				check(map[bool]string{true: "play --offline", false: "play"}[offline], err)
			}
			// Headless prints "peer ID" as soon as its host is up: the
			// refusal must come before it. A separate process (this binary
			// as aeroplane), killed if it hangs in the lobby instead.
			cmd := exec.Command(os.Args[0], "--headless", "--lobby", "x", "--players", "3", "--data", c.dir,
				"--identity", filepath.Join(t.TempDir(), "id.key"))
			cmd.Env = append(os.Environ(), "AEROPLANE_AS_MAIN=1")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			timer := time.AfterFunc(20*time.Second, func() { _ = cmd.Process.Kill() })
			err := cmd.Wait()
			timer.Stop()
			if err == nil || strings.Contains(errb.String(), " peer ") {
				t.Errorf("headless: %v after starting its host; stderr %q", err, errb.String())
			}
			check("headless", errors.New(errb.String()))
			t.Logf("headless says: %s", strings.TrimSpace(errb.String()))
		})
	}
}

// Without --offline the session is the LAN lobby: it listens, shows an
// address to connect to, and keeps its identity across starts.
func TestPlayLANSession(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	dir := t.TempDir()
	s := playSetup{name: "ann", identity: filepath.Join(dir, "id.key"), dataDir: filepath.Join(dir, "games")}
	var ids []string
	for range 2 {
		sess, err := newPlaySession(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sess.(*session.NetSession); !ok {
			t.Fatalf("session is a %T, want the LAN NetSession", sess)
		}
		l := firstLobby(t, sess)
		sess.Close()
		if !strings.Contains(l.Me.Addr, "/p2p/"+l.Me.ID) {
			t.Errorf("lobby address %q does not reach peer %s", l.Me.Addr, l.Me.ID)
		}
		ids = append(ids, l.Me.ID)
	}
	if ids[0] != ids[1] {
		t.Errorf("identity changed between starts: %s then %s", ids[0], ids[1])
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

// flagValue is the argument after name in args, "" if name is absent.
func flagValue(args []string, name string) string {
	if i := slices.Index(args, name); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}
